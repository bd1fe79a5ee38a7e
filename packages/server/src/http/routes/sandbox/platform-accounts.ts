import {
  sandboxBindPlatformAccount,
  sandboxCreatePlatformAccount,
  sandboxExpirePlatformCookies,
  sandboxGetPlatformAccount,
  sandboxIssuePlatformCookies,
  sandboxSetAutoAccept,
  sandboxShowSteamSecrets,
  sandboxUnbindPlatformAccount,
  sandboxUpdatePlatformAccount,
} from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import {
  bindPlatformAccount,
  unbindPlatformAccount,
} from "../../../domain/platform-accounts/bind-platform-account.ts";
import { ok, type Result } from "../../../domain/result.ts";
import {
  createPlatformAccount,
  describePlatformAccount,
  expireCookies,
  issueCookies,
  updatePlatformAccount,
  type PlatformAccountView,
} from "../../../platform/sandbox/platform-accounts.ts";
import { showSteamCredentials } from "../../../platform/sandbox/steam-credentials.ts";
import { registerOperation } from "../../operation-route.ts";

function accountView(result: Result<PlatformAccountView>) {
  if (!result.ok) return result;
  const account = result.value;
  return ok({
    platformid: account.platformid,
    trade_url: account.tradeUrl,
    inventory_public: account.inventoryPublic,
    limited: account.limited,
    auto_accept: account.autoAccept,
    api_key_registered: account.apiKeyRegistered,
    item_count: account.itemCount,
    user_id: account.boundUserId === null ? null : String(account.boundUserId),
  });
}

/** Sandbox routes for platform accounts: create, inspect, settings, binding, cookies. */
export function registerSandboxPlatformAccounts(app: FastifyInstance): void {
  registerOperation(app, sandboxCreatePlatformAccount, async ({ ctx, body }) => {
    const created = await createPlatformAccount(
      ctx,
      body?.user_id !== undefined ? { userId: Number(body.user_id) } : {},
    );
    if (!created.ok) return created;
    return ok({
      platformid: created.value.platformid,
      trade_url: created.value.tradeUrl,
      cookies: JSON.stringify(created.value.cookies),
    });
  });

  registerOperation(app, sandboxGetPlatformAccount, async ({ ctx, params }) =>
    accountView(await describePlatformAccount(ctx, params.platformid)),
  );

  registerOperation(app, sandboxUpdatePlatformAccount, async ({ ctx, params, body }) =>
    accountView(
      await updatePlatformAccount(ctx, {
        platformid: params.platformid,
        settings: {
          ...(body.inventory_public !== undefined ? { inventoryPublic: body.inventory_public } : {}),
          ...(body.limited !== undefined ? { limited: body.limited } : {}),
        },
      }),
    ),
  );

  registerOperation(app, sandboxSetAutoAccept, async ({ ctx, params, body }) =>
    accountView(
      await updatePlatformAccount(ctx, {
        platformid: params.platformid,
        settings: { autoAccept: body.enabled },
      }),
    ),
  );

  registerOperation(app, sandboxBindPlatformAccount, async ({ ctx, params, body }) => {
    const bound = await bindPlatformAccount(ctx, {
      platformid: params.platformid,
      userId: Number(body.user_id),
    });
    if (!bound.ok) return bound;
    return ok({ platformid: bound.value.platformid, user_id: String(bound.value.userId) });
  });

  registerOperation(app, sandboxUnbindPlatformAccount, async ({ ctx, params }) => {
    const unbound = await unbindPlatformAccount(ctx, { platformid: params.platformid });
    if (!unbound.ok) return unbound;
    return ok({ platformid: unbound.value.platformid, user_id: null });
  });

  registerOperation(app, sandboxIssuePlatformCookies, async ({ ctx, params }) => {
    const issued = await issueCookies(ctx, params.platformid);
    if (!issued.ok) return issued;
    return ok({ cookies: JSON.stringify(issued.value.cookies) });
  });

  registerOperation(app, sandboxExpirePlatformCookies, ({ ctx, params }) =>
    expireCookies(ctx, params.platformid),
  );

  registerOperation(app, sandboxShowSteamSecrets, async ({ ctx, params }) => {
    const shown = await showSteamCredentials(ctx, params.platformid);
    if (!shown.ok) return shown;
    const { platformid, accountName, password, sharedSecret, identitySecret } = shown.value;
    return ok({
      platformid,
      account_name: accountName,
      password,
      shared_secret: sharedSecret,
      identity_secret: identitySecret,
    });
  });
}
