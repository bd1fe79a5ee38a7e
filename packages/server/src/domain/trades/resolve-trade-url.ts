import type { DomainContext } from "../context.ts";
import { fail, invalidArgument, ok, type Result } from "../result.ts";
import { parseTradeUrl } from "../platform/trade-url.ts";

/**
 * Where a purchase is delivered (reference: purchase/orders): `trade_url` first, then the trade URL
 * of the given bound `platformid`, then the first bound account that has one.
 */
export async function resolveTradeUrl(
  ctx: DomainContext,
  input: { userId: number; tradeUrl?: string; platformid?: string },
): Promise<Result<{ tradeUrl: string; platformid: string }>> {
  if (input.tradeUrl !== undefined) {
    const parsed = parseTradeUrl(input.tradeUrl);
    if (!parsed)
      return invalidArgument(
        "trade_url",
        "must be https://steamcommunity.com/tradeoffer/new/?partner=<id>&token=<8 characters>",
      );
    return ok({ tradeUrl: input.tradeUrl.trim(), platformid: parsed.platformid });
  }
  let query = ctx.db
    .selectFrom("bound_platform_accounts")
    .select(["platformid", "trade_url"])
    .where("user_id", "=", input.userId)
    .orderBy("bound_at")
    .orderBy("platformid");
  if (input.platformid !== undefined) query = query.where("platformid", "=", input.platformid);
  const accounts = await query.execute();
  if (input.platformid !== undefined && accounts.length === 0) return notBound(input.platformid);
  const withUrl = accounts.find((account) => account.trade_url !== null);
  if (!withUrl?.trade_url) return noTradeUrl();
  return ok({ tradeUrl: withUrl.trade_url, platformid: withUrl.platformid });
}

/** The given `platformid` is not bound to the buyer (also found by `purchase_goods_unit`). */
export function notBound(platformid: string | undefined): Result<never> {
  return fail("Not Found", `platformid: ${platformid} is not a platform account bound to you`);
}

/** No bound account of the buyer has a trade URL (also found by `purchase_goods_unit`). */
export function noTradeUrl(): Result<never> {
  return invalidArgument(
    "trade_url",
    "no trade URL is known: give trade_url, or run platform/setup on a bound account",
  );
}
