import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createTestApp, type TestApp } from "../support/test-app.ts";

interface Skin {
  paintkit_id: number;
  weapon_name: string;
  weapon_name_desc: string;
  skin_name: string;
  market_hash_name: string;
  goods_id: number;
  icon_url: string;
  texture_url: string;
}

/** `custom_inspect/get_skins`: the finishes of one weapon, from the catalog. */
describe("GET /api/market/custom_inspect/get_skins", () => {
  let t: TestApp;
  before(async () => (t = await createTestApp({ catalog: true })));
  after(() => t.close());
  const skinsOf = (weaponName: string) =>
    t.app.inject({
      method: "GET",
      url: `/api/market/custom_inspect/get_skins?weapon_name=${encodeURIComponent(weaponName)}`,
    });

  test("happy: one entry per finish of the weapon, each named as the catalog names it", async () => {
    const answer = await skinsOf("weapon_ak47");
    assert.equal(answer.statusCode, 200, answer.body);
    const { code, data } = answer.json<{ code: string; data: { weapon_name: string; skins: Skin[] } }>();
    assert.equal(code, "OK");
    assert.equal(data.weapon_name, "weapon_ak47");
    const ids = data.skins.map((skin) => skin.paintkit_id);
    assert.equal(new Set(ids).size, ids.length, "one entry per paint kit");
    assert.ok(data.skins.length > 30, `${data.skins.length} finishes`);
    const redline = data.skins.find((skin) => skin.market_hash_name === "AK-47 | Redline");
    assert.ok(redline);
    assert.deepEqual(
      { ...redline, goods_id: undefined },
      {
        paintkit_id: 282,
        weapon_name: "weapon_ak47",
        weapon_name_desc: "AK-47",
        skin_name: "红线",
        market_hash_name: "AK-47 | Redline",
        goods_id: undefined,
        icon_url: redline.icon_url,
        texture_url: "",
      },
    );
    const goods = await t.database.db
      .selectFrom("goods")
      .select(["market_hash_name", "quality"])
      .where("goods_id", "=", redline.goods_id)
      .executeTakeFirstOrThrow();
    assert.equal(goods.quality, "normal");
    assert.match(goods.market_hash_name, /^AK-47 \| Redline \(/);
    for (const skin of data.skins) assert.match(skin.market_hash_name, /^AK-47 \| /);
  });

  test("happy: knives and gloves by their class names", async () => {
    for (const [weapon, prefix] of [
      ["weapon_knife_karambit", "Karambit | "],
      ["weapon_sporty_gloves", "Sport Gloves | "],
    ]) {
      const answer = await skinsOf(weapon!);
      assert.equal(answer.statusCode, 200, answer.body);
      const skins = answer.json<{ data: { skins: Skin[] } }>().data.skins;
      assert.ok(skins.length > 0);
      for (const skin of skins) assert.ok(skin.market_hash_name.startsWith(prefix!), skin.market_hash_name);
    }
  });

  test("refused: a weapon no goods carries is 400 naming weapon_name", async () => {
    for (const name of ["weapon_nothing", "AK-47", "weapon_c4"]) {
      const answer = await skinsOf(name);
      assert.equal(answer.statusCode, 400, name);
      assert.equal(answer.json().code, "Invalid Argument");
      assert.match(answer.json().error, /^weapon_name: no weapon/);
    }
  });

  test("bad input: a missing, empty or overlong weapon_name is 400 naming the field", async () => {
    for (const url of [
      "/api/market/custom_inspect/get_skins",
      "/api/market/custom_inspect/get_skins?weapon_name=",
      `/api/market/custom_inspect/get_skins?weapon_name=${"w".repeat(65)}`,
    ]) {
      const answer = await t.app.inject({ method: "GET", url });
      assert.equal(answer.statusCode, 400, url);
      assert.match(answer.json().error, /weapon_name/, url);
    }
  });
});
