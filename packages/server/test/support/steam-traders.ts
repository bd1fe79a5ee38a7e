import { MarketClient, type SandboxClient } from "@skinmarket/client";
import type { SteamCredentials } from "../../src/platform/sandbox/steam-credentials.ts";

/**
 * A marketplace user with a bound, set-up sandbox account, its API client, and the Steam secrets
 * its bot holds (as the sandbox admin shows them): both halves of a bot, through HTTP only.
 */
export async function steamTrader(sandbox: SandboxClient, baseUrl: string, nickname: string) {
  const user = await sandbox.createUser({ nickname });
  const account = await sandbox.createPlatformAccount(user.user_id);
  const market = new MarketClient({ baseUrl, token: user.token });
  await market.uploadPlatformCookies(account.platformid, account.cookies);
  await market.setupPlatformAccount(account.platformid);
  const secrets = await sandbox.steamSecrets(account.platformid);
  const steam: SteamCredentials = {
    platformid: secrets.platformid,
    accountName: secrets.account_name,
    password: secrets.password,
    sharedSecret: secrets.shared_secret,
    identitySecret: secrets.identity_secret,
  };
  return { user, account, market, steam };
}
