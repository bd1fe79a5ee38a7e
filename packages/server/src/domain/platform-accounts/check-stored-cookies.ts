import type { DomainContext } from "../context.ts";
import { storedCookies } from "./require-bound-account.ts";

/** Bound accounts whose stored cookies are checked per round, those checked longest ago first. */
export const COOKIE_CHECKS_PER_ROUND = 200;

/**
 * Asks the platform whether stored session cookies still hold, as the real service does before it
 * needs them (a job): cookies the platform no longer accepts are marked `expired` or `invalid`, so
 * the account's owner hears of it at once (`platform.cookie_expired`, docs/design/events.md#expired-cookies)
 * rather than when an offer must be sent. Answers how many stopped being valid.
 */
export async function checkStoredCookies(ctx: DomainContext): Promise<number> {
  const due = await ctx.db
    .selectFrom("bound_platform_accounts")
    .selectAll()
    .where("cookie_state", "=", "valid")
    .where("cookies_sealed", "is not", null)
    .orderBy("cookies_checked_at", (order) => order.asc().nullsFirst())
    .orderBy("platformid")
    .limit(COOKIE_CHECKS_PER_ROUND)
    .execute();
  let ended = 0;
  for (const account of due) {
    const cookies = storedCookies(ctx, account);
    const state = cookies
      ? await ctx.platform.validateSession(ctx, { platformid: account.platformid, cookies })
      : "invalid";
    if (state !== "valid") ended += 1;
    await ctx.db
      .updateTable("bound_platform_accounts")
      .set({ cookie_state: state, cookies_checked_at: ctx.clock.now() })
      .where("platformid", "=", account.platformid)
      .where("cookie_state", "=", "valid")
      .execute();
  }
  return ended;
}
