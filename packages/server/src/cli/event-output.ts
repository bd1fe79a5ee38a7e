import { EVENT_ID_HEADER, SIGNATURE_HEADER, signWebhookPayload } from "@skinmarket/client";
import type { MarketplaceEvent } from "@skinmarket/contract";

/** Fields of an event's record worth a glance, in the order they are looked for. */
const ID_FIELDS = ["id", "order_id", "buy_order_id", "sell_order_id"];
const FIGURE_FIELDS = ["price", "sell_min_price", "market_balance", "balance"];
const STATE_FIELDS = ["state", "status", "buy_order_status"];
/** A receiver that does not answer within this is reported as failed; listening goes on. */
const FORWARD_TIMEOUT_MS = 10_000;

/** One line a person reads: time, id, type, goods, the object's id, its price and state. */
export function describeEvent(event: MarketplaceEvent): string {
  const data = (typeof event.data === "object" && event.data !== null ? event.data : {}) as Record<
    string,
    unknown
  >;
  const pick = (fields: string[]) => {
    const field = fields.find((name) => typeof data[name] === "string" || typeof data[name] === "number");
    return field === undefined ? undefined : `${field} ${String(data[field])}`;
  };
  const parts = [
    new Date(event.created_at * 1000).toISOString().replace(".000Z", "Z"),
    event.id.padStart(6),
    event.type.padEnd(24),
    event.goods_id === null ? undefined : `goods ${event.goods_id}`,
    pick(ID_FIELDS),
    pick(FIGURE_FIELDS),
    pick(STATE_FIELDS),
  ];
  return parts.filter((part) => part !== undefined).join("  ");
}

/**
 * POSTs an event to a local receiver as a webhook delivery is sent: the event's JSON, signed with
 * `secret` (docs/design/webhooks-and-tools.md#webhook-signature). Answers what to print: the status,
 * or why it failed.
 */
export async function forwardEvent(event: MarketplaceEvent, target: string, secret: string): Promise<string> {
  const body = JSON.stringify(event);
  const timestamp = Math.floor(Date.now() / 1000);
  try {
    const response = await fetch(target, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "user-agent": "skinmarket-listen",
        [SIGNATURE_HEADER]: signWebhookPayload({ secret, body, timestamp }),
        [EVENT_ID_HEADER]: event.id,
      },
      body,
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
    await response.body?.cancel();
    return `${event.id} -> ${target}: ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`;
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return `${event.id} -> ${target}: failed (${cause?.code ?? cause?.message ?? (error as Error).message})`;
  }
}
