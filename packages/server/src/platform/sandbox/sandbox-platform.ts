import type { DomainContext } from "../../domain/context.ts";
import { fail, ok, type Result } from "../../domain/result.ts";
import { inTransaction, noteNoMarketChange } from "../../domain/transaction.ts";
import type {
  GamePlatform,
  PlatformAsset,
  PlatformCookie,
  PlatformTradeOffer,
  SessionInput,
} from "../../domain/platform/game-platform.ts";
import type { OfferItemsFrom } from "../../storage/schema.ts";
import { toPlatformAsset } from "./asset-rows.ts";
import { tradeUrlOf } from "../../domain/platform/trade-url.ts";
import { requirePlatformUp } from "./platform-fault.ts";
import { checkPlatformCookies } from "./platform-sessions.ts";
import { requirePlatformAccount } from "./require-platform-account.ts";
import { newSteamApiKey } from "./steam-api-keys.ts";
import { readSteamMarketPrices } from "./steam-market.ts";
import { findOffer, findOfferOfItem } from "./read-offers.ts";
import { cancelOffer, createOffer, respondToOffer } from "./trade-offers.ts";

/** The game platform kept in our own database (docs/design/platform-and-sandbox.md#game-platform-and-the-sandbox). */
export class SandboxPlatform implements GamePlatform {
  async findAssets(
    ctx: DomainContext,
    input: { assetids: string[] },
  ): Promise<Array<PlatformAsset & { platformid: string }>> {
    const ids = input.assetids.filter((assetid) => /^\d{1,15}$/.test(assetid)).map(Number);
    if (ids.length === 0) return [];
    // Read by the primary key alone, whatever the planner's statistics say (docs/design/performance.md#listing-throughput): with `traded_to_assetid IS NULL` in the statement the planner may combine the partial
    // owner index (every item held, hundreds of thousands of entries) with the key, and under stale
    // statistics it did, at 5-270 ms where the key alone takes under 1 ms. An item that changed
    // hands is dropped here instead. The goods' type is a subquery per item, a key lookup each,
    // where a join could be planned as a scan of the catalog.
    const rows = await ctx.db
      .selectFrom("sandbox_assets")
      .selectAll("sandbox_assets")
      .select((eb) =>
        eb
          .selectFrom("goods")
          .select("goods.type")
          .whereRef("goods.goods_id", "=", "sandbox_assets.goods_id")
          .as("type"),
      )
      .where("sandbox_assets.assetid", "in", ids)
      .execute();
    return rows
      .filter((row) => row.traded_to_assetid === null)
      .map((row) => ({ ...toPlatformAsset(row, row.type ?? ""), platformid: row.platformid }));
  }

  async accountExists(ctx: DomainContext, input: { platformid: string }): Promise<boolean> {
    return (await requirePlatformAccount(ctx, input.platformid)).ok;
  }

  async readInventory(
    ctx: DomainContext,
    input: { platformid: string; cookies?: PlatformCookie[] },
  ): Promise<Result<PlatformAsset[]>> {
    const up = await requirePlatformUp(ctx);
    if (!up.ok) return up;
    const account = await requirePlatformAccount(ctx, input.platformid);
    if (!account.ok) return account;
    if (!account.value.inventory_public) {
      const session = input.cookies
        ? await checkPlatformCookies(ctx, input.platformid, input.cookies)
        : undefined;
      if (session !== "valid")
        return fail("Invalid State", "the inventory is private and no valid session was given");
    }
    const rows = await ctx.db
      .selectFrom("sandbox_assets")
      .innerJoin("goods", "goods.goods_id", "sandbox_assets.goods_id")
      .selectAll("sandbox_assets")
      .select("goods.type")
      .where("sandbox_assets.platformid", "=", input.platformid)
      .where("sandbox_assets.traded_to_assetid", "is", null)
      .orderBy("sandbox_assets.assetid")
      .execute();
    return ok(rows.map((row) => toPlatformAsset(row, row.type)));
  }

