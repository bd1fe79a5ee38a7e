// A first bot: a seller lists a sticker, the bot buys it, the seller sends the trade offer, the
// sandbox's game platform accepts it, and the seller is paid.
//   npm run example:buy        (with `npm start` running in another terminal)
import { connect, fresh, newTrader, priceInSpread } from "./connect.ts";

const { baseUrl, sandbox } = connect();
const seller = await newTrader(baseUrl, sandbox, fresh("example-seller"));
const bot = await newTrader(baseUrl, sandbox, fresh("example-bot"));

const granted = await sandbox.grantItems(seller.account.platformid, {
  market_hash_name: "Sticker | Crown (Foil)",
  count: 1,
});
const [asset] = granted.assets;
if (!asset) throw new Error("the sandbox granted no item");
// 20.00 on an empty market; on a market that trades the goods, inside its spread.
const price = await priceInSpread(baseUrl, asset.goods_id, 20);
await seller.market.listItems([{ assetid: asset.assetid, price: price.toFixed(2) }]);
console.log(`listed asset ${asset.assetid} (goods ${asset.goods_id}) at ${price.toFixed(2)}`);

await sandbox.fundAccount(bot.user.user_id, { account: "balance", amount: "25" });
const bought = await bot.market.purchase({
  items: [{ goods_id: asset.goods_id, max_price: price, quantity: 1 }],
});
const orderId = bought.result[String(asset.goods_id)]?.bill_order_ids[0];
if (!orderId) throw new Error(`nothing bought: ${JSON.stringify(bought)}`);
console.log(`bought: order ${orderId}`);

await seller.market.sendOffer(orderId);
const [order] = (await bot.market.listPurchaseOrders()).items;
await sandbox.acceptOffer(order!.tradeofferid!);
await sandbox.runJobs();
const [sale] = (await seller.market.sellOrderHistory({ state: "SUCCESS" })).items;
console.log(
  `trade ${sale?.id} ${sale?.state}; seller balance ${(await seller.market.getBalance()).market_balance}`,
);
