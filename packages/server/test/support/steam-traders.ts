import assert from "node:assert/strict";
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

type SteamTrader = Awaited<ReturnType<typeof steamTrader>>;

/**
 * A sale to deliver: the seller is given a sticker and lists it at 20 yuan, the buyer is funded
 * and buys it through the API. Answers the item and the buyer's order.
 */
export async function sellOneSticker(sandbox: SandboxClient, seller: SteamTrader, buyer: SteamTrader) {
  const [asset] = (
    await sandbox.grantItems(seller.account.platformid, {
      market_hash_name: "Sticker | Crown (Foil)",
      count: 1,
    })
  ).assets;
  assert.ok(asset);
  await seller.market.listItems([{ assetid: asset.assetid, price: "20.00" }]);
  await sandbox.fundAccount(buyer.user.user_id, { account: "balance", amount: "20" });
  const bought = await buyer.market.purchase({
    items: [{ goods_id: asset.goods_id, max_price: 20, quantity: 1 }],
  });
  const orderId = bought.result[String(asset.goods_id)]?.bill_order_ids[0];
  assert.ok(orderId, JSON.stringify(bought));
  return { asset, orderId };
}
