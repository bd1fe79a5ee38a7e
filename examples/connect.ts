import { readFileSync } from "node:fs";
import { join } from "node:path";
import { MarketClient, SandboxClient } from "@skinmarket/client";

/**
 * Where the examples find the marketplace: `SKINMARKET_URL` (default http://127.0.0.1:8080) and
 * the sandbox admin token from `SANDBOX_ADMIN_TOKEN`, or from the file `npm start` wrote it to
 * (`DATA_DIR/sandbox-admin-token`, default ./data).
 */
export function connect(): { baseUrl: string; sandbox: SandboxClient } {
  const baseUrl = process.env.SKINMARKET_URL ?? "http://127.0.0.1:8080";
  const token =
    process.env.SANDBOX_ADMIN_TOKEN ??
    readFileSync(join(process.env.DATA_DIR ?? "data", "sandbox-admin-token"), "utf8").trim();
  return { baseUrl, sandbox: new SandboxClient({ baseUrl, token }) };
}

/** A new sandbox user with a bound, set-up game-platform account: what a bot starts from. */
export async function newTrader(baseUrl: string, sandbox: SandboxClient, nickname: string) {
  const user = await sandbox.createUser({ nickname });
  const account = await sandbox.createPlatformAccount(user.user_id);
  const market = new MarketClient({ baseUrl, token: user.token });
  await market.uploadPlatformCookies(account.platformid, account.cookies);
  await market.setupPlatformAccount(account.platformid);
  return { user, account, market };
}

/** A nickname no earlier run took: examples can run again on the same market. */
export function fresh(name: string): string {
  return `${name}-${Date.now().toString(36)}`;
}
