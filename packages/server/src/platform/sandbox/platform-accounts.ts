import { recordAudit } from "../../domain/audit.ts";
import { bindPlatformAccount } from "../../domain/platform-accounts/bind-platform-account.ts";
import type { DomainContext } from "../../domain/context.ts";
import { fail, ok, type Result } from "../../domain/result.ts";
import { inTransaction, noteNoMarketChange, sqlState } from "../../domain/transaction.ts";
import type { PlatformCookie } from "../../domain/platform/game-platform.ts";
import { requirePlatformAccount } from "./require-platform-account.ts";
import { tradeUrlOf } from "../../domain/platform/trade-url.ts";
import { generatePlatformId, generateTradeToken } from "./platform-identity.ts";
import { expirePlatformCookies, issuePlatformCookies } from "./platform-sessions.ts";

/** Sandbox-only verbs on the platform's own accounts (what a player does on the platform). */

export interface CreatedPlatformAccount {
  platformid: string;
  tradeUrl: string;
  cookies: PlatformCookie[];
}

/** A new platform account with a first login session; bound to `userId` when given. */
export async function createPlatformAccount(
  ctx: DomainContext,
  input: { userId?: number } = {},
): Promise<Result<CreatedPlatformAccount>> {
  if (ctx.actor.kind !== "admin")
    return fail("Access Denied", "only the sandbox admin creates platform accounts");
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      return await inTransaction(ctx, async (tx) => {
        noteNoMarketChange(tx);
        const platformid = generatePlatformId();
        const tradeToken = generateTradeToken();
        await tx.db
          .insertInto("sandbox_platform_accounts")
          .values({ platformid, trade_token: tradeToken, created_at: tx.clock.now() })
          .execute();
        const cookies = await issuePlatformCookies(tx, platformid);
        await recordAudit(tx, { action: "sandbox.platform.create", subject: `platform:${platformid}` });
        if (input.userId !== undefined) {
          const bound = await bindPlatformAccount(tx, { platformid, userId: input.userId });
          if (!bound.ok) return bound;
        }
        return ok({ platformid, tradeUrl: tradeUrlOf(platformid, tradeToken), cookies });
      });
    } catch (error) {
      // A random id that already exists: draw another.
      if (sqlState(error) !== "23505") throw error;
    }
  }
  throw new Error("could not draw an unused platform id");
}

export interface PlatformAccountSettings {
  inventoryPublic?: boolean;
  limited?: boolean;
  autoAccept?: boolean;
}

export interface PlatformAccountView {
  platformid: string;
  tradeUrl: string;
  inventoryPublic: boolean;
  limited: boolean;
  autoAccept: boolean;
  apiKeyRegistered: boolean;
  itemCount: number;
  boundUserId: number | null;
}

export async function updatePlatformAccount(
  ctx: DomainContext,
  input: { platformid: string; settings: PlatformAccountSettings },
): Promise<Result<PlatformAccountView>> {
  if (ctx.actor.kind !== "admin")
    return fail("Access Denied", "only the sandbox admin changes platform accounts");
  return inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    const { inventoryPublic, limited, autoAccept } = input.settings;
    if (inventoryPublic === undefined && limited === undefined && autoAccept === undefined) {
      // Nothing to change: the account as it is.
      return describePlatformAccount(tx, input.platformid);
    }
    const updated = await tx.db
      .updateTable("sandbox_platform_accounts")
      .set({
        ...(inventoryPublic !== undefined ? { inventory_public: inventoryPublic } : {}),
        ...(limited !== undefined ? { limited } : {}),
        ...(autoAccept !== undefined ? { auto_accept: autoAccept } : {}),
      })
      .where("platformid", "=", input.platformid)
      .returning("platformid")
      .executeTakeFirst();
    if (!updated) return fail("Not Found", `platform account ${input.platformid} does not exist`);
    await recordAudit(tx, {
      action: "sandbox.platform.settings",
      subject: `platform:${input.platformid}`,
      details: { ...input.settings },
    });
    return describePlatformAccount(tx, input.platformid);
  });
}

export async function describePlatformAccount(
  ctx: DomainContext,
  platformid: string,
): Promise<Result<PlatformAccountView>> {
  const account = await ctx.db
    .selectFrom("sandbox_platform_accounts")
    .leftJoin(
      "bound_platform_accounts",
      "bound_platform_accounts.platformid",
      "sandbox_platform_accounts.platformid",
    )
    .select([
      "sandbox_platform_accounts.platformid",
      "sandbox_platform_accounts.trade_token",
      "sandbox_platform_accounts.inventory_public",
      "sandbox_platform_accounts.limited",
      "sandbox_platform_accounts.auto_accept",
      "sandbox_platform_accounts.api_key",
      "bound_platform_accounts.user_id",
    ])
    .select((eb) =>
      eb
        .selectFrom("sandbox_assets")
        .select(eb.fn.countAll<string>().as("count"))
        .whereRef("sandbox_assets.platformid", "=", "sandbox_platform_accounts.platformid")
        .where("sandbox_assets.traded_to_assetid", "is", null)
        .as("item_count"),
    )
    .where("sandbox_platform_accounts.platformid", "=", platformid)
    .executeTakeFirst();
  if (!account) return fail("Not Found", `platform account ${platformid} does not exist`);
  return ok({
    platformid: account.platformid,
    tradeUrl: tradeUrlOf(account.platformid, account.trade_token),
    inventoryPublic: account.inventory_public,
    limited: account.limited,
    autoAccept: account.auto_accept,
    apiKeyRegistered: account.api_key !== null,
    itemCount: Number(account.item_count ?? 0),
    boundUserId: account.user_id,
  });
}

/** A fresh login on the platform: new session cookies, as a player signing in would get. */
export async function issueCookies(
  ctx: DomainContext,
  platformid: string,
): Promise<Result<{ cookies: PlatformCookie[] }>> {
  if (ctx.actor.kind !== "admin") return fail("Access Denied", "only the sandbox admin issues cookies");
  return inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    const account = await requirePlatformAccount(tx, platformid);
    if (!account.ok) return account;
    const cookies = await issuePlatformCookies(tx, platformid);
    await recordAudit(tx, { action: "sandbox.platform.cookies.issue", subject: `platform:${platformid}` });
    return ok({ cookies });
  });
}

export async function expireCookies(
  ctx: DomainContext,
  platformid: string,
): Promise<Result<{ expired: number }>> {
  if (ctx.actor.kind !== "admin") return fail("Access Denied", "only the sandbox admin expires cookies");
  return inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    const account = await requirePlatformAccount(tx, platformid);
    if (!account.ok) return account;
    const expired = await expirePlatformCookies(tx, platformid);
    await recordAudit(tx, {
      action: "sandbox.platform.cookies.expire",
      subject: `platform:${platformid}`,
      details: { expired },
    });
    return ok({ expired });
  });
}
