import { toUnixSeconds } from "../clock.ts";
import type { DomainContext } from "../context.ts";
import { fail, ok, type Result } from "../result.ts";
import { readUserBalances, type UserBalances } from "../wallet/ledger.ts";

export interface UserDetails {
  userId: number;
  nickname: string;
  accessLevel: "developer" | "enterprise" | "none";
  buyOrderStatus: "online" | "offline";
  buyOrderAutoOffline: boolean;
  createdAt: number;
  balances: UserBalances;
  /** Never the token itself: only its hash is stored. */
  tokens: Array<{
    tokenId: number;
    prefix: string;
    createdAt: number;
    lastUsedAt: number | null;
    revokedAt: number | null;
  }>;
  platformAccounts: Array<{
    platformid: string;
    tradeUrl: string | null;
    boundAt: number;
    cookieState: "valid" | "invalid" | "expired" | null;
  }>;
}

const unixOrNull = (date: Date | null) => (date ? toUnixSeconds(date) : null);

/** One user as the sandbox knows it, for the sandbox admin: settings, balances, tokens, accounts. */
export async function getUser(ctx: DomainContext, input: { userId: number }): Promise<Result<UserDetails>> {
  if (ctx.actor.kind !== "admin") return fail("Access Denied", "only the sandbox admin reads other users");
  const user = await ctx.db
    .selectFrom("users")
    .select([
      "user_id",
      "nickname",
      "access_level",
      "buy_order_status",
      "buy_order_auto_offline",
      "created_at",
    ])
    .where("user_id", "=", input.userId)
    .executeTakeFirst();
  if (!user) return fail("Not Found", `user ${input.userId} does not exist`);
  const tokens = await ctx.db
    .selectFrom("api_tokens")
    .select(["token_id", "prefix", "created_at", "last_used_at", "revoked_at"])
    .where("user_id", "=", input.userId)
    .orderBy("token_id", "asc")
    .execute();
  const accounts = await ctx.db
    .selectFrom("bound_platform_accounts")
    .select(["platformid", "trade_url", "bound_at", "cookie_state"])
    .where("user_id", "=", input.userId)
    .orderBy("bound_at", "asc")
    .execute();
  return ok({
    userId: user.user_id,
    nickname: user.nickname,
    accessLevel: user.access_level,
    buyOrderStatus: user.buy_order_status,
    buyOrderAutoOffline: user.buy_order_auto_offline,
    createdAt: toUnixSeconds(user.created_at),
    balances: await readUserBalances(ctx, input.userId),
    tokens: tokens.map((token) => ({
      tokenId: token.token_id,
      prefix: token.prefix,
      createdAt: toUnixSeconds(token.created_at),
      lastUsedAt: unixOrNull(token.last_used_at),
      revokedAt: unixOrNull(token.revoked_at),
    })),
    platformAccounts: accounts.map((account) => ({
      platformid: account.platformid,
      tradeUrl: account.trade_url,
      boundAt: toUnixSeconds(account.bound_at),
      cookieState: account.cookie_state,
    })),
  });
}
