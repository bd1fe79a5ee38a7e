import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import {
  CATALOG_FILE_PATH,
  readCatalogFile,
  type CatalogGoods,
  type GoodsType,
} from "../../src/domain/catalog/catalog-file.ts";

const CATALOG_DIR = join(import.meta.dirname, "../../catalog");

const goods = await readCatalogFile();
const byName = new Map(goods.map((item) => [item.marketHashName, item]));

function goodsNamed(marketHashName: string): CatalogGoods {
  const found = byName.get(marketHashName);
  assert.ok(found, `the catalog has no ${JSON.stringify(marketHashName)}`);
  return found;
}

function tagsOf(item: CatalogGoods, category: string): string[] {
  return item.tags.filter((tag) => tag.category === category).map((tag) => tag.internalName);
}

test("the default path is the committed catalog file, under 150 bytes a goods compressed and 1,000 as JSON", async () => {
  assert.equal(CATALOG_FILE_PATH, join(CATALOG_DIR, "catalog.json.gz"));
  // A guard against a format that grows tenfold (every start reads the whole file), counted in
  // bytes rather than timed: the time to load it is `npm run bench`'s "catalog first load".
  const compressed = await readFile(CATALOG_FILE_PATH);
  const json = gunzipSync(compressed);
  assert.ok(compressed.length / goods.length < 150, `${compressed.length} bytes compressed`);
  assert.ok(json.length / goods.length < 1000, `${json.length} bytes of JSON`);
});

test("stickers, patches, charms and music kits carry the game's own kit ids, not the catalog library's", () => {
  // The ids tools map against their own tables (inventories, inspect links, the real website).
  const sticker = goodsNamed("Sticker | 3DMAX (Holo) | Katowice 2014");
  assert.equal(sticker.gameIndex, 49);
  assert.notEqual(sticker.sourceId, 49, "the library's own id stays apart");
  assert.equal(goodsNamed("Charm | Lil' Ava").gameIndex, 1);
  assert.equal(goodsNamed("Music Kit | Daniel Sadowski, Crimson Assault").gameIndex, 3);
  assert.equal(goodsNamed("Patch | Phoenix").gameIndex, 4568);
  for (const item of goods) {
    const kit = ["sticker", "sticker_slab", "patch", "graffiti", "charm", "music_kit"].includes(item.type);
    if (kit) assert.ok(Number.isInteger(item.gameIndex) && item.gameIndex! > 0, item.marketHashName);
    else assert.equal(item.gameIndex, null, item.marketHashName);
  }
});

test("the catalog holds more than 20,000 goods of every type", () => {
  assert.ok(goods.length >= 20_000, `${goods.length} goods`);
  const types: GoodsType[] = [
    "weapon",
    "knife",
    "gloves",
    "sticker",
    "sticker_slab",
    "graffiti",
    "patch",
    "agent",
    "music_kit",
    "container",
    "key",
    "tool",
    "collectible",
    "charm",
  ];
  for (const type of types)
    assert.ok(
      goods.some((item) => item.type === type),
      `no ${type}`,
    );
});

test("goods ids and market hash names are unique, and every goods id is the mapping's", async () => {
  assert.equal(new Set(goods.map((item) => item.goodsId)).size, goods.length);
  assert.equal(byName.size, goods.length);
  const mapping = new Map<string, number>();
  for (const line of (await readFile(join(CATALOG_DIR, "goods-ids.tsv"), "utf8")).split("\n")) {
    if (line === "") continue;
    const [id = "", name = ""] = line.split("\t");
    mapping.set(name, Number(id));
  }
  for (const item of goods) assert.equal(mapping.get(item.marketHashName), item.goodsId, item.marketHashName);
});

