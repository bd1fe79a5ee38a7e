import { sql } from "kysely";
import { setupPlatformAccount } from "../../domain/platform-accounts/setup-platform-account.ts";
import { uploadPlatformCookies } from "../../domain/platform-accounts/upload-platform-cookies.ts";
import { ok } from "../../domain/result.ts";
import type { SandboxHands } from "../../domain/simulation/sandbox-hands.ts";
import { grantItems } from "./grant-items.ts";
import { createPlatformAccount, expireCookies, issueCookies } from "./platform-accounts.ts";
import { setPlatformFault } from "./platform-fault.ts";
import { rollbackTrade } from "./rollback-trade.ts";
import { readSteamMarketPrices, recordSteamMarketPrices } from "./steam-market.ts";
import { respondToOffer } from "./trade-offers.ts";

/** The sandbox platform's verbs as the simulator uses them (the same ones its API routes call). */
export const sandboxHands: SandboxHands = {
  async createReadyAccount(admin, user, userId) {
    const created = await createPlatformAccount(admin, { userId });
    if (!created.ok) return created;
    const platformid = created.value.platformid;
    const uploaded = await uploadPlatformCookies(user, {
      platformid,
      platformCookies: JSON.stringify(created.value.cookies),
    });
    if (!uploaded.ok) return uploaded;
    const setup = await setupPlatformAccount(user, { platformid });
    if (!setup.ok) return setup;
    return ok({ platformid });
  },

  async grantItems(admin, input) {
    const granted = await grantItems(admin, {
      platformid: input.platformid,
      goodsId: input.goodsId,
      count: input.count,
      randomExtras: false,
    });
    return granted.ok ? ok(undefined) : granted;
  },

  async listableAssets(ctx, input) {
    if (input.goodsIds.length === 0) return [];
    const now = ctx.clock.now();
    const rows = await ctx.db
      .selectFrom("sandbox_assets as a")
      .select(["a.assetid", "a.goods_id"])
      .where("a.platformid", "=", input.platformid)
      .where("a.traded_to_assetid", "is", null)
      .where("a.goods_id", "in", [...input.goodsIds])
      .where((eb) => eb.or([eb("a.tradable_after", "is", null), eb("a.tradable_after", "<=", now)]))
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom("listings as l")
              .select("l.listing_id")
              .whereRef("l.assetid", "=", "a.assetid")
              .where((eb) =>
                eb.or([
                  eb("l.state", "=", sql.lit("ON_SALE")),
                  eb.and([eb("l.state", "=", sql.lit("SOLD")), eb("l.trade_ended", "=", sql.lit(false))]),
                ]),
              ),
          ),
        ),
      )
      .orderBy("a.assetid")
      .limit(input.limit)
      .execute();
    return rows.map((row) => ({ assetid: String(row.assetid), goodsId: row.goods_id }));
  },

  async incomingOffers(ctx, platformid) {
    const rows = await ctx.db
      .selectFrom("sandbox_trade_offers")
      .select("tradeofferid")
      .where("receiver", "=", platformid)
      .where("state", "=", "active")
      .orderBy("tradeofferid")
      .limit(20)
      .execute();
    return rows.map((row) => String(row.tradeofferid));
  },

  expireCookies(admin, platformid) {
    return expireCookies(admin, platformid);
  },

  async signInAgain(admin, user, platformid) {
    const issued = await issueCookies(admin, platformid);
    if (!issued.ok) return issued;
    return uploadPlatformCookies(user, { platformid, platformCookies: JSON.stringify(issued.value.cookies) });
  },

  setPlatformDown(admin, down) {
    return setPlatformFault(admin, { down });
  },

  rollbackTrade(admin, tradeId) {
    return rollbackTrade(admin, { tradeId });
  },

  acceptOffer(user, input) {
    return respondToOffer(user, { ...input, accept: true });
  },

  async steamMarketPrices(ctx, goodsIds) {
    const prices = await readSteamMarketPrices(ctx, goodsIds);
    return new Map([...prices].map(([goodsId, entry]) => [goodsId, entry.price]));
  },

  recordSteamMarketPrices(ctx, points) {
    return recordSteamMarketPrices(ctx, points);
  },
};
