import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createReadyTrader, goodsIdOf, grant, type PlatformFixture } from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

const REDLINE = "AK-47 | Redline (Field-Tested)";
const CROWN = "Sticker | Crown (Foil)";
/** The game's sticker kit ids, which tools send (docs/design/domain-model.md#catalog-goods). */
const HOLO_3DMAX = "Sticker | 3DMAX (Holo) | Katowice 2014";
const HOLO_3DMAX_KIT = 49;

interface Listing {
  price: string;
  asset_info: { info: { stickers: Array<{ sticker_id: number; slot: number; wear: number }> } };
}

/**
 * `goods/sell_order`'s sticker search (`extra_tag_ids`, `wearless_sticker`) and the other filters
 * of the real website: each one filters, or is refused naming it; none is silently dropped.
 */
describe("goods/sell_order: sticker search and the website's other filters", () => {
  let t: TestApp;
  let seller: PlatformFixture;
  let goodsId: number;
  let crownKit: number;

  const list = async (price: number, stickers: Array<Record<string, unknown>>) => {
    const [assetid] = await grant(t, seller.platformid, { market_hash_name: REDLINE, count: 1, stickers });
    const listed = await t.as(seller.token, "POST", "/api/market/developer/sell_order/items", {
      game: "cs2",
      assets: [{ assetid, price }],
    });
    assert.equal(listed.json()[assetid!], "OK", listed.body);
  };
  const search = (query: string) =>
    t.app.inject({
      method: "GET",
      url: `/api/market/goods/sell_order?game=csgo&goods_id=${goodsId}&${query}`,
    });
  const pricesOf = async (query: string) => {
    const answer = await search(query);
    assert.equal(answer.statusCode, 200, answer.body);
    const data = answer.json<{ data: { items: Listing[]; total_count: number } }>().data;
    assert.equal(data.total_count, data.items.length);
    return data.items.map((item) => item.price).sort();
  };
  const refusal = async (query: string) => {
    const answer = await search(query);
    assert.equal(answer.statusCode, 400, `${query}: ${answer.body}`);
    return answer.json<{ code: string; error: string }>();
  };

  before(async () => {
    t = await createTestApp({ catalog: true });
    seller = await createReadyTrader(t, "sticker-seller");
    goodsId = await goodsIdOf(t, REDLINE);
    // 10: none; 11: one scraped 3DMAX in slot 1; 12: one unscraped 3DMAX in slot 0 and a Crown;
    // 13: four unscraped Crowns; 14: four Crowns, one scraped.
    await list(10, []);
    await list(11, [{ market_hash_name: HOLO_3DMAX, slot: 1, wear: 0.3 }]);
    await list(12, [
      { market_hash_name: HOLO_3DMAX, slot: 0 },
      { market_hash_name: CROWN, slot: 2 },
    ]);
    await list(
      13,
      [0, 1, 2, 3].map((slot) => ({ market_hash_name: CROWN, slot })),
    );
    await list(
      14,
      [0, 1, 2, 3].map((slot) => ({ market_hash_name: CROWN, slot, wear: slot === 3 ? 0.5 : 0 })),
    );
    const listing = (await search("extra_tag_ids=non_empty")).json<{ data: { items: Listing[] } }>().data
      .items;
    crownKit = listing
      .flatMap((item) => item.asset_info.info.stickers)
      .find((sticker) => sticker.sticker_id !== HOLO_3DMAX_KIT)!.sticker_id;
  });
  after(() => t.close());

  test("happy: the listings' stickers carry the game's sticker kit id (3DMAX (Holo) | Katowice 2014 is 49)", async () => {
    const answer = await search("extra_tag_ids=49");
    const items = answer.json<{ data: { items: Listing[] } }>().data.items;
    assert.ok(items.length > 0);
    for (const item of items)
      assert.ok(item.asset_info.info.stickers.some((sticker) => sticker.sticker_id === HOLO_3DMAX_KIT));
  });

  test("happy: empty, non_empty and squad_combos, with and without wearless_sticker", async () => {
    assert.deepEqual(await pricesOf(""), ["10.00", "11.00", "12.00", "13.00", "14.00"]);
    assert.deepEqual(await pricesOf("extra_tag_ids=empty"), ["10.00"]);
    assert.deepEqual(await pricesOf("extra_tag_ids=non_empty"), ["11.00", "12.00", "13.00", "14.00"]);
    assert.deepEqual(await pricesOf("extra_tag_ids=non_empty&wearless_sticker=1"), ["12.00", "13.00"]);
    assert.deepEqual(await pricesOf("extra_tag_ids=squad_combos"), ["13.00", "14.00"]);
    assert.deepEqual(await pricesOf("extra_tag_ids=squad_combos&wearless_sticker=1"), ["13.00"]);
    assert.deepEqual(await pricesOf("extra_tag_ids=non_empty&wearless_sticker=0"), [
      "11.00",
      "12.00",
      "13.00",
      "14.00",
    ]);
  });

  test("happy: sticker kit ids, every one required, by slot, repeated, unscraped", async () => {
    assert.deepEqual(await pricesOf(`extra_tag_ids=${HOLO_3DMAX_KIT}`), ["11.00", "12.00"]);
    assert.deepEqual(await pricesOf(`extra_tag_ids=${HOLO_3DMAX_KIT}&wearless_sticker=1`), ["12.00"]);
    assert.deepEqual(await pricesOf(`extra_tag_ids=${HOLO_3DMAX_KIT},${crownKit}`), ["12.00"]);
    assert.deepEqual(await pricesOf(`extra_tag_ids=slot_1_${HOLO_3DMAX_KIT}`), ["11.00"]);
    assert.deepEqual(await pricesOf(`extra_tag_ids=slot_0_${HOLO_3DMAX_KIT}`), ["12.00"]);
    assert.deepEqual(await pricesOf(`extra_tag_ids=${crownKit},${crownKit},${crownKit},${crownKit}`), [
      "13.00",
      "14.00",
    ]);
    assert.deepEqual(
      await pricesOf(`extra_tag_ids=${crownKit},${crownKit},${crownKit},${crownKit}&wearless_sticker=1`),
      ["13.00"],
    );
    assert.deepEqual(await pricesOf(`extra_tag_ids=${crownKit},${crownKit}`), ["13.00", "14.00"]);
  });

  test("happy: min_price and max_price filter, both inclusive", async () => {
    assert.deepEqual(await pricesOf("min_price=11.00&max_price=13.00"), ["11.00", "12.00", "13.00"]);
    assert.deepEqual(await pricesOf("min_price=&max_price=10.00"), ["10.00"]);
  });

  test("bad input: a sticker search the service cannot read is refused naming its field", async () => {
    const cases: Array<[string, string, RegExp]> = [
      ["extra_tag_ids=custom", "extra_tag_ids", /"custom" is none of/],
      ["extra_tag_ids=slot_7_49", "extra_tag_ids", /none of/],
      ["extra_tag_ids=1,2,3,4,5,6", "extra_tag_ids", /at most 5/],
      ["extra_tag_ids=slot_0_49,slot_0_37", "extra_tag_ids", /slot 0 is named twice/],
      ["extra_tag_ids=999999", "extra_tag_ids", /no sticker has the kit id 999999/],
      ["wearless_sticker=1", "wearless_sticker", /needs extra_tag_ids/],
      ["extra_tag_ids=empty&wearless_sticker=1", "wearless_sticker", /none to be unscraped/],
      ["wearless_sticker=2", "wearless_sticker", /./],
      ["min_price=12.00&max_price=11.00", "min_price", /greater than max_price/],
      ["min_price=abc", "min_price", /./],
      ["appid=570", "appid", /./],
    ];
    for (const [query, field, message] of cases) {
      const body = await refusal(query);
      assert.equal(body.code, "Invalid Argument", query);
      assert.ok(body.error.includes(field), `${query}: ${body.error}`);
      assert.match(body.error, message, query);
    }
  });

  test("refused: the website's filters with nothing to filter here are named, never dropped", async () => {
    for (const name of ["name_tag", "tier", "paintseed_group"]) {
      const body = await refusal(`${name}=1`);
      assert.match(body.error, new RegExp(`^${name}: this filter is not offered here`), body.error);
    }
  });

  test("refused: the sticker search on goods whose items carry no stickers", async () => {
    const crownGoods = await goodsIdOf(t, CROWN);
    const answer = await t.app.inject({
      method: "GET",
      url: `/api/market/goods/sell_order?game=csgo&goods_id=${crownGoods}&extra_tag_ids=non_empty`,
    });
    assert.equal(answer.statusCode, 400);
    assert.match(answer.json().error, /extra_tag_ids: Sticker \| Crown \(Foil\) carries no stickers/);
  });

  test("happy: the tools' own query (appid=730, mode empty) answers; buy_order takes appid and same_goods=false", async () => {
    assert.equal(
      (await search("page_num=1&page_size=24&allow_tradable_cooldown=1&sort_by=default&appid=730"))
        .statusCode,
      200,
    );
    const book = (query: string) =>
      t.app.inject({
        method: "GET",
        url: `/api/market/goods/buy_order?game=csgo&goods_id=${goodsId}&${query}`,
      });
    const steamauto = await book("page_num=1&page_size=20&same_goods=false&appid=730");
    assert.equal(steamauto.statusCode, 200, steamauto.body);
    const narrower = await book("same_goods=true");
    assert.equal(narrower.statusCode, 400);
    assert.match(narrower.json().error, /same_goods/);
    const otherGame = await book("appid=570");
    assert.equal(otherGame.statusCode, 400);
    assert.match(otherGame.json().error, /appid/);
  });
});
