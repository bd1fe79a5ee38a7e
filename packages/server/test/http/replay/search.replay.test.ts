import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { createReadyTrader, goodsIdOf, grant } from "../../support/platform-world.ts";
import { assertShape } from "../../support/replay-shape.ts";
import { createTestApp, type TestApp, type WebSession } from "../../support/test-app.ts";

const REDLINE = "AK-47 | Redline (Field-Tested)";

/**
 * The requests real tools send for the inspect view, the sticker search, the mobile app's writes
 * and the signed-in page, replayed as their code sends them, with the fields they read checked.
 */
describe("replay: inspect skins, sticker search, app writes and the signed-in page", () => {
  let t: TestApp;
  let root: string;
  let session: WebSession;
  const nickname = "replay-searcher";

  before(async () => {
    root = await mkdtemp(join(tmpdir(), "skinmarket-web-"));
    await writeFile(
      join(root, "index.html"),
      "<!doctype html><html><head><!--skinmarket-settings--></head><body></body></html>",
    );
    t = await createTestApp({ catalog: true, website: { root } });
    await t.createUser({ nickname, password: "replay password" });
    session = await t.signIn(nickname, "replay password");
  });
  after(async () => {
    await t.close();
    await rm(root, { recursive: true, force: true });
  });

  // A paint-texture fetcher (BuffAccount.getCustomInspect in a Node tool): GET
  // custom_inspect/get_skins?weapon_name=<name>, then for each of data.skins keys
  // `${weapon_name_desc}|${skin_name}` and keeps texture_url (skipping a weapon whose first skin
  // has no texture_url key).
  test("a paint-texture fetcher's getCustomInspect", async () => {
    const answer = await t.web(
      session,
      "GET",
      "/api/market/custom_inspect/get_skins?weapon_name=weapon_ak47",
    );
    assert.equal(answer.statusCode, 200, answer.body);
    assertShape(answer.json(), {
      code: "string",
      data: { skins: [{ weapon_name_desc: "string", skin_name: "string", texture_url: "string" }] },
    });
    const skins = answer.json().data.skins as Array<{ weapon_name_desc: string; skin_name: string }>;
    assert.ok(Object.hasOwn(skins[0]!, "texture_url"));
    const keys = skins.map((skin) => `${skin.weapon_name_desc}|${skin.skin_name}`);
    assert.ok(keys.includes("AK-47|红线"), "the Redline is one of the AK-47's finishes");
  });

  // A browser extension's sticker filter appends `&extra_tag_ids=non_empty&wearless_sticker=1`
  // (or a kit id list) to the goods page's sell_order request and reads data.items[].asset_info
  // .info.stickers[] (sticker_id, slot, wear) as the real website answers them.
  test("a browser extension's sticker filter on goods/sell_order", async () => {
    const seller = await createReadyTrader(t, "replay-seller");
    const [assetid] = await grant(t, seller.platformid, {
      market_hash_name: REDLINE,
      count: 1,
      stickers: [{ market_hash_name: "Sticker | 3DMAX (Holo) | Katowice 2014", slot: 0 }],
    });
    const listed = await t.as(seller.token, "POST", "/api/market/developer/sell_order/items", {
      game: "cs2",
      assets: [{ assetid, price: 20 }],
    });
    assert.equal(listed.statusCode, 200, listed.body);
    const goodsId = await goodsIdOf(t, REDLINE);
    const answer = await t.app.inject({
      method: "GET",
      url: `/api/market/goods/sell_order?game=csgo&goods_id=${goodsId}&page_num=1&sort_by=default&mode=&allow_tradable_cooldown=1&extra_tag_ids=non_empty&wearless_sticker=1&_=1700000000000`,
    });
    assert.equal(answer.statusCode, 200, answer.body);
    assertShape(answer.json(), {
      code: "string",
      data: {
        items: [
          {
            asset_info: { info: { stickers: [{ sticker_id: "integer", slot: "integer", wear: "number" }] } },
          },
        ],
      },
    });
    assert.equal(answer.json().data.items[0].asset_info.info.stickers[0].sticker_id, 49);
  });

  // A buff163 client's send_trade_offers posts with `System-Type: Android` and
  // `System-Version: 33` and no X-CSRFToken ("buff requires these headers, otherwise you will get
  // a csrf error"); any session write of the app passes the same way.
  test("a buff163 client's app-style write (System-Type: Android, no X-CSRFToken)", async () => {
    const goodsId = await goodsIdOf(t, REDLINE);
    const answer = await t.app.inject({
      method: "POST",
      url: "/api/market/goods/bookmark",
      headers: { cookie: session.cookie.split(";")[0]!, "system-type": "Android", "system-version": "33" },
      payload: { type: "goods", id: String(goodsId) },
    });
    assert.equal(answer.statusCode, 200, answer.body);
    assert.equal(answer.json().code, "OK");
  });

  // The same buff163 client's is_session_alive: GET /news/ and the text holds '"user": {"' and
  // '"nickname": "'; anonymous, it holds neither.
  test("a buff163 client's is_session_alive on /news/ and /", async () => {
    for (const url of ["/news/", "/"]) {
      const signedIn = await t.web(session, "GET", url);
      assert.equal(signedIn.statusCode, 200, url);
      assert.ok(
        signedIn.body.includes('"user": {"') && signedIn.body.includes(`"nickname": "${nickname}"`),
        url,
      );
      const anonymous = await t.app.inject({ method: "GET", url });
      assert.ok(!anonymous.body.includes('"user": {"') && !anonymous.body.includes('"nickname": "'), url);
    }
  });
});
