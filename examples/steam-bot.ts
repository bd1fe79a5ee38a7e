// A whole bot against a local Steam: the seller lists on skinmarket, a buyer buys, the seller's
// bot delivers through Steam's own routes (steam-tradeoffer-manager) and confirms the offer on the
// mobile authenticator (steamcommunity), the buyer's bot accepts it, and the seller is paid.
//   STEAM_FACE_PORT=8443 npm start        (in another terminal)
//   eval "$(npx skinmarket steam env)" && npm run example:steam
import https from "node:https";
import request from "request";
import { EAuthTokenPlatformType, LoginSession } from "steam-session";
import SteamCommunity from "steamcommunity";
import TradeOfferManager from "steam-tradeoffer-manager";
import SteamTotp from "steam-totp";
import { WebClient } from "@skinmarket/client";
import { connect, fresh, newTrader } from "./connect.ts";

// `skinmarket steam env` sets these: the face as a proxy for Steam's names, its CA trusted.
const proxy = process.env.HTTPS_PROXY;
if (!proxy || !process.env.NODE_EXTRA_CA_CERTS)
  throw new Error(
    'run eval "$(npx skinmarket steam env)" first: HTTPS_PROXY and NODE_EXTRA_CA_CERTS are unset',
  );

const { baseUrl, sandbox } = connect();
const seller = await newTrader(baseUrl, sandbox, fresh("steam-seller"));
const buyer = await newTrader(baseUrl, sandbox, fresh("steam-buyer"));
const [asset] = (
  await sandbox.grantItems(seller.account.platformid, {
    market_hash_name: "Sticker | Crown (Foil)",
    count: 1,
  })
).assets;
if (!asset) throw new Error("the sandbox granted no item");
await seller.market.listItems([{ assetid: asset.assetid, price: "20.00" }]);
await sandbox.fundAccount(buyer.user.user_id, { account: "balance", amount: "25" });
const bought = await buyer.market.purchase({
  items: [{ goods_id: asset.goods_id, max_price: 20, quantity: 1 }],
});
const orderId = bought.result[String(asset.goods_id)]?.bill_order_ids[0];
if (!orderId) throw new Error(`nothing bought: ${JSON.stringify(bought)}`);
console.log(`bought: order ${orderId}`);

/** A bot's Steam half: logged in with its password and a Steam Guard code, offers and community. */
async function steamBot(platformid: string) {
  const secrets = await sandbox.steamSecrets(platformid);
  const session = new LoginSession(EAuthTokenPlatformType.WebBrowser, {
    agent: new https.Agent({ proxyEnv: { HTTPS_PROXY: proxy } }),
  });
  const authenticated = new Promise<void>((resolve, reject) => {
    session.once("authenticated", () => resolve());
    session.once("error", reject);
  });
  await session.startWithCredentials({
    accountName: secrets.account_name,
    password: secrets.password,
    steamGuardCode: SteamTotp.generateAuthCode(secrets.shared_secret),
  });
  await authenticated;
  const cookies = await session.getWebCookies();
  const community = new SteamCommunity({ request: request.defaults({ proxy }) });
  community.setCookies(cookies);
  const manager = new TradeOfferManager({ community, pollInterval: -1 });
  await new Promise<void>((resolve, reject) =>
    manager.setCookies(cookies, (error) => (error ? reject(error) : resolve())),
  );
  return { secrets, community, manager };
}

// The seller's bot reads its sale to deliver (the website's route), sends the offer, confirms it.
const web = new WebClient({ baseUrl });
await web.login(seller.user.nickname, seller.user.password);
const [sale] = (await web.getSalesToDeliver()).data.items;
if (!sale) throw new Error("no sale to deliver");
const sellerBot = await steamBot(seller.account.platformid);
const offer = sellerBot.manager.createOffer(sale.buyer_trade_url);
for (const item of sale.items_to_trade) offer.addMyItem({ appid: 730, contextid: 2, assetid: item.assetid });
const status = await new Promise<string>((resolve, reject) =>
  offer.send((error, answer) => (error ? reject(error) : resolve(answer))),
);
console.log(`offer ${offer.id} ${status}`);
await new Promise<void>((resolve, reject) =>
  sellerBot.community.acceptConfirmationForObject(sellerBot.secrets.identity_secret, offer.id!, (error) =>
    error ? reject(error) : resolve(),
  ),
);
console.log("confirmed on the authenticator");
await sandbox.runJobs();

// The buyer's bot accepts the offer it received.
const buyerBot = await steamBot(buyer.account.platformid);
const received = await new Promise<ReturnType<TradeOfferManager["createOffer"]>>((resolve, reject) =>
  buyerBot.manager.getOffer(offer.id!, (error, found) => (error ? reject(error) : resolve(found))),
);
await new Promise<string>((resolve, reject) =>
  received.accept((error, answer) => (error ? reject(error) : resolve(answer))),
);

// The marketplace's watchers complete the trade and pay the seller.
await sandbox.runJobs();
const [done] = (await seller.market.sellOrderHistory({ state: "SUCCESS" })).items;
console.log(
  `trade ${done?.id} ${done?.state}; seller balance ${(await seller.market.getBalance()).market_balance}`,
);