  validateSession(ctx: DomainContext, input: SessionInput) {
    return checkPlatformCookies(ctx, input.platformid, input.cookies);
  }

  async publishInventory(
    ctx: DomainContext,
    input: SessionInput,
  ): Promise<Result<{ inventoryPublic: true }>> {
    return this.#withSession(ctx, input, async (tx) => {
      await tx.db
        .updateTable("sandbox_platform_accounts")
        .set({ inventory_public: true })
        .where("platformid", "=", input.platformid)
        .execute();
      return ok({ inventoryPublic: true as const });
    });
  }

  async getTradeUrl(ctx: DomainContext, input: SessionInput): Promise<Result<{ tradeUrl: string }>> {
    return this.#withSession(ctx, input, async (tx) => {
      const account = await requirePlatformAccount(tx, input.platformid);
      if (!account.ok) return account;
      return ok({ tradeUrl: tradeUrlOf(input.platformid, account.value.trade_token) });
    });
  }

  async registerApiKey(ctx: DomainContext, input: SessionInput): Promise<Result<{ apiKey: string }>> {
    return this.#withSession(ctx, input, async (tx) => {
      const account = await requirePlatformAccount(tx, input.platformid);
      if (!account.ok) return account;
      // The platform gives API keys only to accounts that are not limited.
      if (account.value.limited) return fail("Invalid State", "a limited account cannot register an API key");
      const apiKey = newSteamApiKey();
      await tx.db
        .updateTable("sandbox_platform_accounts")
        .set({ api_key: apiKey, api_key_domain: null })
        .where("platformid", "=", input.platformid)
        .execute();
      return ok({ apiKey });
    });
  }

  async createTradeOffer(
    ctx: DomainContext,
    input: SessionInput & {
      tradeUrl: string;
      assetids: string[];
      itemsFrom?: OfferItemsFrom;
      message?: string;
    },
  ): Promise<Result<PlatformTradeOffer>> {
    const session = await checkPlatformCookies(ctx, input.platformid, input.cookies);
    if (session !== "valid") return fail("Invalid State", `the sender's session cookies are ${session}`);
    return createOffer(ctx, {
      sender: input.platformid,
      tradeUrl: input.tradeUrl,
      assetids: input.assetids,
      ...(input.itemsFrom !== undefined ? { itemsFrom: input.itemsFrom } : {}),
      ...(input.message !== undefined ? { message: input.message } : {}),
    });
  }

  getTradeOffer(ctx: DomainContext, input: { tradeofferid: string }) {
    return findOffer(ctx, input.tradeofferid);
  }

  findOfferOfItem(ctx: DomainContext, input: { sender: string; receiver: string; assetid: string }) {
    return findOfferOfItem(ctx, input);
  }

  cancelTradeOffer(ctx: DomainContext, input: { platformid: string; tradeofferid: string }) {
    return cancelOffer(ctx, input);
  }

  respondToTradeOffer(
    ctx: DomainContext,
    input: { platformid: string; tradeofferid: string; accept: boolean },
  ) {
    return respondToOffer(ctx, input);
  }

  async #withSession<Value>(
    ctx: DomainContext,
    input: SessionInput,
    action: (tx: DomainContext) => Promise<Result<Value>>,
  ): Promise<Result<Value>> {
    return inTransaction(ctx, async (tx) => {
      noteNoMarketChange(tx);
      const session = await checkPlatformCookies(tx, input.platformid, input.cookies);
      if (session !== "valid")
        return fail("Invalid State", `the session cookies are ${session}; upload fresh cookies`);
      return action(tx);
    });
  }

  async marketPrices(
    ctx: DomainContext,
    input: { goodsIds: readonly number[] },
  ): Promise<Map<number, number>> {
    const prices = await readSteamMarketPrices(ctx, input.goodsIds);
    return new Map([...prices].map(([goodsId, entry]) => [goodsId, entry.price]));
  }
}
