import type { Transaction } from "kysely";
import type { Database } from "../storage/schema.ts";
import { insertRows, reserveIds } from "./bulk-rows.ts";

/**
 * The journal entries of a demo build, noted as the world is drawn and written a batch at a
 * time, numbered in the order they were noted (deposits first, then the trades oldest first).
 */
export class DemoJournal {
  readonly #tx: Transaction<Database>;
  readonly #batch: number;
  #entries: Array<Record<string, unknown>> = [];
  #lines: Array<Record<string, unknown>> = [];

  constructor(tx: Transaction<Database>, batch: number) {
    this.#tx = tx;
    this.#batch = batch;
  }

  /** Notes a journal entry and its lines, to be written by the next `flush`. */
  entry(
    kind: string,
    at: Date,
    reference: string,
    memo: Record<string, unknown>,
    lines: Array<[accountId: number, amount: number]>,
  ): void {
    const entry = this.#entries.length;
    this.#entries.push({ entry, kind, created_at: at.toISOString(), reference, memo });
    for (const [accountId, amount] of lines) this.#lines.push({ entry, account_id: accountId, amount });
  }

  /** Writes the entries noted so far, numbered in the order they were noted, with their lines. */
  async flush(): Promise<void> {
    if (this.#entries.length === 0) return;
    const firstEntry = await reserveIds(
      this.#tx,
      { table: "journal_entries", column: "entry_id" },
      this.#entries.length,
    );
    const firstLine = await reserveIds(
      this.#tx,
      { table: "journal_lines", column: "line_id" },
      this.#lines.length,
    );
    const entries = this.#entries.map(({ entry, ...rest }) => ({
      entry_id: firstEntry + (entry as number),
      ...rest,
    }));
    const lines = this.#lines.map(({ entry, ...rest }, index) => ({
      line_id: firstLine + index,
      entry_id: firstEntry + (entry as number),
      ...rest,
    }));
    this.#entries = [];
    this.#lines = [];
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
