import { formatMoney } from "@skinmarket/contract";
import { sql } from "kysely";
import type { DomainContext } from "../context.ts";
import { fireBookmarkAlerts } from "../goods/fire-bookmark-alerts.ts";
import { readGoodsPrices } from "../market/read-goods-prices.ts";
import { ok } from "../result.ts";
import { inTransaction, noteNoMarketChange } from "../transaction.ts";
import { CHANGES_CHANNEL } from "../change-notices.ts";
import { formatEvents, type OutboxRow } from "./format-events.ts";
import type { NewEvent } from "./new-event.ts";

/** One sequencer at a time across every instance (docs/design/webhooks-and-tools.md#owed-in-the-sequencers-transaction). */
export const SEQUENCER_LOCK_KEY = 730_120;
/** Outbox rows turned into events per round: a round is one transaction, kept short. */
export const SEQUENCE_BATCH = 1000;

/** An event as the log holds it. */
export interface StoredEvent {
  event_id: number;
  type: string;
  user_id: number | null;
  goods_id: number | null;
  created_at: Date;
  data: unknown;
}

/**
 * Told of a round's events inside the round's transaction, after they got their ids: what it
 * writes commits with the events or not at all (webhooks register the deliveries the events owe).
 */
export type RoundListener = (tx: DomainContext, events: readonly StoredEvent[]) => Promise<unknown>;

export type SequenceRound = { state: "busy" } | { state: "done"; events: StoredEvent[]; more: boolean };

/**
 * One round of the sequencer: under `pg_try_advisory_xact_lock`, takes the oldest changes the
 * triggers wrote (committed ones only: the others are not visible), turns them into events with
 * the records they carry, adds a `market.price_changed` event for every goods whose lowest ask or
 * highest bid moved and a `bookmark.price_alert` for every alert that move crossed, gives them the next ids, and deletes the outbox rows, all in one transaction.
 * Ids follow the order in which rounds commit, and a round starts only once the last one has
 * committed (the lock), so a reader that saw an id never finds a smaller one later. Answers `busy`
 * when another instance holds the lock (its round will take what this one would have, or the
 * caller tries again). `roundListeners` hear the events inside the round's transaction.
 */
export async function sequenceEvents(
  ctx: DomainContext,
  roundListeners: readonly RoundListener[],
): Promise<SequenceRound> {
  // The round's own commit is not a change anyone else must hear of: no `afterCommit`.
  const result = await inTransaction({ ...ctx, afterCommit: undefined }, async (tx) => {
    noteNoMarketChange(tx);
    const lock = await sql<{ locked: boolean }>`
      SELECT pg_try_advisory_xact_lock(${SEQUENCER_LOCK_KEY}) AS locked`.execute(tx.db);
    if (!lock.rows[0]?.locked) return ok<SequenceRound>({ state: "busy" });
    // Taken and deleted in one statement (its snapshot begins after the lock is held), in order.
    const taken = await sql<OutboxRow>`
      DELETE FROM event_outbox
      WHERE seq IN (SELECT seq FROM event_outbox ORDER BY seq LIMIT ${SEQUENCE_BATCH})
      RETURNING seq, txid::text AS txid, type, user_id, goods_id, subject`.execute(tx.db);
    const batch = taken.rows.map((row) => ({ ...row, seq: Number(row.seq) })).sort((a, b) => a.seq - b.seq);
    // A full batch may have more behind it: at worst one round more finds nothing.
    const more = batch.length === SEQUENCE_BATCH;
    if (batch.length === 0) return ok<SequenceRound>({ state: "done", events: [], more: false });
    const formatted = await formatEvents(tx, batch);
    const goodsIds = new Set<number>();
    for (const row of batch)
      if (row.goods_id !== null && !row.type.startsWith("trade.") && row.type !== "listing.changed")
        goodsIds.add(row.goods_id);
    formatted.push(...(await priceEvents(tx, [...goodsIds])));
    const events = await insertEvents(tx, formatted);
    for (const listener of roundListeners) await listener(tx, events);
    return ok<SequenceRound>({ state: "done", events, more });
  });
  if (!result.ok) throw new Error(`sequencing events failed: ${result.failure.message}`);
  return result.value;
}

