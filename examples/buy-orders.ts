// A bidding bot: deposits buy-order funds, bids for two units, a seller supplies one, the bot
// reads its order and cancels the rest.
//   npm run example:bid        (with `npm start` running in another terminal)
import { connect, fresh, newTrader, priceInSpread } from "./connect.ts";

const { baseUrl, sandbox } = connect();
const bidder = await newTrader(baseUrl, sandbox, fresh("example-bidder"));
const supplier = await newTrader(baseUrl, sandbox, fresh("example-supplier"));
await sandbox.fundAccount(bidder.user.user_id, { account: "margin", amount: "30" });

const granted = await sandbox.grantItems(supplier.account.platformid, {
  market_hash_name: "Sticker | Crown (Foil)",
  count: 1,
});
const [asset] = granted.assets;
if (!asset) throw new Error("the sandbox granted no item");
// 10.00 on an empty market; below the cheapest listing where the goods trades, or the order
// would buy that listing at once.
const price = await priceInSpread(baseUrl, asset.goods_id, 10);
const order = await bidder.market.createBuyOrder({
  goods_id: asset.goods_id,
  price: price.toFixed(2),
  num: 2,
});
console.log(`buy order ${order.id}: ${order.state}, ${order.num} units at ${order.price}`);

const supplied = await supplier.market.supplyBuyOrder(order.id, [asset.assetid]);
console.log("supplied:", supplied);
const [mine] = (await bidder.market.listBuyOrders({ order_state: "progressing" })).items;
console.log(`order ${mine?.id}: ${mine?.real_num} of ${mine?.num} units bought, ${mine?.frozen_num} held`);
console.log("cancelled:", await bidder.market.cancelBuyOrders([order.id]));
