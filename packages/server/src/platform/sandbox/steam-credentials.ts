import { randomBytes } from "node:crypto";
import { recordAudit } from "../../domain/audit.ts";
import type { DomainContext } from "../../domain/context.ts";
import { fail, ok, type Result } from "../../domain/result.ts";
import { generateSecret } from "../../domain/secrets.ts";
import { inTransaction, noteNoMarketChange } from "../../domain/transaction.ts";

/**
 * The secrets a real bot holds for its Steam account (docs/sandbox.md, "The Steam face"): the
 * login name and password, and the mobile authenticator's `shared_secret` (Steam Guard codes) and
 * `identity_secret` (confirmations). The login name follows from the account id, so it needs no
 * column and no uniqueness check; the rest is drawn when the sandbox admin first asks for it and
 * kept sealed with the secret box.
 */
export interface SteamCredentials {
  platformid: string;
  accountName: string;
  password: string;
  sharedSecret: string;
  identitySecret: string;
}

interface SealedSecrets {
  password: string;
  shared_secret: string;
  identity_secret: string;
}

const STEAM_ID_BASE = 76561197960265728n;
const ACCOUNT_NAME_PREFIX = "sandbox";

export function steamAccountName(platformid: string): string {
  return `${ACCOUNT_NAME_PREFIX}${BigInt(platformid) - STEAM_ID_BASE}`;
}

/** The platformid a login name stands for; undefined for a name the sandbox never gives. */
export function platformidOfAccountName(accountName: string): string | undefined {
  const match = /^sandbox(\d{1,10})$/.exec(accountName.trim().toLowerCase());
  return match?.[1] ? String(BigInt(match[1]) + STEAM_ID_BASE) : undefined;
}

/** The account's Steam secrets, drawn on first ask (sandbox admin only). */
export async function showSteamCredentials(
  ctx: DomainContext,
  platformid: string,
): Promise<Result<SteamCredentials>> {
  if (ctx.actor.kind !== "admin") return fail("Access Denied", "only the sandbox admin reads Steam secrets");
  return inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    const existing = await readSteamCredentials(tx, platformid, { forUpdate: true });
    if (existing === "no account") return fail("Not Found", `platform account ${platformid} does not exist`);
    if (existing) return ok(existing);
    const secrets: SealedSecrets = {
      password: generateSecret().slice(0, 20),
      // 20 bytes each, as Steam's own authenticator secrets are.
      shared_secret: randomBytes(20).toString("base64"),
      identity_secret: randomBytes(20).toString("base64"),
    };
    await tx.db
      .updateTable("sandbox_platform_accounts")
      .set({ steam_secrets: tx.secretBox.seal(JSON.stringify(secrets), sealedFor(platformid)) })
      .where("platformid", "=", platformid)
      .execute();
    await recordAudit(tx, { action: "sandbox.platform.steam_secrets", subject: `platform:${platformid}` });
    return ok(credentialsOf(platformid, secrets));
  });
}

/**
 * The account's Steam secrets as the face checks them; undefined while none were drawn (such an
 * account cannot log in through the face), "no account" when there is no such account.
 */
export async function readSteamCredentials(
  ctx: DomainContext,
  platformid: string,
  options: { forUpdate?: boolean } = {},
): Promise<SteamCredentials | undefined | "no account"> {
  let query = ctx.db
    .selectFrom("sandbox_platform_accounts")
    .select("steam_secrets")
    .where("platformid", "=", platformid);
  if (options.forUpdate) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) return "no account";
  if (row.steam_secrets === null) return undefined;
  const opened = ctx.secretBox.open(row.steam_secrets, sealedFor(platformid));
  // Sealed under another SECRET_KEY: as if never drawn (the admin draws new ones).
  return opened === undefined ? undefined : credentialsOf(platformid, JSON.parse(opened) as SealedSecrets);
}

function sealedFor(platformid: string): string {
  return `${platformid}:steam`;
}

function credentialsOf(platformid: string, secrets: SealedSecrets): SteamCredentials {
  return {
    platformid,
    accountName: steamAccountName(platformid),
    password: secrets.password,
    sharedSecret: secrets.shared_secret,
    identitySecret: secrets.identity_secret,
  };
}
