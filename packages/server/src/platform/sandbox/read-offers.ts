import { sql } from "kysely";
import type { DomainContext } from "../../domain/context.ts";
import type { PlatformTradeOffer } from "../../domain/platform/game-platform.ts";
import { fail, ok, type Result } from "../../domain/result.ts";
import { requirePlatformUp } from "./platform-fault.ts";
import { toPlatformOffer } from "./trade-offers.ts";

/** Reading the sandbox platform's trade offers: one by its id, the offer of an item, an account's latest. */
export async function findOffer(
  ctx: DomainContext,
  tradeofferid: string,
): Promise<Result<PlatformTradeOffer>> {
  const up = await requirePlatformUp(ctx);
  if (!up.ok) return up;
  if (!/^\d{1,18}$/.test(tradeofferid))
    return fail("Not Found", `trade offer ${tradeofferid} does not exist`);
  const row = await ctx.db
    .selectFrom("sandbox_trade_offers")
    .selectAll()
    .where("tradeofferid", "=", Number(tradeofferid))
    .executeTakeFirst();
  if (!row) return fail("Not Found", `trade offer ${tradeofferid} does not exist`);
  if (row.state !== "accepted") return ok(toPlatformOffer(row));
  // An accepted offer tells where each item went, as it did when it was accepted.
  const moved = await ctx.db
    .selectFrom("sandbox_assets")
    .select(["assetid", "traded_to_assetid"])
    .where("assetid", "in", row.assetids)
    .execute();
  const received = Object.fromEntries(
    moved
      .filter((asset) => asset.traded_to_assetid !== null)
      .map((asset) => [String(asset.assetid), String(asset.traded_to_assetid)]),
  );
  return ok(toPlatformOffer(row, received));
}

/** The newest active or accepted offer in which the sender gives the item to the receiver. */
export async function findOfferOfItem(
  ctx: DomainContext,
  input: { sender: string; receiver: string; assetid: string },
): Promise<PlatformTradeOffer | undefined> {
  if (!/^\d{1,18}$/.test(input.assetid)) return undefined;
  const row = await ctx.db
    .selectFrom("sandbox_trade_offers")
    .select("tradeofferid")
    .where("sender", "=", input.sender)
    .where("receiver", "=", input.receiver)
    .where("items_from", "=", "sender")
    .where("state", "in", ["active", "accepted"])
    .where(sql<boolean>`assetids @> ${JSON.stringify([Number(input.assetid)])}::jsonb`)
    .orderBy("tradeofferid", "desc")
    .executeTakeFirst();
  if (!row) return undefined;
  const found = await findOffer(ctx, String(row.tradeofferid));
  return found.ok ? found.value : undefined;
}

/** The latest offers (of an account, when given), newest first: 500, or the page asked for. */
export async function listOffers(
  ctx: DomainContext,
  platformid: string | undefined,
  page: { limit: number; offset: number } = { limit: 500, offset: 0 },
): Promise<PlatformTradeOffer[]> {
  let query = ctx.db
    .selectFrom("sandbox_trade_offers")
    .selectAll()
    .orderBy("tradeofferid", "desc")
    .limit(page.limit)
    .offset(page.offset);
  if (platformid)
    query = query.where((eb) =>
      eb.or([
        eb("sender", "=", platformid),
        eb.and([eb("receiver", "=", platformid), eb("confirmation_nonce", "is", null)]),
      ]),
    );
  return (await query.execute()).map((row) => toPlatformOffer(row));
}
