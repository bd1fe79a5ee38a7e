import { randomBytes } from "node:crypto";
import type { DomainContext } from "../../domain/context.ts";
import { fail, invalidArgument, ok, type Result } from "../../domain/result.ts";
import { inTransaction, noteNoMarketChange } from "../../domain/transaction.ts";
import { requirePlatformAccount } from "./require-platform-account.ts";

/**
 * Steam Web API keys of the sandbox's accounts (docs/design/steam-face.md#web-api-keys): one per
 * account, 32 uppercase hex digits as Steam's are (steamcommunity reads the key page with
 * `[0-9A-F]+`). The platform port's `registerApiKey` and the face's `/dev/` pages keep the same
 * column, so the key the marketplace registered is the one a bot reads, and either one's key
 * authenticates IEconService and ISteamEconomy calls made with `key=`.
 */
export function newSteamApiKey(): string {
  return randomBytes(16).toString("hex").toUpperCase();
}

export interface SteamApiKey {
  apiKey: string;
  domain: string | null;
}

/** The account's key, if it has registered one; `Invalid State` for a limited account, which Steam gives none. */
export async function steamApiKeyOf(
  ctx: DomainContext,
  platformid: string,
): Promise<Result<SteamApiKey | undefined>> {
  const account = await ctx.db
    .selectFrom("sandbox_platform_accounts")
    .select(["limited", "api_key", "api_key_domain"])
    .where("platformid", "=", platformid)
    .executeTakeFirst();
  if (!account) return fail("Not Found", `platform account ${platformid} does not exist`);
  if (account.limited) return fail("Invalid State", "a limited account cannot register an API key");
  return ok(
    account.api_key === null ? undefined : { apiKey: account.api_key, domain: account.api_key_domain },
  );
}

/**
 * Registers a key for the domain, as the key page's form does; an account that has one keeps it
 * (Steam gives one key per account: a new one needs the old one revoked).
 */
export async function registerSteamApiKey(
  ctx: DomainContext,
  input: { platformid: string; domain: string },
): Promise<Result<SteamApiKey>> {
  const domain = input.domain.trim();
  if (domain.length === 0 || domain.length > 255 || /[\s<>"'&]/.test(domain))
    return invalidArgument("domain", "give the domain name the key is for (1-255 characters, no spaces)");
  return inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    const account = await requirePlatformAccount(tx, input.platformid);
    if (!account.ok) return account;
    const existing = await steamApiKeyOf(tx, input.platformid);
    if (!existing.ok || existing.value) return existing as Result<SteamApiKey>;
    const apiKey = newSteamApiKey();
    await tx.db
      .updateTable("sandbox_platform_accounts")
      .set({ api_key: apiKey, api_key_domain: domain })
      .where("platformid", "=", input.platformid)
      .execute();
    return ok({ apiKey, domain });
  });
}

/** Revokes the account's key: calls made with it are refused from now on. */
export async function revokeSteamApiKey(ctx: DomainContext, platformid: string): Promise<void> {
  await ctx.db
    .updateTable("sandbox_platform_accounts")
    .set({ api_key: null, api_key_domain: null })
    .where("platformid", "=", platformid)
    .execute();
}

/** The account whose key this is, if any. */
export async function ownerOfSteamApiKey(ctx: DomainContext, apiKey: string): Promise<string | undefined> {
  if (!/^[0-9A-F]{32}$/.test(apiKey)) return undefined;
  const account = await ctx.db
    .selectFrom("sandbox_platform_accounts")
    .select("platformid")
    .where("api_key", "=", apiKey)
    .executeTakeFirst();
  return account?.platformid;
}
