import { sql } from "kysely";
import { recordAudit } from "../../domain/audit.ts";
import type { DomainContext } from "../../domain/context.ts";
import { fail, invalidArgument, ok, type Result } from "../../domain/result.ts";
import { inTransaction, noteNoMarketChange } from "../../domain/transaction.ts";
import type { PlatformAsset } from "../../domain/platform/game-platform.ts";
import { toPlatformAsset } from "./asset-rows.ts";
import { requirePlatformAccount } from "./require-platform-account.ts";
import { mintAttributes, type StickerRequest } from "./mint-assets.ts";

export interface GrantItemsInput {
  platformid: string;
  goodsId?: number;
  marketHashName?: string;
  count?: number;
  paintwear?: string;
  paintseed?: number;
  stickers?: StickerRequest[];
  nametag?: string | null;
  cooldownDays?: number;
  /** Random stickers, charms and name tags on some weapons; off for exact test fixtures. */
  randomExtras?: boolean;
}

export const MAX_GRANT_COUNT = 1000;

/** Puts new items of one goods into a sandbox platform account's inventory. */
export async function grantItems(
  ctx: DomainContext,
  input: GrantItemsInput,
): Promise<Result<{ assets: PlatformAsset[]; goods: { type: string; iconUrl: string } }>> {
  if (ctx.actor.kind !== "admin") return fail("Access Denied", "only the sandbox admin grants items");
  const count = input.count ?? 1;
  if (input.goodsId === undefined && input.marketHashName === undefined) {
    return invalidArgument("goods_id", "give goods_id or market_hash_name");
  }
  return inTransaction(ctx, async (tx) => {
    // New items in an inventory: nothing on the market yet.
    noteNoMarketChange(tx);
    const account = await requirePlatformAccount(tx, input.platformid);
    if (!account.ok) return account;
    let query = tx.db
      .selectFrom("goods")
      .select([
        "goods_id",
        "type",
        "paintwear_min",
        "paintwear_max",
        "paint_index",
        "is_standard",
        "tags",
        "icon_url",
      ]);
    query =
      input.goodsId !== undefined
        ? query.where("goods_id", "=", input.goodsId)
        : query.where("market_hash_name", "=", input.marketHashName!);
    const goods = await query.executeTakeFirst();
    if (!goods)
      return fail(
        "Not Found",
        `${input.goodsId !== undefined ? "goods_id" : "market_hash_name"}: no such goods in the catalog`,
      );

    const now = tx.clock.now();
    const tradableAfter = input.cooldownDays
      ? new Date(now.getTime() + input.cooldownDays * 86_400_000)
      : null;
    const assets: PlatformAsset[] = [];
    for (let index = 0; index < count; index++) {
      const minted = await mintAttributes(tx, goods, {
        ...(input.paintwear !== undefined ? { paintwear: input.paintwear } : {}),
        ...(input.paintseed !== undefined ? { paintseed: input.paintseed } : {}),
        ...(input.stickers !== undefined ? { stickers: input.stickers } : {}),
        ...(input.nametag !== undefined ? { nametag: input.nametag } : {}),
        randomExtras: input.randomExtras ?? true,
      });
      if (!minted.ok) return minted;
      const row = await tx.db
        .insertInto("sandbox_assets")
        .values({
          assetid: sql<number>`nextval('sandbox_assetid_seq')`,
          platformid: input.platformid,
          goods_id: goods.goods_id,
          ...minted.value,
          stickers: JSON.stringify(minted.value.stickers),
          keychains: JSON.stringify(minted.value.keychains),
          tradable_after: tradableAfter,
          acquired_at: now,
          traded_to_assetid: null,
          traded_from_assetid: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      assets.push(toPlatformAsset(row, goods.type));
    }
    await recordAudit(tx, {
      action: "sandbox.items.grant",
      subject: `platform:${input.platformid}`,
      details: { goods_id: goods.goods_id, count, assetids: assets.map((asset) => asset.assetid) },
    });
    return ok({ assets, goods: { type: goods.type, iconUrl: goods.icon_url } });
  });
}
