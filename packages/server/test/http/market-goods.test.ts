import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  formatMoney,
  getBuyOrderBook,
  getGoodsInfo,
  getGoodsSellOrders,
  listCatalogGoods,
  addBookmark as addBookmarkOperation,
  listBookmarks as listBookmarksOperation,
} from "@skinmarket/contract";
import { Value } from "typebox/value";
import type { TSchema } from "typebox";
import { sql } from "kysely";
import { createReadyTrader, goodsIdOf, grant, type PlatformFixture } from "../support/platform-world.ts";
import { createTestApp, withCsrf, type TestApp } from "../support/test-app.ts";

const STICKER = "Sticker | Crown (Foil)";
const REDLINE = "AK-47 | Redline (Field-Tested)";
const DOPPLER = "★ Karambit | Doppler (Factory New)";
const FADE = "★ Karambit | Fade (Factory New)";

/** The reference's field lists ("Goods details", "Internal sell listing item", "Catalog item"). */
const GOODS_DETAILS_FIELDS = (
  "id appid transacted_num user_show_count recent_sold_count buy_num sell_num rent_num auction_num pre_sell_num " +
  "game name short_name super_short_name market_hash_name platform_market_url steam_market_url container_type buy_max_price " +
  "sell_min_price sell_reference_price quick_price market_min_price pre_sell_min_price description item_id " +
  "wiki_link has_fade_name can_buy can_sort_by_heat support_name_tag support_charm has_paintwear_rank " +
  "bookmarked has_rune has_overprint_name is_container has_related has_buff_price_history " +
  "allow_bundle_inventory has_bundle_inventory_order has_rent_order is_charm show_game_cms_icon " +
  "paintwear_range paintwear_choices rent_day_choices fade_choices containers asset_tags asset_tags_history " +
  "asset_tags_buy_order paintseed_filters paintseed_filters_history paintseed_filters_buy_order rank_types " +
  "relative_goods goods_info deliver_deposit_filters history_order_type_filters sort_by_fields " +
  "rent_sort_by_fields auction_sort_by_fields pre_sell_sort_by_fields share_data keychain_color_img"
).split(" ");
const GOODS_INFO_FIELDS = (
  "icon_url original_icon_url normal_icon_url platform_price platform_price_cny steam_price steam_price_cny item_id search_tag info " +
  "can_inspect can_3d_inspect can_display_inspect can_preview can_preview_upload can_search_by_sticker " +
  "can_search_by_patch can_search_by_tournament can_specific_buy can_specific_paintwear_buy " +
  "can_specific_fade_buy specific specific_paintwear_buying_choices specific_fade_buying_ranges wear_rank_order_list"
).split(" ");
const SELL_LISTING_FIELDS = (
  "id user_id user_platformid game price fee income deliver_deposit description state_text cannot_bargain_reason " +
  "appid goods_id created_at updated_at featured mode order_type state recent_average_duration " +
  "recent_deliver_rate allow_bargain allow_bargain_chat allow_bargain_swap allow_pending_divide_balance " +
  "bookmarked can_bargain can_bargain_chat can_bargain_swap sticker_premium tradable_cooldown " +
  "supported_pay_channels supported_pay_methods asset_info"
).split(" ");
const LISTING_ASSET_EXTRA =
  "action_link appid has_tradable_cooldown tradable_cooldown_text tradable_unfrozen_time".split(" ");
const LISTING_INFO_EXTRA = (
  "inspect_en_size inspect_en_url inspect_mobile_size inspect_mobile_url inspect_size inspect_start_at " +
  "inspect_state inspect_trn_size inspect_trn_url inspect_url inspect_version inspected_at metaphysic phase_data"
).split(" ");
const SELL_ENVELOPE_FIELDS =
  "goods_infos has_market_stores items page_num page_size sort_by total_count total_page user_infos".split(
    " ",
  );
const WEB_GOODS_INFO_FIELDS = (
  "appid game goods_id name short_name market_hash_name icon_url original_icon_url platform_price " +
  "platform_price_cny steam_price steam_price_cny sell_min_price sell_reference_price market_min_price can_inspect " +
  "can_3d_inspect is_charm " +
  "description item_id keychain_color_img tags"
).split(" ");
const USER_INFO_FIELDS =
  "avatar avatar_safe nickname shop_id user_id is_auto_accept is_premium_vip seller_level v_types".split(" ");
const CATALOG_ITEM_FIELDS = (
  "id appid game market_hash_name name short_name description buy_max_price sell_min_price sell_reference_price " +
  "quick_price buy_num sell_num transacted_num market_min_price platform_market_url steam_market_url can_bargain " +
  "bookmarked has_buff_price_history can_search_by_tournament goods_info"
).split(" ");

