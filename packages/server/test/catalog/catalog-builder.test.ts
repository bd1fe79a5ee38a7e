import { test } from "node:test";
import assert from "node:assert/strict";
import type { CS2Item, CS2ItemTranslationMap } from "@ianlucas/cs2-lib";
import { buildCatalog, type CatalogSource } from "../../scripts/catalog-builder.ts";
import type { CatalogGoods } from "../../src/domain/catalog/catalog-file.ts";

/** A few cs2-lib items of every kind, shaped as cs2-lib ships them. */
const ITEMS: CS2Item[] = [
  { id: 1, type: "weapon", base: true, free: true, model: "ak47", category: "rifle", rarity: "#ded6cc" },
  {
    id: 2,
    type: "weapon",
    model: "ak47",
    category: "rifle",
    index: 282,
    wearMin: 0.1,
    wearMax: 0.7,
    rarity: "#d32ce6",
    collection: "set_community_2",
    image: "/images/redline.webp",
  },
  {
    id: 3,
    type: "weapon",
    model: "awp",
    category: "rifle",
    index: 344,
    wearMin: 0,
    wearMax: 0.7,
    rarity: "#eb4b4b",
    image: "/images/lore.webp",
  },
  {
    id: 4,
    type: "melee",
    base: true,
    model: "knife_karambit",
    index: 0,
    rarity: "#eb4b4b",
    image: "/images/karambit.webp",
  },
  {
    id: 5,
    type: "melee",
    model: "knife_karambit",
    index: 415,
    altName: "Ruby",
    wearMin: 0,
    wearMax: 0.08,
    rarity: "#eb4b4b",
    image: "/images/ruby.webp",
  },
  {
    id: 6,
    type: "melee",
    model: "knife_karambit",
    index: 418,
    altName: "Phase 1",
    wearMin: 0,
    wearMax: 0.08,
    rarity: "#eb4b4b",
    image: "/images/p1.webp",
  },
  {
    id: 7,
    type: "glove",
    model: "sporty_gloves",
    index: 10048,
    wearMin: 0.06,
    wearMax: 0.8,
    rarity: "#eb4b4b",
    image: "/images/vice.webp",
  },
  { id: 8, type: "sticker", index: 76, rarity: "#d32ce6", image: "/images/crown.webp" },
  {
    id: 9,
    type: "case",
    containerType: 0,
    keys: [10],
    contents: [2],
    specials: [4, 6],
    rarity: "#b0c3d9",
    image: "/images/case.webp",
  },
  { id: 10, type: "key", rarity: "#b0c3d9", image: "/images/key.webp" },
  {
    id: 11,
    type: "case",
    containerType: 3,
    contents: [3],
    rarity: "#b0c3d9",
    image: "/images/souvenir.webp",
  },
  { id: 12, type: "graffiti", index: 1671, rarity: "#4b69ff", image: "/images/ace.webp" },
  { id: 13, type: "musickit", index: 3, rarity: "#4b69ff", image: "/images/kit.webp" },
  { id: 14, type: "agent", rarity: "#d32ce6", image: "/images/agent.webp" },
  { id: 15, type: "keychain", index: 1, rarity: "#4b69ff", image: "/images/ava.webp" },
  { id: 16, type: "keychain", index: 37, stickerId: 8, rarity: "#d32ce6", image: "/images/slab.webp" },
  {
    id: 17,
    type: "collectible",
    altName: "Commodity Pin - Howl",
    rarity: "#eb4b4b",
    image: "/images/pin.webp",
  },
  {
    id: 18,
    type: "collectible",
    altName: "Community Season One Spring 2013 Coin 1",
    rarity: "#eb4b4b",
    image: "/images/coin.webp",
  },
  { id: 19, type: "tool", def: 1200, rarity: "#b0c3d9", image: "/images/tag.webp" },
  { id: 20, type: "tool", def: 1201, rarity: "#b0c3d9", image: "/images/storage.webp" },
  { id: 21, type: "patch", index: 4550, rarity: "#8847ff", image: "/images/banana.webp" },
  {
    id: 22,
    type: "collectible",
    altName: "Collectible Pin - Howl",
    rarity: "#eb4b4b",
    image: "/images/pin-old.webp",
  },
  {
    id: 23,
    type: "case",
    containerType: undefined,
    contents: [17],
    rarity: "#b0c3d9",
    image: "/images/pins.webp",
  },
];

