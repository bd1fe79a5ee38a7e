import type { DomainContext } from "../../domain/context.ts";
import { constantTimeEqual } from "../../domain/secrets.ts";
import { platformidOfAccountName, readSteamCredentials } from "./steam-credentials.ts";
import { isSteamGuardCodeNow } from "./steam-guard.ts";

export type SteamOpenIdSignIn = { ok: true; steamid: string } | { ok: false; reason: "credentials" | "code" };

/**
 * The check behind the face's OpenID sign-in page: the account's login name and password, then
 * the Steam Guard code of its `shared_secret` on the sandbox clock, as Steam's own page asks them.
 * An unknown name, an account without secrets and a wrong password are one answer.
 */
export async function checkSteamOpenIdSignIn(
  ctx: DomainContext,
  input: { accountName: string; password: string; code: string },
): Promise<SteamOpenIdSignIn> {
  const platformid = platformidOfAccountName(input.accountName);
  const credentials = platformid ? await readSteamCredentials(ctx, platformid) : undefined;
  if (
    !platformid ||
    !credentials ||
    credentials === "no account" ||
    !constantTimeEqual(input.password, credentials.password)
  )
    return { ok: false, reason: "credentials" };
  if (!isSteamGuardCodeNow(credentials.sharedSecret, ctx.clock, input.code))
    return { ok: false, reason: "code" };
  return { ok: true, steamid: platformid };
}