function assertFields(record: object, fields: string[], what: string) {
  assert.deepEqual(Object.keys(record).sort(), [...fields].sort(), `${what}: the reference's fields`);
}

function assertSchema(schema: TSchema, value: unknown) {
  const errors = [...Value.Errors(schema, value)].slice(0, 5);
  assert.deepEqual(errors, [], "the answer matches its contract schema exactly");
}

function cookieOf(setCookie: string | string[] | undefined): string {
  const header = [setCookie ?? []].flat().find((value) => value.startsWith("session="));
  assert.ok(header, "a session cookie is set");
  return header.split(";")[0]!;
}

/** The goods pages of the website against a recomputation from the database behind them. */
describe("website goods pages", () => {
  let t: TestApp;
  let seller: PlatformFixture;
  let rival: PlatformFixture;
  let buyer: PlatformFixture;
  let viewer: { userId: string; cookie: string };
  let other: { userId: string; cookie: string };
  const ids: Record<string, number> = {};

  const get = (url: string, cookie?: string) =>
    t.app.inject({ method: "GET", url, headers: cookie ? { cookie } : {} });
  const signIn = async () => {
    const user = await t.createUser();
    const login = await t.app.inject({
      method: "POST",
      url: "/account/api/login",
      payload: { nickname: user.nickname, password: user.password },
    });
    assert.equal(login.statusCode, 200, login.body);
    return { userId: user.userId, cookie: cookieOf(login.headers["set-cookie"]) };
  };
  const list = async (trader: PlatformFixture, goods: string, items: Array<Record<string, unknown>>) => {
    for (const item of items) {
      const { price, allow_bargain, ...grantBody } = item;
      const [assetid] = await grant(t, trader.platformid, {
        market_hash_name: goods,
        count: 1,
        ...grantBody,
      });
      const listed = await t.as(trader.token, "POST", "/api/market/developer/sell_order/items", {
        game: "cs2",
        assets: [{ assetid, price, ...(allow_bargain ? { allow_bargain } : {}) }],
      });
      assert.equal(listed.statusCode, 200, listed.body);
    }
  };

  /** Straightforward figures of one goods, read from the tables. */
  const recompute = async (goodsId: number) => {
    const now = t.clock.now();
    const listings = await t.database.db
      .selectFrom("listings")
      .selectAll()
      .where("goods_id", "=", goodsId)
      .where("state", "=", "ON_SALE")
      .execute();
    const tradable = listings.filter((row) => row.tradable_after === null || row.tradable_after <= now);
    const cooling = listings.filter((row) => row.tradable_after !== null && row.tradable_after > now);
    const orders = await t.database.db
      .selectFrom("buy_orders")
      .innerJoin("users", "users.user_id", "buy_orders.user_id")
      .select(["price", "num", "real_num", "frozen_num"])
      .where("goods_id", "=", goodsId)
      .where("state", "=", "progressing")
      .where("users.buy_order_status", "=", "online")
      .execute();
    const open = orders.filter((order) => order.real_num + order.frozen_num < order.num);
    const min = (prices: number[]) => (prices.length === 0 ? 0 : Math.min(...prices));
    return {
      sell_min_price: formatMoney(min(tradable.map((row) => row.price))),
      sell_num: tradable.length,
      pre_sell_min_price: formatMoney(min(cooling.map((row) => row.price))),
      pre_sell_num: cooling.length,
      market_min: min(listings.map((row) => row.price)),
      buy_max_price: formatMoney(Math.max(0, ...open.map((order) => order.price))),
      buy_num: open.reduce((sum, order) => sum + order.num - order.real_num - order.frozen_num, 0),
      listings,
    };
  };

  before(async () => {
    t = await createTestApp({ catalog: true });
    for (const name of [STICKER, REDLINE, DOPPLER, FADE]) ids[name] = await goodsIdOf(t, name);
    seller = await createReadyTrader(t, "goods-seller");
    rival = await createReadyTrader(t, "goods-rival");
    buyer = await createReadyTrader(t, "goods-buyer");
    await list(seller, REDLINE, [
      { price: 12, paintwear: "0.16", paintseed: 5, allow_bargain: true },
      { price: 11, paintwear: "0.30", paintseed: 7 },
    ]);
    await list(rival, REDLINE, [{ price: 9, paintwear: "0.20", paintseed: 5, cooldown_days: 3 }]);
    await list(rival, STICKER, [{ price: 2.5 }]);
    await list(seller, DOPPLER, [{ price: 900 }, { price: 950 }, { price: 1000 }, { price: 1100 }]);
    await list(
      seller,
      FADE,
      [3, 12, 412, 763, 1000].map((paintseed, index) => ({ price: 500 + index, paintseed })),
    );
    await t.fund(buyer.userId, "balance", 100);
    const order = await t.as(buyer.token, "POST", "/api/market/developer/buy_order", {
      game: "cs2",
      goods_id: ids[REDLINE],
      price: 8,
      num: 3,
    });
    assert.equal(order.statusCode, 200, order.body);
    viewer = await signIn();
    other = await signIn();
  });
  after(() => t.close());

  test("goods/info: every field group of the reference, figures as the database has them", async () => {
    const answer = await get(`/api/market/goods/info?game=csgo&goods_id=${ids[REDLINE]}`);
    assert.equal(answer.statusCode, 200, answer.body);
    const body = answer.json();
    assertSchema(getGoodsInfo.response, body);
    assert.equal(body.code, "OK");
    assert.equal(body.msg, null);
    const data = body.data;
    assertFields(data, GOODS_DETAILS_FIELDS, "goods details");
    assertFields(data.goods_info, GOODS_INFO_FIELDS, "goods_info");
    const expected = await recompute(ids[REDLINE]!);
    assert.equal(data.sell_min_price, expected.sell_min_price);
    assert.equal(data.sell_min_price, "11.00");
    assert.equal(data.sell_num, expected.sell_num);
    assert.equal(data.pre_sell_min_price, expected.pre_sell_min_price);
    assert.equal(data.pre_sell_min_price, "9.00");
    assert.equal(data.pre_sell_num, expected.pre_sell_num);
    assert.equal(data.market_min_price, formatMoney(expected.market_min));
    assert.equal(data.buy_max_price, expected.buy_max_price);
    assert.equal(data.quick_price, expected.buy_max_price);
    assert.equal(data.buy_num, expected.buy_num);
    assert.equal(data.buy_num, 3);
    assert.equal(data.transacted_num, 0);
    assert.equal(data.bookmarked, false);
    const goods = await t.database.db
      .selectFrom("goods")
      .selectAll()
      .where("goods_id", "=", ids[REDLINE]!)
      .executeTakeFirstOrThrow();
    assert.equal(data.name, goods.name);
    assert.equal(data.market_hash_name, REDLINE);
    assert.deepEqual(data.paintwear_range, [goods.paintwear_min, goods.paintwear_max]);
    assert.equal(data.goods_info.info.tags.exterior.internal_name, "wearcategory2");
    // Field-Tested covers 0.15-0.38: the fixed intervals inside it, and the listings' sorts.
    assert.deepEqual(data.paintwear_choices[0], ["0.15", "0.18"]);
    assert.deepEqual(data.paintwear_choices.at(-1), ["0.27", "0.38"]);
    assert.deepEqual(data.fade_choices, []);
    assert.deepEqual(
      data.sort_by_fields.list[0].list.map((entry: { value: string }) => entry.value),
      [
        "default",
        "price.asc",
        "price.desc",
        "created.desc",
        "created.asc",
        "paintwear.asc",
        "paintwear.desc",
      ],
    );
    assert.equal(data.paintseed_filters[0].type, "paintseed");
    assert.ok(data.relative_goods.some((entry: { goods_id: number }) => entry.goods_id === ids[REDLINE]));
    assert.ok(data.relative_goods.length > 1);
    assert.equal(data.goods_info.can_specific_paintwear_buy, true);
    assert.deepEqual(data.goods_info.specific_paintwear_buying_choices, data.paintwear_choices);
  });

  test("goods/buy_order shares the sellers' user_infos: every reference field", async () => {
    const answer = await get(`/api/market/goods/buy_order?game=csgo&goods_id=${ids[REDLINE]}`);
    assert.equal(answer.statusCode, 200, answer.body);
    assertSchema(getBuyOrderBook.response, answer.json());
    const info = answer.json().data.user_infos[buyer.userId];
    assertFields(info, USER_INFO_FIELDS, "user_infos");
    assert.deepEqual(info, {
      avatar: "",
      avatar_safe: "",
      nickname: "goods-buyer",
      shop_id: buyer.userId,
      user_id: buyer.userId,
      is_auto_accept: false,
      is_premium_vip: false,
      seller_level: 0,
      v_types: [],
    });
  });

  test("goods/info of a Doppler: phases as tag filters and buy-order choices, each with its market", async () => {
    const data = (await get(`/api/market/goods/info?game=csgo&goods_id=${ids[DOPPLER]}`)).json().data;
    const goods = await t.database.db
      .selectFrom("goods")
      .selectAll()
      .where("goods_id", "=", ids[DOPPLER]!)
      .executeTakeFirstOrThrow();
    const phases = goods.tags.filter((tag) => tag.category === "phase");
    assert.deepEqual(
      data.asset_tags[0].items.map((item: { id: number }) => item.id),
      phases.map((tag) => tag.id),
    );
    assert.equal(data.asset_tags[0].type, "tag_ids");
    const [choices] = data.goods_info.specific;
    assert.equal(choices.specific_type, "phase");
    const listings = (await recompute(ids[DOPPLER]!)).listings;
    for (const item of choices.items) {
      const tag = phases.find((phase) => phase.id === item.value)!;
      const { PHASE_OFFSETS } = await import("../../src/domain/catalog/phases.ts");
      const index = goods.paint_index! + PHASE_OFFSETS[tag.internal_name]!;
      const prices = listings.filter((row) => row.paintindex === index).map((row) => row.price);
      assert.equal(
        item.sell_min_price,
        formatMoney(prices.length ? Math.min(...prices) : 0),
        tag.internal_name,
      );
    }
  });

  test("goods/sell_order: listings with goods_infos, user_infos and stores, every reference field", async () => {
    const answer = await get(`/api/market/goods/sell_order?game=csgo&goods_id=${ids[REDLINE]}`);
    assert.equal(answer.statusCode, 200, answer.body);
    const body = answer.json();
    assertSchema(getGoodsSellOrders.response, body);
    const data = body.data;
    assertFields(data, SELL_ENVELOPE_FIELDS, "sell_order envelope");
    const expected = await recompute(ids[REDLINE]!);
    const byPrice = [...expected.listings].sort((a, b) => a.price - b.price || a.listing_id - b.listing_id);
    assert.deepEqual(
      data.items.map((item: { id: string }) => item.id),
      byPrice.map((row) => String(row.listing_id)),
    );
    assert.equal(data.total_count, 3);
    assert.equal(data.page_size, 10);
    assert.equal(data.sort_by, "default");
    for (const item of data.items) {
      assertFields(item, SELL_LISTING_FIELDS, "sell listing");
      assertFields(
        item.asset_info,
        [
          "assetid",
          "classid",
          "contextid",
          "goods_id",
          "id",
          "instanceid",
          "paintwear",
          "info",
          ...LISTING_ASSET_EXTRA,
        ],
        "listing asset_info",
      );
      for (const field of LISTING_INFO_EXTRA) assert.ok(field in item.asset_info.info, field);
      const row = byPrice.find((entry) => String(entry.listing_id) === item.id)!;
      assert.equal(item.price, formatMoney(row.price));
      assert.equal(item.fee, formatMoney(row.fee));
      assert.equal(item.income, formatMoney(row.price - row.fee));
      assert.equal(item.user_platformid, row.platformid);
      assert.equal(item.asset_info.paintwear, row.paintwear);
      assert.equal(item.bookmarked, false);
      assertFields(data.user_infos[item.user_id], USER_INFO_FIELDS, "user_infos");
      assert.equal(typeof data.has_market_stores[item.user_id], "boolean");
    }
    const cooling = data.items.find((item: { price: string }) => item.price === "9.00");
    assert.equal(cooling.asset_info.has_tradable_cooldown, true);
    assert.equal(cooling.asset_info.tradable_cooldown_text, "3天后可交易");
    assertFields(data.goods_infos[String(ids[REDLINE])], WEB_GOODS_INFO_FIELDS, "goods_infos");
    assert.equal(data.goods_infos[String(ids[REDLINE])].sell_min_price, expected.sell_min_price);
    // The rival also sells a sticker, the seller only this skin... and the Doppler.
    assert.equal(data.has_market_stores[rival.userId], true);
    assert.equal(data.user_infos[seller.userId].nickname, "goods-seller");
  });

  test("goods/sell_order: sorts, cooldown, mode and the filters the goods page offers", async () => {
    const ids$ = async (query: string) => {
      const answer = await get(`/api/market/goods/sell_order?game=csgo&goods_id=${ids[REDLINE]}${query}`);
      assert.equal(answer.statusCode, 200, answer.body);
      return answer.json().data.items.map((item: { price: string }) => item.price);
    };
    assert.deepEqual(await ids$("&sort_by=price.desc"), ["12.00", "11.00", "9.00"]);
    assert.deepEqual(await ids$("&sort_by=paintwear.asc"), ["12.00", "9.00", "11.00"]);
    assert.deepEqual(await ids$("&sort_by=created.desc"), ["9.00", "11.00", "12.00"]);
    assert.deepEqual(await ids$("&allow_tradable_cooldown=0"), ["11.00", "12.00"]);
    assert.deepEqual(await ids$("&mode=1"), ["9.00", "11.00", "12.00"]);
    assert.deepEqual(await ids$("&mode=2"), []);
    assert.deepEqual(await ids$("&min_paintwear=0.15&max_paintwear=0.18"), ["12.00"]);
    assert.deepEqual(await ids$("&min_paintwear=0.15&max_paintwear=0.21"), ["9.00", "12.00"]);
    assert.deepEqual(await ids$("&paintseed=5"), ["9.00", "12.00"]);
  });

  test("goods/sell_order: phase and fade filters show what a buy order naming them could buy", async () => {
    const { PHASE_OFFSETS } = await import("../../src/domain/catalog/phases.ts");
    const { FadeCalculator } = await import("csgo-fade-percentage-calculator");
    const doppler = await t.database.db
      .selectFrom("goods")
      .selectAll()
      .where("goods_id", "=", ids[DOPPLER]!)
      .executeTakeFirstOrThrow();
    const dopplerListings = (await recompute(ids[DOPPLER]!)).listings;
    for (const tag of doppler.tags.filter((entry) => entry.category === "phase")) {
      const answer = await get(
        `/api/market/goods/sell_order?game=csgo&goods_id=${ids[DOPPLER]}&tag_ids=${tag.id}&sort_by=price.asc`,
      );
      assert.equal(answer.statusCode, 200, answer.body);
      const index = doppler.paint_index! + PHASE_OFFSETS[tag.internal_name]!;
      const items = answer.json().data.items as Array<{
        id: string;
        asset_info: { info: { phase_data: { name: string } } };
      }>;
      assert.deepEqual(
        items.map((item) => item.id),
        dopplerListings
          .filter((row) => row.paintindex === index)
          .sort((a, b) => a.price - b.price)
          .map((row) => String(row.listing_id)),
        tag.internal_name,
      );
      for (const item of items) assert.equal(item.asset_info.info.phase_data.name, tag.localized_name);
    }
    const fadeListings = (await recompute(ids[FADE]!)).listings;
    // Seed 1000 is outside the calculator's table: no fade, in no range.
    const fadeOf = (seed: number) =>
      (FadeCalculator.getFadePercentage("Karambit", seed) as { percentage: number } | undefined)
        ?.percentage ?? -1;
    for (const [min, max] of [
      [80, 100],
      [95, 100],
      [80, 90],
    ]) {
      const answer = await get(
        `/api/market/goods/sell_order?game=csgo&goods_id=${ids[FADE]}&min_fade=${min}&max_fade=${max}`,
      );
      assert.equal(answer.statusCode, 200, answer.body);
      const items = answer.json().data.items as Array<{
        id: string;
        asset_info: { info: { paintseed: number; metaphysic: { data: { name: string } } } };
      }>;
      assert.deepEqual(
        items.map((item) => item.id),
        fadeListings
          .filter((row) => fadeOf(row.paintseed!) >= min! && fadeOf(row.paintseed!) <= max!)
          .sort((a, b) => a.price - b.price)
          .map((row) => String(row.listing_id)),
        `${min}-${max}`,
      );
      for (const item of items)
        assert.equal(
          item.asset_info.info.metaphysic.data.name,
          `${fadeOf(item.asset_info.info.paintseed).toFixed(1)}%`,
        );
    }
    const info = (await get(`/api/market/goods/info?game=csgo&goods_id=${ids[FADE]}`)).json().data;
    assert.equal(info.has_fade_name, true);
    assert.ok(info.fade_choices.length > 0);
    assert.deepEqual(info.goods_info.specific_fade_buying_ranges, info.fade_choices);
    assert.equal(info.goods_info.can_specific_fade_buy, true);
  });

  test("goods/sell_order errors name the field", async () => {
    const base = `/api/market/goods/sell_order?game=csgo&goods_id=${ids[REDLINE]}`;
    const cases: Array<[string, string]> = [
      ["&sort_by=cheapest", "sort_by"],
      ["&mode=3", "mode"],
      ["&allow_tradable_cooldown=2", "allow_tradable_cooldown"],
      ["&page_num=0", "page_num"],
      ["&min_paintwear=0.5&max_paintwear=0.2", "min_paintwear"],
      ["&min_paintwear=2", "min_paintwear"],
      ["&tag_ids=1", "tag_ids"],
      ["&min_fade=90", "min_fade"],
    ];
    for (const [query, field] of cases) {
      const answer = await get(base + query);
      assert.equal(answer.statusCode, 400, `${query}: ${answer.body}`);
      assertFields(answer.json(), ["code", "error", "extra"], "internal failure");
      assert.match(answer.json().error, new RegExp(`^${field}`), query);
    }
    const sticker = await get(`/api/market/goods/sell_order?game=csgo&goods_id=${ids[STICKER]}&paintseed=3`);
    assert.match(sticker.json().error, /^paintseed: /);
    const unknown = await get("/api/market/goods/sell_order?game=csgo&goods_id=999999999");
    assert.equal(unknown.statusCode, 404);
    assert.match(unknown.json().error, /^goods_id: /);
    const game = await get(`/api/market/goods/info?game=dota2&goods_id=${ids[REDLINE]}`);
    assert.equal(game.statusCode, 400);
    assert.match(game.json().error, /^game/);
    assert.match((await get("/api/market/goods/info?game=csgo")).json().error, /goods_id/);
  });

  test("bookmarks: the viewer's own, invisible to others and to anonymous visitors", async () => {
    const add = (cookie: string | undefined, body: unknown) =>
      t.app.inject({
        method: "POST",
        url: "/api/market/goods/bookmark",
        headers: cookie ? withCsrf(cookie) : {},
        payload: body as object,
      });
    const added = await add(viewer.cookie, { type: "goods", id: String(ids[REDLINE]) });
    assert.equal(added.statusCode, 200, added.body);
    assertSchema(addBookmarkOperation.response, added.json());
    assert.deepEqual(added.json().data, { type: "goods", id: String(ids[REDLINE]), bookmarked: true });
    assert.equal((await add(viewer.cookie, { type: "goods", id: String(ids[REDLINE]) })).statusCode, 200);
    const listing = (await recompute(ids[REDLINE]!)).listings[0]!;
    assert.equal(
      (await add(viewer.cookie, { type: "sell_order", id: String(listing.listing_id) })).statusCode,
      200,
    );

    const info = (cookie?: string) =>
      get(`/api/market/goods/info?game=csgo&goods_id=${ids[REDLINE]}`, cookie);
    assert.equal((await info(viewer.cookie)).json().data.bookmarked, true);
    assert.equal((await info(viewer.cookie)).json().data.user_show_count, 1);
    assert.equal(
      (await info(other.cookie)).json().data.bookmarked,
      false,
      "another user's bookmarks stay theirs",
    );
    assert.equal((await info()).json().data.bookmarked, false);
    const pageOf = async (cookie?: string) =>
      (await get(`/api/market/goods/sell_order?game=csgo&goods_id=${ids[REDLINE]}`, cookie)).json().data
        .items;
    const marked = (items: Array<{ id: string; bookmarked: boolean }>) =>
      items.filter((item) => item.bookmarked).map((item) => item.id);
    assert.deepEqual(marked(await pageOf(viewer.cookie)), [String(listing.listing_id)]);
    assert.deepEqual(marked(await pageOf(other.cookie)), []);
    assert.deepEqual(marked(await pageOf()), []);

    const removed = await t.app.inject({
      method: "DELETE",
      url: "/api/market/goods/bookmark",
      headers: withCsrf(viewer.cookie),
      payload: { type: "goods", id: String(ids[REDLINE]) },
    });
    assert.equal(removed.statusCode, 200, removed.body);
    assert.equal(removed.json().data.bookmarked, false);
    assert.equal((await info(viewer.cookie)).json().data.bookmarked, false);
    const count = await t.database.db
      .selectFrom("bookmarks")
      .select(sql<string>`count(*)`.as("n"))
      .executeTakeFirstOrThrow();
    assert.equal(Number(count.n), 1, "only the listing bookmark is left");

    // Errors name the field; without a session it is the Login Required form.
    const unknown = await add(viewer.cookie, { type: "goods", id: "999999999" });
    assert.equal(unknown.statusCode, 400);
    assert.match(unknown.json().error, /^id: /);
    const badType = await add(viewer.cookie, { type: "shop", id: "1" });
    assert.match(badType.json().error, /^type/);
    const anonymous = await add(undefined, { type: "goods", id: String(ids[REDLINE]) });
    assert.equal(anonymous.statusCode, 401);
    assert.equal(anonymous.json().code, "Login Required");
    assertFields(anonymous.json(), ["code", "error", "extra"], "Login Required form");
  });

  test("bookmarks list: the viewer's own, newest first, goods as the catalog shows them, a listing after its sale", async () => {
    const viewer = await signIn();
    const other = await signIn();
    const mark = (body: unknown) =>
      t.app.inject({
        method: "POST",
        url: "/api/market/goods/bookmark",
        headers: withCsrf(viewer.cookie),
        payload: body as object,
      });
    const listOf = async (cookie: string | undefined, query = "") => {
      const response = await get(`/api/market/goods/bookmark?game=csgo${query}`, cookie);
      if (response.statusCode === 200) assertSchema(listBookmarksOperation.response, response.json());
      return response;
    };
    assert.deepEqual((await listOf(viewer.cookie)).json().data.items, []);
    for (const name of [STICKER, REDLINE]) {
      assert.equal((await mark({ type: "goods", id: String(ids[name]) })).statusCode, 200);
      t.clock.setOffset(t.clock.offsetMs + 1000);
    }
    const listing = (await recompute(ids[REDLINE]!)).listings[0]!;
    assert.equal((await mark({ type: "sell_order", id: String(listing.listing_id) })).statusCode, 200);

    const goods = (await listOf(viewer.cookie)).json().data;
    assert.deepEqual(
      goods.items.map((item: { id: string; goods: { market_hash_name: string } }) => [
        item.id,
        item.goods.market_hash_name,
      ]),
      [
        [String(ids[REDLINE]), REDLINE],
        [String(ids[STICKER]), STICKER],
      ],
      "newest first",
    );
    assert.equal(goods.total_count, 2);
    const catalogItem = (
      await get(`/api/market/goods?game=csgo&search=${encodeURIComponent(REDLINE)}`, viewer.cookie)
    )
      .json()
      .data.items.find((item: { id: number }) => item.id === ids[REDLINE]);
    assert.deepEqual(goods.items[0].goods, catalogItem, "the goods as the catalog page shows it");
    assert.equal(goods.items[0].goods.bookmarked, true);
    assert.equal(goods.items[0].sell_order, null);
    const paged = (await listOf(viewer.cookie, "&page_size=1&page_num=2")).json().data;
    assert.deepEqual(
      [paged.items.map((item: { id: string }) => item.id), paged.total_page],
      [[String(ids[STICKER])], 2],
    );

    const listings = (await listOf(viewer.cookie, "&type=sell_order")).json().data.items;
    assert.equal(listings.length, 1);
    assert.deepEqual(listings[0].sell_order, {
      id: String(listing.listing_id),
      price: (Number(listing.price) / 100).toFixed(2),
      on_sale: true,
    });
    assert.equal(listings[0].goods.id, ids[REDLINE]);
    assert.deepEqual((await listOf(other.cookie)).json().data.items, [], "another user's stay theirs");
    // A listing withdrawn after it was bookmarked stays in the list, no longer on sale.
    await list(seller, STICKER, [{ price: 3 }]);
    const [withdrawn] = (await recompute(ids[STICKER]!)).listings.filter(
      (row) => Number(row.price) === 300 && String(row.user_id) === seller.userId,
    );
    assert.equal((await mark({ type: "sell_order", id: String(withdrawn!.listing_id) })).statusCode, 200);
    const delisted = await t.as(seller.token, "DELETE", "/api/market/developer/sell_order/items", {
      game: "cs2",
      sell_orders: [String(withdrawn!.listing_id)],
    });
    assert.equal(delisted.statusCode, 200, delisted.body);
    const after = (await listOf(viewer.cookie, "&type=sell_order")).json().data.items;
    assert.deepEqual(
      after.map((item: { sell_order: { on_sale: boolean } }) => item.sell_order.on_sale),
      [false, true],
    );

    // Errors name the field; anonymous is Login Required.
    const bad = await listOf(viewer.cookie, "&type=shop");
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().error, /^type/);
    assert.match((await listOf(viewer.cookie, "&page_size=81")).json().error, /^page_size/);
    const anonymous = await listOf(undefined);
    assert.equal(anonymous.statusCode, 401);
    assert.equal(anonymous.json().code, "Login Required");
  });

  test("catalog: anyone may read it; items with the market's figures, filters and sorts", async () => {
    const anonymous = await get(
      `/api/market/goods?game=csgo&search=${encodeURIComponent("ak47 redline ft")}`,
    );
    assert.equal(anonymous.statusCode, 200, anonymous.body);
    assertSchema(listCatalogGoods.response, anonymous.json());
    const visitorItems = anonymous.json().data.items as Array<{ id: number; bookmarked: boolean }>;
    assert.equal(visitorItems[0]!.id, ids[REDLINE], "the forgiving search finds the goods by its words");
    assert.ok(visitorItems.every((item) => !item.bookmarked));

    const search = await get(
      `/api/market/goods?game=csgo&search=${encodeURIComponent("Redline")}&page_size=80`,
      viewer.cookie,
    );
    assert.equal(search.statusCode, 200, search.body);
    assertSchema(listCatalogGoods.response, search.json());
    const items = search.json().data.items as Array<Record<string, unknown> & { id: number }>;
    const names = await t.database.db
      .selectFrom("goods")
      .select("goods_id")
      .where("market_hash_name", "ilike", "%Redline%")
      .execute();
    assert.equal(search.json().data.total_count, names.length);
    const redline = items.find((item) => item.id === ids[REDLINE])!;
    assertFields(redline, CATALOG_ITEM_FIELDS, "catalog item");
    const expected = await recompute(ids[REDLINE]!);
    assert.equal(redline.sell_min_price, expected.sell_min_price);
    assert.equal(redline.sell_num, expected.sell_num);
    assert.equal(redline.buy_max_price, expected.buy_max_price);
    assert.equal(redline.buy_num, expected.buy_num);
    assert.equal(redline.market_min_price, formatMoney(expected.market_min));
    assert.equal(redline.can_bargain, true);
    assert.equal(items[0]!.id, ids[REDLINE], "sell_num.desc puts the goods on sale first");

    const cheap = await get(
      "/api/market/goods?game=csgo&min_price=1&max_price=20&sort_by=price.asc",
      viewer.cookie,
    );
    assert.deepEqual(
      cheap.json().data.items.map((item: { id: number }) => item.id),
      [ids[STICKER], ids[REDLINE]],
    );
    const dear = await get("/api/market/goods?game=csgo&sort_by=price.desc&page_size=2", viewer.cookie);
    assert.deepEqual(
      dear.json().data.items.map((item: { id: number }) => item.id),
      [ids[DOPPLER], ids[FADE]],
    );
    const fieldTested = await get(
      "/api/market/goods?game=csgo&exterior=wearcategory2&page_size=5",
      viewer.cookie,
    );
    const exteriors = await t.database.db
      .selectFrom("goods")
      .select(sql<string>`count(*)`.as("n"))
      .where("exterior", "=", "wearcategory2")
      .executeTakeFirstOrThrow();
    assert.equal(fieldTested.json().data.total_count, Number(exteriors.n));
    assert.equal(fieldTested.json().data.total_page, Math.ceil(Number(exteriors.n) / 5));
    const newest = await get("/api/market/goods?game=csgo&sort_by=created.desc&page_size=1", viewer.cookie);
    const top = await t.database.db
      .selectFrom("goods")
      .select(sql<number>`max(goods_id)`.as("id"))
      .executeTakeFirstOrThrow();
    assert.equal(newest.json().data.items[0].id, top.id);

    for (const [query, field] of [
      ["&page_size=81", "page_size"],
      ["&sort_by=heat", "sort_by"],
      ["&min_price=abc", "min_price"],
      ["&min_price=5&max_price=1", "min_price"],
    ] as const) {
      const answer = await get(`/api/market/goods?game=csgo${query}`, viewer.cookie);
      assert.equal(answer.statusCode, 400, query);
      assert.match(answer.json().error, new RegExp(`^${field}`), query);
    }
  });

  test("catalog: its sorts and price filters follow the market within a second", async () => {
    const GOODS = "Sticker | Howling Dawn";
    const page = async () =>
      (
        await get(
          `/api/market/goods?game=csgo&search=${encodeURIComponent("Howling Dawn")}&min_price=0.01&sort_by=price.asc`,
          viewer.cookie,
        )
      ).json().data as { total_count: number; items: Array<{ sell_min_price: string; sell_num: number }> };
    assert.equal((await page()).total_count, 0, "not on sale yet");
    await list(rival, GOODS, [{ price: 0.75 }]);
    t.clock.setOffset(t.clock.offsetMs + 1000);
    const after = await page();
    assert.equal(after.total_count, 1);
    assert.equal(after.items[0]!.sell_min_price, "0.75");
    assert.equal(after.items[0]!.sell_num, 1);
  });

  test("security: an ended session is a visitor on the catalog and the goods pages, Login Required on bookmarks", async () => {
    const session = await signIn();
    await t.admin("POST", "/sandbox/clock/advance", { seconds: 8 * 24 * 3600 });
    const catalog = await get("/api/market/goods?game=csgo", session.cookie);
    assert.equal(catalog.statusCode, 200, catalog.body);
    assert.ok(catalog.json().data.items.every((item: { bookmarked: boolean }) => !item.bookmarked));
    const info = await get(`/api/market/goods/info?game=csgo&goods_id=${ids[REDLINE]}`, session.cookie);
    assert.equal(info.statusCode, 200);
    assert.equal(info.json().data.bookmarked, false);
    const bookmark = await t.app.inject({
      method: "POST",
      url: "/api/market/goods/bookmark",
      headers: { cookie: session.cookie },
      payload: { type: "goods", id: String(ids[REDLINE]) },
    });
    assert.equal(bookmark.statusCode, 401);
  });
});