const NAMES: Record<number, [string, string]> = {
  1: ["AK-47", "AK-47"],
  2: ["AK-47 | Redline", "AK-47 | 红线"],
  3: ["AWP | Dragon Lore", "AWP | 巨龙传说"],
  4: ["Karambit", "爪子刀"],
  5: ["Karambit | Doppler", "爪子刀 | 多普勒"],
  6: ["Karambit | Doppler", "爪子刀 | 多普勒"],
  7: ["Sport Gloves | Vice", "运动手套 | 迈阿密风云"],
  8: ["Sticker | Crown (Foil)", "印花 | 皇冠（闪亮）"],
  9: ["Container | Chroma Case", "武器箱 | 幻彩武器箱"],
  10: ["Key | Chroma Case Key", "钥匙 | 幻彩武器箱钥匙"],
  11: ["Container | Cologne 2014 Cobblestone Souvenir Package", "武器箱 | 2014年科隆锦标赛古堡激战纪念包"],
  12: ["Graffiti | Ace", "涂鸦 | 王牌"],
  13: ["Music Kit | Daniel Sadowski, Crimson Assault", "音乐盒 | Daniel Sadowski - 深红突击"],
  14: ["Agent | Number K | The Professionals", "探员 | 老K | 专业人士"],
  15: ["Charm | Lil' Ava", "挂件 | 小爱娃"],
  16: ["Sticker Slab | Crown (Foil)", "印花板 | 皇冠（闪亮）"],
  17: ["Collectible | Howl Pin", "收藏品 | 咆哮胸章"],
  18: ["Collectible | Operation Payback Challenge Coin", "收藏品 | “回馈大行动”挑战币"],
  19: ["Tool | Name Tag", "工具 | 名称标签"],
  20: ["Tool | Storage Unit", "工具 | 库存存储组件"],
  21: ["Patch | Crazy Banana", "布章 | 疯狂香蕉人"],
  22: ["Collectible | Howl Pin", "收藏品 | 咆哮胸章"],
  23: ["Container | Collectible Pins Capsule Series 3", "武器箱 | 系列 3 收藏胸章胶囊"],
};

function translations(language: 0 | 1): CS2ItemTranslationMap {
  return Object.fromEntries(Object.entries(NAMES).map(([id, names]) => [id, { name: names[language] }]));
}

const SOURCE: CatalogSource = {
  name: "fixture",
  items: ITEMS,
  english: translations(0),
  chinese: translations(1),
  iconBaseUrl: "https://cdn.example",
};

const EMPTY = { goodsIdsTsv: "", tagIdsTsv: "" };

function goodsNamed(goods: CatalogGoods[], marketHashName: string): CatalogGoods {
  const found = goods.find((item) => item.marketHashName === marketHashName);
  assert.ok(found, `no goods named ${marketHashName}`);
  return found;
}

function namesOf(goods: CatalogGoods[], sourceId: number): string[] {
  return goods.filter((item) => item.sourceId === sourceId).map((item) => item.marketHashName);
}

test("a skin expands to the exteriors its wear range reaches, each range clipped to the skin's own", () => {
  const { goods } = buildCatalog(SOURCE, EMPTY);
  const redline = goods.filter((item) => item.sourceId === 2 && item.quality === "normal");
  assert.deepEqual(
    redline.map((item) => [item.marketHashName, item.exterior, item.paintwearMin, item.paintwearMax]),
    [
      ["AK-47 | Redline (Minimal Wear)", "wearcategory1", "0.10", "0.15"],
      ["AK-47 | Redline (Field-Tested)", "wearcategory2", "0.15", "0.38"],
      ["AK-47 | Redline (Well-Worn)", "wearcategory3", "0.38", "0.45"],
      ["AK-47 | Redline (Battle-Scarred)", "wearcategory4", "0.45", "0.70"],
    ],
  );
  const fieldTested = goodsNamed(goods, "AK-47 | Redline (Field-Tested)");
  assert.equal(fieldTested.name, "AK-47 | 红线 (久经沙场)");
  assert.equal(fieldTested.shortName, "AK-47 | 红线");
  assert.equal(fieldTested.paintIndex, 282);
  assert.equal(fieldTested.iconUrl, "https://cdn.example/images/redline.webp");
});

test("StatTrak™ exists for skins from keyed cases, Souvenir for skins from souvenir packages", () => {
  const { goods } = buildCatalog(SOURCE, EMPTY);
  const stattrak = goodsNamed(goods, "StatTrak™ AK-47 | Redline (Field-Tested)");
  assert.equal(stattrak.name, "AK-47（StatTrak™） | 红线 (久经沙场)");
  assert.equal(stattrak.quality, "stattrak");
  assert.equal(namesOf(goods, 2).filter((name) => name.startsWith("Souvenir")).length, 0);
  const souvenir = goodsNamed(goods, "Souvenir AWP | Dragon Lore (Factory New)");
  assert.equal(souvenir.name, "AWP（纪念品） | 巨龙传说 (崭新出厂)");
  assert.equal(souvenir.quality, "souvenir");
  assert.equal(namesOf(goods, 3).filter((name) => name.startsWith("StatTrak")).length, 0);
});