/**
 * Writes `events` to the log with the next ids, in order, and announces the last id to every
 * instance (`pg_notify`, sent when the round commits), in one statement.
 */
async function insertEvents(ctx: DomainContext, events: readonly NewEvent[]): Promise<StoredEvent[]> {
  if (events.length === 0) return [];
  const createdAt = ctx.clock.now();
  // One JSON parameter, whatever the batch's size; `nextval` runs after the sort, in event order.
  const inserted = await sql<{ ids: number[] }>`
    WITH inserted AS (
      INSERT INTO events (event_id, type, user_id, goods_id, created_at, data)
      SELECT nextval('event_ids'), e->>'type', (e->>'user_id')::integer, (e->>'goods_id')::integer,
        ${createdAt}, e->'data'
      FROM jsonb_array_elements(${JSON.stringify(events)}::jsonb) WITH ORDINALITY AS batch(e, position)
      ORDER BY position
      RETURNING event_id
    )
    SELECT json_agg(event_id) AS ids,
      pg_notify(${CHANGES_CHANNEL}, jsonb_build_object('kind', 'events', 'last', max(event_id))::text)
    FROM inserted`.execute(ctx.db);
  // The ids were taken in event order: sorted, the n-th is the n-th event's.
  const ids = inserted.rows[0]!.ids.map(Number).sort((a, b) => a - b);
  return events.map((event, index) => ({
    event_id: ids[index]!,
    type: event.type,
    user_id: event.user_id,
    goods_id: event.goods_id,
    created_at: createdAt,
    data: event.data,
  }));
}

/**
 * `market.price_changed` for each of `goodsIds` whose lowest ask or highest bid differs from the
 * one last announced (`market_price_marks`), with both figures before and after; after each, the
 * `bookmark.price_alert` events the new figures fire (docs/design/events.md#price-alerts-on-bookmarks).
 */
async function priceEvents(ctx: DomainContext, goodsIds: readonly number[]): Promise<NewEvent[]> {
  if (goodsIds.length === 0) return [];
  const [prices, marks] = await Promise.all([
    readGoodsPrices(ctx, goodsIds),
    ctx.db
      .selectFrom("market_price_marks")
      .selectAll()
      .where("goods_id", "in", [...goodsIds])
      .execute(),
  ]);
  const marked = new Map(marks.map((mark) => [mark.goods_id, mark]));
  const events: NewEvent[] = [];
  const changed: { goods_id: number; sell_min: number; buy_max: number }[] = [];
  for (const goodsId of [...goodsIds].sort((a, b) => a - b)) {
    const now = prices.get(goodsId)!;
    const before = marked.get(goodsId) ?? { sell_min: 0, buy_max: 0 };
    if (Number(before.sell_min) === now.sellMin && Number(before.buy_max) === now.buyMax) continue;
    changed.push({ goods_id: goodsId, sell_min: now.sellMin, buy_max: now.buyMax });
    events.push({
      type: "market.price_changed",
      user_id: null,
      goods_id: goodsId,
      data: {
        goods_id: goodsId,
        sell_min_price: formatMoney(now.sellMin),
        buy_max_price: formatMoney(now.buyMax),
        buy_order_num: now.buyOrderNum,
        previous_sell_min_price: formatMoney(Number(before.sell_min)),
        previous_buy_max_price: formatMoney(Number(before.buy_max)),
      },
    });
  }
  if (changed.length > 0) {
    await ctx.db
      .insertInto("market_price_marks")
      .values(changed)
      .onConflict((conflict) =>
        conflict.column("goods_id").doUpdateSet((eb) => ({
          sell_min: eb.ref("excluded.sell_min"),
          buy_max: eb.ref("excluded.buy_max"),
        })),
      )
      .execute();
  }
  const alerts = await fireBookmarkAlerts(ctx, changed);
  if (alerts.length === 0) return events;
  // Each goods' alerts right after its price event: a subscriber reads the cause, then the alert.
  return events.flatMap((event) => [
    event,
    ...alerts
      .filter((alert) => alert.goods_id === event.goods_id)
      .map((alert): NewEvent => ({ type: "bookmark.price_alert", ...alert })),
  ]);
}
