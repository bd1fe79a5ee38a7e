import type { DomainContext } from "../../domain/context.ts";
import { fail, ok, type Result } from "../../domain/result.ts";

export interface SandboxAccount {
  platformid: string;
  trade_token: string;
  inventory_public: boolean;
  limited: boolean;
  auto_accept: boolean;
}

/** `Not Found` unless the sandbox platform has this account. */
export async function requirePlatformAccount(
  ctx: DomainContext,
  platformid: string,
): Promise<Result<SandboxAccount>> {
  const account = await ctx.db
    .selectFrom("sandbox_platform_accounts")
    .select(["platformid", "trade_token", "inventory_public", "limited", "auto_accept"])
    .where("platformid", "=", platformid)
    .executeTakeFirst();
  return account ? ok(account) : fail("Not Found", `platform account ${platformid} does not exist`);
}