test("knives are ★ and ★ StatTrak™, vanilla knives have no exterior, gloves never have StatTrak™", () => {
  const { goods } = buildCatalog(SOURCE, EMPTY);
  assert.deepEqual(namesOf(goods, 4), ["★ Karambit", "★ StatTrak™ Karambit"]);
  const vanilla = goodsNamed(goods, "★ StatTrak™ Karambit");
  assert.deepEqual(
    [
      vanilla.name,
      vanilla.shortName,
      vanilla.quality,
      vanilla.exterior,
      vanilla.paintwearMin,
      vanilla.paintIndex,
    ],
    ["★ 爪子刀（StatTrak™）", "爪子刀", "unusual_stattrak", null, null, null],
  );
  assert.deepEqual(namesOf(goods, 7), [
    "★ Sport Gloves | Vice (Factory New)",
    "★ Sport Gloves | Vice (Minimal Wear)",
    "★ Sport Gloves | Vice (Field-Tested)",
    "★ Sport Gloves | Vice (Well-Worn)",
    "★ Sport Gloves | Vice (Battle-Scarred)",
  ]);
  assert.equal(goodsNamed(goods, "★ Sport Gloves | Vice (Factory New)").paintwearMin, "0.06");
});

test("Doppler phases are one goods that keeps Phase 1's paint index and lists every phase as a tag", () => {
  const build = buildCatalog(SOURCE, EMPTY);
  const doppler = goodsNamed(build.goods, "★ Karambit | Doppler (Factory New)");
  assert.equal(doppler.name, "★ 爪子刀 | 多普勒 (崭新出厂)");
  assert.equal(doppler.paintIndex, 418);
  assert.equal(doppler.sourceId, 6);
  assert.deepEqual(
    doppler.tags
      .filter((tag) => tag.category === "phase")
      .map((tag) => [tag.internalName, tag.localizedName]),
    [
      ["ruby", "红宝石"],
      ["phase_1", "P1"],
    ],
  );
  assert.deepEqual(
    build.goods.filter((item) => item.marketHashName.includes("Doppler")).map((item) => item.marketHashName),
    [
      "★ Karambit | Doppler (Factory New)",
      "★ Karambit | Doppler (Minimal Wear)",
      "★ StatTrak™ Karambit | Doppler (Factory New)",
      "★ StatTrak™ Karambit | Doppler (Minimal Wear)",
    ],
  );
  assert.deepEqual(
    build.report.duplicates.find((duplicate) => duplicate.kind === "phase"),
    {
      name: "Karambit | Doppler",
      keptSourceId: 6,
      droppedSourceIds: [5],
      kind: "phase",
    },
  );
});

test("names follow the Steam market: no type prefix where Steam shows none, sealed graffiti, StatTrak™ music kits", () => {
  const { goods } = buildCatalog(SOURCE, EMPTY);
  const names = goods.map((item) => [item.marketHashName, item.name]);
  for (const expected of [
    ["Chroma Case", "幻彩武器箱"],
    ["Chroma Case Key", "幻彩武器箱钥匙"],
    ["Number K | The Professionals", "老K | 专业人士"],
    ["Name Tag", "名称标签"],
    ["Howl Pin", "咆哮胸章"],
    ["Sealed Graffiti | Ace", "封装的涂鸦 | 王牌"],
    ["Sticker | Crown (Foil)", "印花 | 皇冠（闪亮）"],
    ["Sticker Slab | Crown (Foil)", "印花板 | 皇冠（闪亮）"],
    ["Patch | Crazy Banana", "布章 | 疯狂香蕉人"],
    ["Charm | Lil' Ava", "挂件 | 小爱娃"],
    ["Music Kit | Daniel Sadowski, Crimson Assault", "音乐盒 | Daniel Sadowski - 深红突击"],
    [
      "StatTrak™ Music Kit | Daniel Sadowski, Crimson Assault",
      "音乐盒（StatTrak™） | Daniel Sadowski - 深红突击",
    ],
  ]) {
    assert.ok(
      names.some(([english, chinese]) => english === expected[0] && chinese === expected[1]),
      `missing ${expected.join(" / ")}`,
    );
  }
});

test("items that never reach the market are left out: stock weapons, coins, storage units", () => {
  const build = buildCatalog(SOURCE, EMPTY);
  for (const sourceId of [1, 18, 20]) assert.deepEqual(namesOf(build.goods, sourceId), []);
  assert.equal(build.report.skipped["untradable collectible"], 1);
  assert.equal(build.report.skipped["untradable tool"], 1);
});