test("known items are there with their Steam names, Chinese names and tags", () => {
  const redline = goodsNamed("AK-47 | Redline (Field-Tested)");
  assert.deepEqual(
    [redline.name, redline.shortName, redline.type, redline.quality, redline.exterior],
    ["AK-47 | 红线 (久经沙场)", "AK-47 | 红线", "weapon", "normal", "wearcategory2"],
  );
  assert.deepEqual([redline.paintwearMin, redline.paintwearMax, redline.paintIndex], ["0.15", "0.38", 282]);
  assert.deepEqual(tagsOf(redline, "weapon"), ["weapon_ak47"]);
  assert.deepEqual(tagsOf(redline, "rarity"), ["legendary_weapon"]);
  assert.equal(redline.isStandard, false);

  const stattrak = goodsNamed("StatTrak™ AK-47 | Redline (Field-Tested)");
  assert.deepEqual([stattrak.name, stattrak.quality], ["AK-47（StatTrak™） | 红线 (久经沙场)", "stattrak"]);
  assert.deepEqual(tagsOf(stattrak, "quality"), ["strange"]);

  const souvenir = goodsNamed("Souvenir AWP | Dragon Lore (Factory New)");
  assert.deepEqual(
    [souvenir.name, souvenir.quality, souvenir.paintIndex],
    ["AWP（纪念品） | 巨龙传说 (崭新出厂)", "souvenir", 344],
  );

  const doppler = goodsNamed("★ Karambit | Doppler (Factory New)");
  assert.deepEqual(
    [doppler.name, doppler.shortName, doppler.type, doppler.quality, doppler.paintIndex],
    ["★ 爪子刀 | 多普勒 (崭新出厂)", "爪子刀 | 多普勒", "knife", "unusual", 418],
  );
  assert.deepEqual(tagsOf(doppler, "phase"), [
    "ruby",
    "sapphire",
    "black_pearl",
    "phase_1",
    "phase_2",
    "phase_3",
    "phase_4",
  ]);
  assert.equal(goodsNamed("★ StatTrak™ Karambit | Doppler (Minimal Wear)").paintwearMax, "0.08");
  assert.equal(goodsNamed("★ StatTrak™ Karambit").exterior, null);

  const sticker = goodsNamed("Sticker | Crown (Foil)");
  assert.deepEqual(
    [sticker.name, sticker.type, sticker.isStandard],
    ["印花 | 皇冠（闪亮）", "sticker", true],
  );
  assert.deepEqual(
    [goodsNamed("CS:GO Weapon Case").name, goodsNamed("CS:GO Weapon Case").type],
    ["反恐精英武器箱", "container"],
  );
  assert.deepEqual(
    [goodsNamed("CS:GO Case Key").name, goodsNamed("CS:GO Case Key").type],
    ["反恐精英武器箱钥匙", "key"],
  );
  const musicKit = goodsNamed("StatTrak™ Music Kit | Daniel Sadowski, Crimson Assault");
  assert.deepEqual(
    [musicKit.name, musicKit.type, musicKit.quality],
    ["音乐盒（StatTrak™） | Daniel Sadowski - 深红突击", "music_kit", "stattrak"],
  );
  const agent = goodsNamed("Cmdr. Mae 'Dead Cold' Jamison | SWAT");
  assert.deepEqual(
    [agent.name, agent.type, tagsOf(agent, "rarity")],
    ["指挥官 梅 “极寒” 贾米森 | 特警", "agent", ["ancient_character"]],
  );
  assert.deepEqual(
    [goodsNamed("Charm | Lil' Ava").name, goodsNamed("Charm | Lil' Ava").type],
    ["挂件 | 小爱娃", "charm"],
  );
  assert.equal(goodsNamed("Sealed Graffiti | NaCl (Princess Pink)").name, "封装的涂鸦 | 氯化钠 (酱紫)");
  assert.equal(goodsNamed("Sticker Slab | DeadFox | London 2018").type, "sticker_slab");
  assert.equal(goodsNamed("Howl Pin").type, "collectible");
  assert.equal(goodsNamed("Name Tag").type, "tool");
  assert.equal(goodsNamed("Patch | Crazy Banana").type, "patch");
  assert.equal(goodsNamed("★ Sport Gloves | Pandora's Box (Field-Tested)").type, "gloves");
});

test("paintwear ranges lie inside their exterior's interval; goods without exterior have none", () => {
  const intervals: Record<string, [number, number]> = {
    wearcategory0: [0, 0.07],
    wearcategory1: [0.07, 0.15],
    wearcategory2: [0.15, 0.38],
    wearcategory3: [0.38, 0.45],
    wearcategory4: [0.45, 1],
  };
  for (const item of goods) {
    if (item.exterior === null) {
      assert.deepEqual([item.paintwearMin, item.paintwearMax], [null, null], item.marketHashName);
      continue;
    }
    const [low, high] = intervals[item.exterior] ?? [NaN, NaN];
    const min = Number(item.paintwearMin);
    const max = Number(item.paintwearMax);
    assert.ok(low <= min && min < max && max <= high, `${item.marketHashName}: ${min}-${max}`);
    assert.match(item.paintwearMin ?? "", /^[01]\.\d{2,}$/);
    assert.deepEqual(tagsOf(item, "exterior"), [item.exterior]);
  }
});

test("qualities match the goods type, and skins carry paint indexes", () => {
  const qualities: Record<GoodsType, string[]> = {
    weapon: ["normal", "souvenir", "stattrak"],
    knife: ["unusual", "unusual_stattrak"],
    gloves: ["unusual"],
    music_kit: ["normal", "stattrak"],
    sticker: ["normal"],
    sticker_slab: ["normal"],
    graffiti: ["normal"],
    patch: ["normal"],
    agent: ["normal"],
    container: ["normal"],
    key: ["normal"],
    tool: ["normal"],
    collectible: ["normal"],
    charm: ["normal"],
  };
  for (const [type, expected] of Object.entries(qualities)) {
    const found = new Set(goods.filter((item) => item.type === type).map((item) => item.quality));
    assert.deepEqual([...found].sort(), expected, type);
  }
  for (const item of goods) {
    const hasWear = item.exterior !== null;
    if (hasWear) assert.ok(item.paintIndex !== null && item.paintIndex > 0, item.marketHashName);
    assert.equal(item.tags.filter((tag) => tag.category === "type").length, 1, item.marketHashName);
    assert.ok(item.iconUrl.startsWith("https://"), item.marketHashName);
    assert.ok(item.name !== "" && item.shortName !== "", item.marketHashName);
  }
});
