import type { Selectable } from "kysely";
import type { BoundPlatformAccountsTable } from "../../storage/schema.ts";
import type { PlatformCookie } from "../platform/game-platform.ts";
import type { DomainContext } from "../context.ts";
import { fail, ok, type Result } from "../result.ts";

export type BoundAccount = Selectable<BoundPlatformAccountsTable>;

/**
 * The caller's own bound account. Another user's account answers exactly like an unknown one, so
 * nobody learns which platform accounts other users have bound (reference: preconditions 3).
 */
export async function requireBoundAccount(
  ctx: DomainContext,
  platformid: string,
): Promise<Result<BoundAccount>> {
  if (ctx.actor.kind !== "user") return fail("Unauthorized", "a user token is required");
  const account = await ctx.db
    .selectFrom("bound_platform_accounts")
    .selectAll()
    .where("platformid", "=", platformid)
    .where("user_id", "=", ctx.actor.userId)
    .executeTakeFirst();
  return account
    ? ok(account)
    : fail("Not Found", `platformid: ${platformid} is not a platform account bound to you`);
}

/** The uploaded cookies, opened; undefined when none were uploaded or they cannot be opened. */
export function storedCookies(ctx: DomainContext, account: BoundAccount): PlatformCookie[] | undefined {
  if (!account.cookies_sealed) return undefined;
  const text = ctx.secretBox.open(account.cookies_sealed, account.platformid);
  return text === undefined ? undefined : (JSON.parse(text) as PlatformCookie[]);
}

export const UPLOAD_COOKIES_HINT = "upload fresh cookies with POST /api/market/developer/platform/cookie";
