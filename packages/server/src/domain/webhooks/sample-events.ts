import {
  BookBuyOrder,
  BookmarkPriceAlertFired,
  getBalance,
  getBuyOrderStatus,
  OnSaleListing,
  OwnBuyOrderRecord,
  PurchaseOrderRecord,
  type EventType,
  type MarketplaceEvent,
} from "@skinmarket/contract";
import type { TSchema } from "typebox";
import { toUnixSeconds } from "../clock.ts";

/** The goods every sample names (a sticker of the catalog). */
const SAMPLE_GOODS_ID = 1;

/**
 * A value of `schema`'s shape, for a test event: each field its example, or a plain value of its
 * type (money `"12.50"`, ids `"1001"`, the first choice of an enum, empty lists).
 */
export function sampleOf(schema: TSchema): unknown {
  const node = schema as Record<string, unknown>;
  if (Array.isArray(node.examples) && node.examples.length > 0) return node.examples[0];
  if ("const" in node) return node.const;
  if (Array.isArray(node.enum)) return node.enum[0];
  if (Array.isArray(node.anyOf)) {
    const options = node.anyOf as TSchema[];
    return sampleOf(options.find((option) => (option as { type?: unknown }).type !== "null") ?? options[0]!);
  }
  switch (node.type) {
    case "object": {
      const properties = (node.properties ?? {}) as Record<string, TSchema>;
      return Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, sampleOf(value)]));
    }
    case "array":
      return [];
    case "integer":
    case "number":
      return typeof node.minimum === "number" ? node.minimum : 0;
    case "boolean":
      return false;
    case "null":
      return null;
    case "string": {
      const pattern = typeof node.pattern === "string" ? node.pattern : "";
      if (pattern.includes("\\.\\d{2}")) return "12.50";
      if (pattern.includes("\\d")) return "1001";
      return "";
    }
    default:
      return null;
  }
}

function sampleData(type: EventType, now: Date): unknown {
  const family = type.split(".")[0];
  if (type === "market.price_changed")
    return {
      goods_id: SAMPLE_GOODS_ID,
      sell_min_price: "12.50",
      buy_max_price: "11.00",
      buy_order_num: 1,
      previous_sell_min_price: "13.00",
      previous_buy_max_price: "11.00",
    };
  if (type === "market.reset") return { tables: [] };
  if (type === "platform.cookie_expired")
    return {
      platformid: "76561190000000001",
      cookie_state: "expired",
      cookies_checked_at: now.toISOString(),
    };
  if (type === "bookmark.price_alert") return sampleOf(BookmarkPriceAlertFired);
  if (type === "buy_order.status_changed") return sampleOf(getBuyOrderStatus.response);
  if (type === "balance.changed") return sampleOf(getBalance.response);
  if (type.startsWith("market.buy_order_")) return sampleOf(BookBuyOrder);
  if (family === "listing" || family === "market") return sampleOf(OnSaleListing);
  if (family === "trade") return sampleOf(PurchaseOrderRecord);
  return sampleOf(OwnBuyOrderRecord);
}

/** The sandbox's test event of `type`: id `0` (real ids start at 1), a sample record of its type. */
export function sampleEvent(type: EventType, now: Date): MarketplaceEvent {
  return {
    id: "0",
    type,
    created_at: toUnixSeconds(now),
    goods_id:
      type === "market.reset" ||
      type.startsWith("balance.") ||
      type.startsWith("platform.") ||
      type === "buy_order.status_changed"
        ? null
        : SAMPLE_GOODS_ID,
    data: sampleData(type, now),
  };
}
