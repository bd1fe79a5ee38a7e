import {
  eventTypeMatches,
  isStreamChannel,
  MAX_STREAM_CHANNELS,
  unknownEventTypePattern,
  type StreamChannel,
  type StreamClientMessage,
} from "@skinmarket/contract";
import type { DomainContext } from "../context.ts";
import { readEventsAfter } from "./read-events.ts";
import type { StoredEvent } from "./sequence-events.ts";

/** A channel of one connection, with its type filter (none: every type the channel carries). */
export interface Subscription {
  channel: StreamChannel;
  /** Goods of `prices:<id>` and `book:<id>`. */
  goodsId: number | undefined;
  types: readonly string[] | undefined;
}

const EVENT_ID = /^\d{1,18}$/;
const FIELDS: Record<string, readonly string[]> = {
  subscribe: ["op", "channels", "after", "types"],
  unsubscribe: ["op", "channels"],
  ping: ["op"],
};

/** A client's frame checked; the message of an invalid one names the field. */
export function parseClientMessage(
  text: string,
): { ok: true; message: StreamClientMessage } | { ok: false; message: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, message: "message: not JSON" };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { ok: false, message: "message: must be a JSON object" };
  const record = value as Record<string, unknown>;
  const op = record.op;
  if (typeof op !== "string" || !(op in FIELDS))
    return { ok: false, message: "op: must be one of subscribe, unsubscribe, ping" };
  const unknown = Object.keys(record).find((field) => !FIELDS[op]!.includes(field));
  if (unknown !== undefined) return { ok: false, message: `${unknown}: unknown field for op ${op}` };
  if (op === "ping") return { ok: true, message: { op } };
  const channels = record.channels;
  if (!Array.isArray(channels) || channels.length === 0)
    return { ok: false, message: "channels: must be a non-empty array of channel names" };
  if (channels.length > MAX_STREAM_CHANNELS)
    return { ok: false, message: `channels: at most ${MAX_STREAM_CHANNELS} channels` };
  for (const [index, channel] of channels.entries()) {
    if (typeof channel !== "string" || !isStreamChannel(channel))
      return {
        ok: false,
        message: `channels[${index}]: ${JSON.stringify(channel)} is not a channel (account, market, prices, prices:<goods_id>, book:<goods_id>)`,
      };
  }
  const named = [...new Set(channels as StreamChannel[])];
  if (op === "unsubscribe") return { ok: true, message: { op, channels: named } };
  const after = record.after;
  if (after !== undefined && (typeof after !== "string" || !EVENT_ID.test(after)))
    return { ok: false, message: "after: must be an event id (a decimal string)" };
  const types = record.types;
  if (types !== undefined) {
    if (!Array.isArray(types) || types.length === 0 || types.length > 100)
      return { ok: false, message: "types: must be an array of 1 to 100 event types" };
    for (const [index, type] of types.entries()) {
      if (typeof type !== "string" || unknownEventTypePattern([type]) !== undefined)
        return { ok: false, message: `types[${index}]: ${JSON.stringify(type)} is not an event type` };
    }
  }
  return {
    ok: true,
    message: {
      op: "subscribe",
      channels: named,
      ...(after === undefined ? {} : { after }),
      ...(types === undefined ? {} : { types: types as string[] }),
    },
  };
}

export function subscriptionOf(channel: StreamChannel, types: readonly string[] | undefined): Subscription {
  const colon = channel.indexOf(":");
  return { channel, goodsId: colon < 0 ? undefined : Number(channel.slice(colon + 1)), types };
}

/** Whether `event` belongs to the subscription of a connection of user `userId`. */
export function subscriptionMatches(subscription: Subscription, event: StoredEvent, userId: number): boolean {
  let carried: boolean;
  switch (subscription.channel) {
    case "account":
      carried = event.user_id === userId;
      break;
    case "market":
      carried = event.user_id === null;
      break;
    case "prices":
      carried = event.user_id === null && event.type === "market.price_changed";
      break;
    default:
      carried =
        event.user_id === null &&
        event.goods_id === subscription.goodsId &&
        (event.type === "market.price_changed" ||
          (subscription.channel.startsWith("book:") &&
            (event.type.startsWith("market.listing_") || event.type.startsWith("market.buy_order_"))));
  }
  return carried && eventTypeMatches(event.type, subscription.types);
}

/** The first of `subscriptions` that `event` belongs to, if any. */
export function firstMatch(
  subscriptions: Iterable<Subscription>,
  event: StoredEvent,
  userId: number,
): Subscription | undefined {
  for (const subscription of subscriptions)
    if (subscriptionMatches(subscription, event, userId)) return subscription;
  return undefined;
}

/** Events the replay reads per page. */
export const REPLAY_PAGE = 500;

/**
 * The events of `subscriptions` with ids in (after, upTo], oldest first, in pages: the account's
 * and the market's read apart (each index-backed) and merged by id.
 */
export async function* replayEvents(
  ctx: DomainContext,
  options: { userId: number; subscriptions: readonly Subscription[]; after: number; upTo: number },
): AsyncGenerator<StoredEvent> {
  const { subscriptions, userId, upTo } = options;
  const sources: {
    read: (after: number) => Promise<StoredEvent[]>;
    cursor: number;
    page: StoredEvent[];
    done: boolean;
  }[] = [];
  if (subscriptions.some((subscription) => subscription.channel === "account")) {
    sources.push({
      read: (after) => readEventsAfter(ctx, { userId, after, limit: REPLAY_PAGE }),
      cursor: options.after,
      page: [],
      done: false,
    });
  }
  const publicOnes = subscriptions.filter((subscription) => subscription.channel !== "account");
  if (publicOnes.length > 0) {
    // `market` and `prices` read every public event; otherwise only the goods named.
    const everyGoods = publicOnes.some((subscription) => subscription.goodsId === undefined);
    const goodsIds = everyGoods
      ? undefined
      : [...new Set(publicOnes.map((subscription) => subscription.goodsId!))];
    sources.push({
      read: (after) => readEventsAfter(ctx, { userId: null, after, goodsIds, limit: REPLAY_PAGE }),
      cursor: options.after,
      page: [],
      done: false,
    });
  }
  for (;;) {
    for (const source of sources) {
      if (source.page.length > 0 || source.done) continue;
      source.page = (await source.read(source.cursor)).filter((event) => event.event_id <= upTo);
      source.done = source.page.length < REPLAY_PAGE;
      if (source.page.length > 0) source.cursor = source.page[source.page.length - 1]!.event_id;
    }
    let next: (typeof sources)[number] | undefined;
    for (const source of sources)
      if (source.page.length > 0 && (!next || source.page[0]!.event_id < next.page[0]!.event_id))
        next = source;
    if (!next) return;
    const event = next.page.shift()!;
    if (firstMatch(subscriptions, event, userId)) yield event;
  }
}
