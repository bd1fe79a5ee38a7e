// A selling bot: lists two items, lowers one price, takes the other off sale, reads what is left.
//   npm run example:sell       (with `npm start` running in another terminal)
import { connect, fresh, newTrader } from "./connect.ts";

const { baseUrl, sandbox } = connect();
const seller = await newTrader(baseUrl, sandbox, fresh("example-lister"));
const granted = await sandbox.grantItems(seller.account.platformid, {
  market_hash_name: "Sticker | Crown (Foil)",
  count: 2,
});
const assetids = granted.assets.map((asset) => asset.assetid);
const listed = await seller.market.listItems(assetids.map((assetid) => ({ assetid, price: "30.00" })));
console.log("listed:", listed);

const [first, second] = (await seller.market.getOnSale()).data.items;
if (!first || !second) throw new Error("both listings should be on sale");
await seller.market.repriceItems([{ sell_order_id: first.id, price: "27.50" }]);
await seller.market.delistItems([second.id]);
const left = (await seller.market.getOnSale()).data.items.map((item) => `${item.id} at ${item.price}`);
console.log("on sale now:", left.join(", "));