test("a name cs2-lib yields twice is kept once, preferring the copy a container drops", () => {
  const build = buildCatalog(SOURCE, EMPTY);
  assert.deepEqual(namesOf(build.goods, 17), ["Howl Pin"]);
  assert.deepEqual(namesOf(build.goods, 22), []);
  assert.deepEqual(
    build.report.duplicates.find((duplicate) => duplicate.kind === "duplicate"),
    {
      name: "Howl Pin",
      keptSourceId: 17,
      droppedSourceIds: [22],
      kind: "duplicate",
    },
  );
});

test("standard goods are the fungible ones without wear or pattern", () => {
  const { goods } = buildCatalog(SOURCE, EMPTY);
  const standard = new Set(goods.filter((item) => item.isStandard).map((item) => item.type));
  const nonStandard = new Set(goods.filter((item) => !item.isStandard).map((item) => item.type));
  assert.deepEqual([...standard].sort(), [
    "agent",
    "collectible",
    "container",
    "graffiti",
    "key",
    "music_kit",
    "patch",
    "sticker",
    "sticker_slab",
    "tool",
  ]);
  assert.deepEqual([...nonStandard].sort(), ["charm", "gloves", "knife", "weapon"]);
});

test("a first build numbers goods and tags from 1; building again from its own mappings changes nothing", () => {
  const first = buildCatalog(SOURCE, EMPTY);
  assert.deepEqual(
    first.goods.map((item) => item.goodsId),
    first.goods.map((_, index) => index + 1),
  );
  assert.ok(first.goodsIdsTsv.startsWith("1\t"));
  const second = buildCatalog(SOURCE, first);
  assert.equal(second.goodsIdsTsv, first.goodsIdsTsv);
  assert.equal(second.tagIdsTsv, first.tagIdsTsv);
  assert.equal(second.catalogJson, first.catalogJson);
  assert.equal(second.report.newGoods, 0);
});

test("new names get ids above the highest mapped one; vanished names keep their line and leave the catalog", () => {
  const first = buildCatalog(SOURCE, EMPTY);
  const redlineId = goodsNamed(first.goods, "AK-47 | Redline (Field-Tested)").goodsId;
  const kept = first.goodsIdsTsv
    .split("\n")
    .filter((line) => line !== "" && !line.endsWith("\tHowl Pin"))
    .join("\n");
  const mappings = { goodsIdsTsv: `${kept}\n5000\tRetired Item\n`, tagIdsTsv: first.tagIdsTsv };
  const rebuilt = buildCatalog(SOURCE, mappings);
  assert.ok(rebuilt.goodsIdsTsv.startsWith(mappings.goodsIdsTsv), "committed lines are kept verbatim, first");
  assert.equal(rebuilt.goodsIdsTsv.slice(mappings.goodsIdsTsv.length), "5001\tHowl Pin\n");
  assert.equal(goodsNamed(rebuilt.goods, "AK-47 | Redline (Field-Tested)").goodsId, redlineId);
  assert.equal(
    rebuilt.goods.some((item) => item.marketHashName === "Retired Item"),
    false,
  );
  assert.equal(rebuilt.report.absentGoods, 1);
});

test("a damaged mapping stops the build instead of renumbering", () => {
  const cases = [
    ["a\tAK-47 | Redline (Field-Tested)\n", /line 1/],
    ["2\tOne\n1\tTwo\n", /not above/],
    ["1\tOne\n2\tOne\n", /mapped twice/],
    ["1\t\n", /non-empty/],
  ] as const;
  for (const [goodsIdsTsv, message] of cases) {
    assert.throws(() => buildCatalog(SOURCE, { goodsIdsTsv, tagIdsTsv: "" }), message);
  }
});

test("tags carry Steam's internal names and Chinese names, one id per category and internal name", () => {
  const { goods } = buildCatalog(SOURCE, EMPTY);
  const tags = goodsNamed(goods, "StatTrak™ AK-47 | Redline (Field-Tested)").tags;
  assert.deepEqual(
    tags.map((tag) => [tag.category, tag.internalName, tag.localizedName]),
    [
      ["type", "csgo_type_rifle", "步枪"],
      ["weapon", "weapon_ak47", "AK-47"],
      ["category", "weapon_ak47", "AK-47"],
      ["category_group", "rifle", "步枪"],
      ["rarity", "legendary_weapon", "保密"],
      ["itemset", "set_community_2", "set_community_2"],
      ["weaponcase", "chroma_case", "幻彩武器箱"],
      ["quality", "strange", "StatTrak™"],
      ["exterior", "wearcategory2", "久经沙场"],
    ],
  );
  const byKey = new Map<string, number>();
  for (const tag of goods.flatMap((item) => item.tags)) {
    const key = `${tag.category}/${tag.internalName}`;
    assert.equal(byKey.get(key) ?? tag.id, tag.id, key);
    byKey.set(key, tag.id);
  }
  assert.equal(new Set(byKey.values()).size, byKey.size);
});
