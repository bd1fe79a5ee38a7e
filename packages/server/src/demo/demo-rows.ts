import { toAssetInfo } from "../domain/platform-accounts/asset-info.ts";
import { toPlatformAsset, type SandboxAssetRow } from "../platform/sandbox/asset-rows.ts";
import type { DemoGoods, DemoItem } from "./demo-items.ts";

/**
 * The rows a demo build writes for an item: its platform asset, its copy in the owner's
 * inventory and its listing, with the columns and types of each table (`insertRows`).
 */

export const ASSET_COLUMNS = {
  assetid: "bigint",
  platformid: "text",
  goods_id: "integer",
  classid: "text",
  instanceid: "text",
  paintwear: "text",
  paintseed: "integer",
  paintindex: "integer",
  stickers: "jsonb",
  keychains: "jsonb",
  nametag: "text",
  tradable_after: "timestamptz",
  acquired_at: "timestamptz",
  traded_to_assetid: "bigint",
  traded_from_assetid: "bigint",
} as const;

export const INVENTORY_COLUMNS = {
  platformid: "text",
  assetid: "bigint",
  goods_id: "integer",
  paintwear: "numeric",
  has_nametag: "boolean",
  tradable_after: "timestamptz",
  acquired_at: "timestamptz",
  asset: "jsonb",
} as const;

export const LISTING_COLUMNS = {
  listing_id: "bigint",
  user_id: "bigint",
  platformid: "text",
  assetid: "bigint",
  goods_id: "integer",
  price: "bigint",
  fee: "bigint",
  state: "text",
  allow_bargain: "boolean",
  allow_wallet_zft: "boolean",
  allow_epay: "boolean",
  allow_pending_divide_balance: "boolean",
  force_buyer_send_offer: "boolean",
  description: "text",
  paintwear: "numeric",
  paintseed: "integer",
  paintindex: "integer",
  tradable_after: "timestamptz",
  trade_ended: "boolean",
  created_at: "timestamptz",
  updated_at: "timestamptz",
} as const;

export function assetRow(
  goods: DemoGoods,
  item: DemoItem,
  where: {
    assetid: number;
    platformid: string;
    acquiredAt: Date;
    tradableAfter: Date | null;
    tradedTo: number | null;
    tradedFrom: number | null;
  },
): SandboxAssetRow {
  return {
    assetid: where.assetid,
    platformid: where.platformid,
    goods_id: goods.goods_id,
    classid: item.classid,
    instanceid: item.instanceid,
    paintwear: item.paintwear,
    paintseed: item.paintseed,
    paintindex: item.paintindex,
    stickers: item.stickers,
    keychains: item.keychains,
    nametag: item.nametag,
    tradable_after: where.tradableAfter,
    acquired_at: where.acquiredAt,
    traded_to_assetid: where.tradedTo,
    traded_from_assetid: where.tradedFrom,
  };
}

export function assetJson(row: SandboxAssetRow): object {
  return {
    ...row,
    tradable_after: row.tradable_after?.toISOString() ?? null,
    acquired_at: row.acquired_at.toISOString(),
  };
}

/** The reference's asset record of an item, as the inventory refresh and a listing store it. */
export function assetInfo(goods: DemoGoods, row: SandboxAssetRow) {
  return toAssetInfo(toPlatformAsset(row, goods.type), goods.icon_url, goods.type);
}

export function inventoryRow(goods: DemoGoods, row: SandboxAssetRow): object {
  return {
    platformid: row.platformid,
    assetid: row.assetid,
    goods_id: goods.goods_id,
    paintwear: row.paintwear,
    has_nametag: row.nametag !== null,
    tradable_after: row.tradable_after?.toISOString() ?? null,
    acquired_at: row.acquired_at.toISOString(),
    asset: assetInfo(goods, row),
  };
}

export function listingRow(
  goods: DemoGoods,
  item: DemoItem,
  row: SandboxAssetRow,
  listing: { listingId: number; userId: number; price: number; fee: number; createdAt: Date },
) {
  return {
    listing_id: listing.listingId,
    user_id: listing.userId,
    platformid: row.platformid,
    assetid: row.assetid,
    goods_id: goods.goods_id,
    price: listing.price,
    fee: listing.fee,
    state: "ON_SALE",
    allow_bargain: false,
    allow_wallet_zft: true,
    allow_epay: true,
    allow_pending_divide_balance: false,
    force_buyer_send_offer: false,
    description: "",
    paintwear: item.paintwear,
    paintseed: item.paintseed,
    paintindex: item.paintindex,
    tradable_after: row.tradable_after?.toISOString() ?? null,
    trade_ended: false,
    created_at: listing.createdAt.toISOString(),
    updated_at: listing.createdAt.toISOString(),
  };
}
