import { sql, type Kysely } from "kysely";
import type { Database } from "../storage/schema.ts";

/** The channel on which instances tell each other what changed (docs/design/market-snapshots.md#other-instances). */
export const CHANGES_CHANNEL = "skinmarket_changes";

/**
 * A change another instance announced. Kind `market`: `goods`, the goods a market change touched;
 * without it (a reset, a demo build, a new catalog, an instance that does not say) everything may
 * have changed. Kind `ranks`: the liquidity ranks were recomputed.
 */
export interface ChangeMessage {
  kind: string;
  from?: string;
  goods?: number[];
  /** For `events`: the last event id the sequencer wrote. */
  last?: number;
}

export interface ChangeListener {
  close(): Promise<void>;
}

/**
 * The port by which an instance hears the changes the others announce; the driver's side
 * (PostgreSQL's `LISTEN` on its own connection) is `storage/change-notifications.ts`.
 */
export type ListenForChanges = (options: {
  url: string;
  onChange: (message: ChangeMessage) => void;
  onReconnect: () => void;
  log: { warn(object: object, message: string): void };
}) => Promise<ChangeListener>;

/**
 * Tells the other instances of a market change (`batched` calls it): the goods it touched (kind
 * `market` with `goods`), the liquidity ranks (kind `ranks`), or everything (kind `market` alone).
 */
export async function announceMarketChange(
  db: Kysely<Database>,
  from: string,
  change: readonly number[] | "ranks" | "all",
): Promise<void> {
  if (change === "ranks") await announceChange(db, "ranks", from);
  else await announceChange(db, "market", from, change === "all" ? undefined : change);
}

/** The market change a notice from another instance tells of, if it tells of one. */
export function marketChangeOf(message: ChangeMessage): readonly number[] | "ranks" | "all" | undefined {
  if (message.kind === "ranks") return "ranks";
  if (message.kind === "market") return message.goods ?? "all";
  return undefined;
}

/**
 * Tells the other instances that something of `kind` changed (for a market change, which `goods`,
 * or everything when left out). `from` names this instance, so that it can ignore its own
 * announcement when it hears it.
 */
export async function announceChange(
  db: Kysely<Database>,
  kind: string,
  from: string,
  goods?: readonly number[],
): Promise<void> {
  const message = JSON.stringify({ kind, from, ...(goods ? { goods } : {}) });
  await sql`SELECT pg_notify(${CHANGES_CHANNEL}, ${message})`.execute(db);
}
