import { sql, type Kysely } from "kysely";
import pg from "pg";
import type { Database } from "./schema.ts";

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

function isGoodsIds(value: unknown): value is number[] {
  return Array.isArray(value) && value.every((id) => Number.isSafeInteger(id));
}

export interface ChangeListener {
  close(): Promise<void>;
}

/**
 * Listens on PostgreSQL for the changes other instances publish (`pg_notify` inside the
 * transaction of the change, so a message arrives only once the change has committed). The
 * connection is its own, outside the pool; when it drops it is opened again after a second, and
 * `onReconnect` lets the caller reload what it may have missed.
 */
export async function listenForChanges(options: {
  url: string;
  onChange: (message: ChangeMessage) => void;
  onReconnect: () => void;
  log: { warn(object: object, message: string): void };
}): Promise<ChangeListener> {
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: options.url });
    next.on("notification", (notification) => {
      try {
        const message = JSON.parse(notification.payload ?? "{}") as {
          kind?: unknown;
          from?: unknown;
          goods?: unknown;
          last?: unknown;
        };
        if (typeof message.kind === "string")
          options.onChange({
            kind: message.kind,
            ...(typeof message.from === "string" ? { from: message.from } : {}),
            ...(isGoodsIds(message.goods) ? { goods: message.goods } : {}),
            ...(Number.isSafeInteger(message.last) ? { last: message.last as number } : {}),
          });
      } catch {
        options.log.warn({ payload: notification.payload }, "ignored a change notification that is not JSON");
      }
    });
    next.on("error", (error) => {
      options.log.warn({ err: error }, "the change-notification connection failed; reconnecting");
      scheduleReconnect();
    });
    await next.connect();
    await next.query(`LISTEN ${CHANGES_CHANNEL}`);
    client = next;
  };

  const scheduleReconnect = () => {
    if (closed || retry) return;
    client?.end().catch(() => undefined);
    client = undefined;
    retry = setTimeout(() => {
      retry = undefined;
      connect()
        .then(() => options.onReconnect())
        .catch(() => scheduleReconnect());
    }, 1000);
    retry.unref();
  };

  await connect();
  return {
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      await client?.end().catch(() => undefined);
    },
  };
}

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
