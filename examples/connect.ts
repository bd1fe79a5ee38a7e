import { readFileSync } from "node:fs";
import { join } from "node:path";
import { MarketClient, SandboxClient, WebClient } from "@skinmarket/client";

/**
 * Where the examples find the marketplace, as `skinmarket admin` does: `SKINMARKET_URL`; else the
 * server `npm start` recorded in its data dir (`DATA_DIR/server.json`, default ./data) while it
 * runs; else `HOST`/`PORT` as `npm start` reads them (default http://127.0.0.1:8080). The sandbox
 * admin token comes from `SANDBOX_ADMIN_TOKEN`, or from the file `npm start` wrote it to
 * (`DATA_DIR/sandbox-admin-token`).
 */
export function connect(): { baseUrl: string; sandbox: SandboxClient } {
  const dataDir = process.env.DATA_DIR ?? "data";
  const baseUrl = process.env.SKINMARKET_URL ?? recordedServer(dataDir) ?? fromHostAndPort();
  const token =
    process.env.SANDBOX_ADMIN_TOKEN ?? readFileSync(join(dataDir, "sandbox-admin-token"), "utf8").trim();
  return { baseUrl, sandbox: new SandboxClient({ baseUrl, token }) };
}

function recordedServer(dataDir: string): string | undefined {
  try {
    const entry = JSON.parse(readFileSync(join(dataDir, "server.json"), "utf8")) as {
      url: string;
      pid: number;
    };
    process.kill(entry.pid, 0); // throws when the server that wrote it is gone
    return entry.url;
  } catch {
    return undefined;
  }
}

function fromHostAndPort(): string {
  const host =
    process.env.HOST && !["0.0.0.0", "::"].includes(process.env.HOST) ? process.env.HOST : "127.0.0.1";
  return `http://${host.includes(":") ? `[${host}]` : host}:${process.env.PORT ?? "8080"}`;
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

/**
 * A price inside a goods' spread on a live market (the demo market may already trade it): above
 * its best bid, so that a new listing is not sold at once to a standing buy order, and below its
 * cheapest tradable listing, so that a buyer or bidder at that price meets this bot and no one
 * else. `wanted` when it fits; read from the website's public goods pages.
 */
export async function priceInSpread(baseUrl: string, goodsId: number, wanted: number): Promise<number> {
  const web = new WebClient({ baseUrl });
  const [bestBid] = (await web.getBuyOrderBook(goodsId, 1, 1)).data.items;
  const [cheapest] = (await web.getGoodsSellOrders(goodsId, { page_size: 1, allow_tradable_cooldown: 0 }))
    .data.items;
  const floor = bestBid ? Number(bestBid.price) + 0.01 : 0.01;
  const ceiling = cheapest ? Number(cheapest.price) - 0.01 : Number.POSITIVE_INFINITY;
  if (floor > ceiling)
    throw new Error(`goods ${goodsId} has no room between its best bid and its cheapest listing`);
  return Math.round(Math.max(floor, Math.min(wanted, ceiling)) * 100) / 100;
}
