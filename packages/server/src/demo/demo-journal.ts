import type { Transaction } from "kysely";
import type { Database } from "../storage/schema.ts";
import { insertRows, reserveIds } from "./bulk-rows.ts";

/** A noted entry: its row, its moment (for the order) and its lines. */
interface NotedEntry {
  at: number;
  row: { kind: string; created_at: string; reference: string; memo: Record<string, unknown> };
  lines: Array<[accountId: number, amount: number]>;
}

/**
 * The journal entries of a demo build, noted as the world is drawn and written a batch at a
 * time, numbered in time order: the wallet's movements are listed by entry id, so an entry
 * numbered before an earlier one would show the history out of order (a trade's payout comes
 * minutes to hours after its payment, after the payments of trades bought meanwhile).
 */
export class DemoJournal {
  readonly #tx: Transaction<Database>;
  readonly #batch: number;
  #noted: NotedEntry[] = [];

  constructor(tx: Transaction<Database>, batch: number) {
    this.#tx = tx;
    this.#batch = batch;
  }

  /** Notes a journal entry and its lines, to be written by a later `flush`. */
  entry(
    kind: string,
    at: Date,
    reference: string,
    memo: Record<string, unknown>,
    lines: Array<[accountId: number, amount: number]>,
  ): void {
    this.#noted.push({
      at: at.getTime(),
      row: { kind, created_at: at.toISOString(), reference, memo },
      lines,
    });
  }

  /**
   * Writes the entries noted so far that happened at or before `until` (all of them without it),
   * numbered in time order (entries of one moment in the order they were noted); later ones wait
   * for the next flush, which numbers them after these. A caller passes as `until` the earliest
   * moment an entry it notes later can have.
   */
  async flush(until?: Date): Promise<void> {
    // A stable sort: entries of one moment keep the order they were noted in.
    this.#noted.sort((a, b) => a.at - b.at);
    const limit = until?.getTime() ?? Infinity;
    let count = 0;
    while (count < this.#noted.length && this.#noted[count]!.at <= limit) count++;
    if (count === 0) return;
    const ready = this.#noted.slice(0, count);
    this.#noted = this.#noted.slice(count);
    const lineCount = ready.reduce((sum, entry) => sum + entry.lines.length, 0);
    const firstEntry = await reserveIds(
      this.#tx,
      { table: "journal_entries", column: "entry_id" },
      ready.length,
    );
    const firstLine = await reserveIds(this.#tx, { table: "journal_lines", column: "line_id" }, lineCount);
    const entries = ready.map((entry, index) => ({ entry_id: firstEntry + index, ...entry.row }));
    const lines = ready
      .flatMap((entry, index) =>
        entry.lines.map(([accountId, amount]) => ({
          entry_id: firstEntry + index,
          account_id: accountId,
          amount,
        })),
      )
      .map((line, index) => ({ line_id: firstLine + index, ...line }));
    for (let start = 0; start < entries.length; start += this.#batch * 2) {
      await insertRows(
        this.#tx,
        "journal_entries",
        { entry_id: "bigint", kind: "text", created_at: "timestamptz", reference: "text", memo: "jsonb" },
        entries.slice(start, start + this.#batch * 2),
      );
    }
    for (let start = 0; start < lines.length; start += this.#batch * 4) {
      await insertRows(
        this.#tx,
        "journal_lines",
        { line_id: "bigint", entry_id: "bigint", account_id: "bigint", amount: "bigint" },
        lines.slice(start, start + this.#batch * 4),
      );
    }
  }
}
