import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { AssetInfo } from "@skinmarket/contract";
import { loadCatalog } from "../../src/domain/catalog/load-catalog.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";
import {
  advanceClock,
  createAccount,
  CROWN_FOIL,
  GLOCK_GAMMA_DOPPLER,
  grantItems,
  grantRequest,
  itemCount,
  KARAMBIT_DOPPLER,
  LIL_SQUIRT,
  offerRequest,
  PHOENIX_CASE,
  REDLINE,
} from "./sandbox-platform-steps.ts";

/** The sandbox API that puts items into platform accounts: `POST .../accounts/:platformid/items`. */

const REDLINE_WEAR = { min: 0.15, max: 0.38 };
const NAME_TAG = /^Name Tag: ''.+''$/;

function wearOf(asset: AssetInfo): number {
  return Number(asset.paintwear);
}

describe("sandbox items", () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
    const loaded = await loadCatalog(t.ctx);
    assert.ok(loaded.ok);
  });
  after(() => t.close());

  async function emptyAccount(): Promise<string> {
    return (await createAccount(t)).platformid;
  }

  async function expectRefused(
    platformid: string,
    body: Record<string, unknown>,
    status: number,
    message: RegExp,
  ): Promise<void> {
    const response = await grantRequest(t, platformid, body);
    assert.equal(response.statusCode, status, `${JSON.stringify(body)}: ${response.body}`);
    assert.match(response.json().msg, message, JSON.stringify(body));
  }

  describe("happy", () => {
    test("goods are granted by market_hash_name or by goods_id alike", async () => {
      const platformid = await emptyAccount();
      const [byName] = await grantItems(t, platformid, { market_hash_name: REDLINE });
      assert.ok(byName);
      const [byId] = await grantItems(t, platformid, { goods_id: byName.goods_id });
      assert.ok(byId);
      assert.equal(byId.goods_id, byName.goods_id);
      assert.equal(byId.classid, byName.classid);
      assert.equal(byId.info.paintindex, byName.info.paintindex);
    });

    test("count grants that many items, each under its own numeric assetid, all counted in item_count", async () => {
      const platformid = await emptyAccount();
      const first = await grantItems(t, platformid, { market_hash_name: REDLINE, count: 25 });
      const second = await grantItems(t, platformid, { market_hash_name: CROWN_FOIL, count: 5 });
      assert.equal(first.length, 25);
      assert.equal(second.length, 5);
      const assetids = [...first, ...second].map((asset) => asset.assetid);
      for (const assetid of assetids) assert.match(assetid, /^[1-9]\d*$/);
      assert.equal(new Set(assetids).size, assetids.length);
      for (const asset of first) assert.equal(asset.id, asset.assetid);
      assert.equal(await itemCount(t, platformid), 30);
    });

    test("one grant without count gives one item", async () => {
      const platformid = await emptyAccount();
      assert.equal((await grantItems(t, platformid, { market_hash_name: REDLINE })).length, 1);
      assert.equal(await itemCount(t, platformid), 1);
    });

    test("classid is the same for every item of a goods and differs between goods", async () => {
      const platformid = await emptyAccount();
      const redlines = await grantItems(t, platformid, { market_hash_name: REDLINE, count: 10 });
      const elsewhere = await grantItems(t, await emptyAccount(), { market_hash_name: REDLINE });
      const crowns = await grantItems(t, platformid, { market_hash_name: CROWN_FOIL, count: 3 });
      const classids = new Set([...redlines, ...elsewhere].map((asset) => asset.classid));
      assert.equal(classids.size, 1);
      assert.equal(new Set(crowns.map((asset) => asset.classid)).size, 1);
      assert.notEqual(crowns[0]?.classid, redlines[0]?.classid);
    });

    test("drawn paintwear is always inside the goods' range, a float32 written at full precision", async () => {
      const assets = await grantItems(t, await emptyAccount(), {
        market_hash_name: REDLINE,
        count: 200,
        random_extras: false,
      });
      for (const asset of assets) {
        assert.match(asset.paintwear, /^0\.\d{8,}$/);
        const wear = wearOf(asset);
        assert.ok(wear >= REDLINE_WEAR.min && wear < REDLINE_WEAR.max, asset.paintwear);
        assert.equal(Math.fround(wear), wear, `${asset.paintwear} is not a float32`);
      }
      assert.ok(new Set(assets.map((asset) => asset.paintwear)).size > 150);
    });

    test("drawn paintseeds are whole numbers from 0 to 1000; the paint index is the goods' own", async () => {
      const assets = await grantItems(t, await emptyAccount(), {
        market_hash_name: REDLINE,
        count: 100,
        random_extras: false,
      });
      for (const asset of assets) {
        const seed = asset.info.paintseed;
        assert.ok(Number.isInteger(seed) && seed !== null && seed >= 0 && seed <= 1000, String(seed));
      }
      assert.ok(new Set(assets.map((asset) => asset.info.paintseed)).size > 50);
      const indexes = new Set(assets.map((asset) => asset.info.paintindex));
      assert.equal(indexes.size, 1);
      assert.ok(Number.isInteger([...indexes][0]));
    });

    test("an exact paintwear inside the range is kept exactly as given, from its lower edge", async () => {
      const platformid = await emptyAccount();
      for (const paintwear of ["0.15", "0.2512345678901234", "0.37999999", "0.15000000000000000001"]) {
        const [asset] = await grantItems(t, platformid, { market_hash_name: REDLINE, paintwear });
        assert.equal(asset?.paintwear, paintwear);
      }
    });

    test("an exact paintseed is kept, 0 and 1000 included", async () => {
      const platformid = await emptyAccount();
      for (const paintseed of [0, 661, 1000]) {
        const [asset] = await grantItems(t, platformid, { market_hash_name: REDLINE, paintseed });
        assert.equal(asset?.info.paintseed, paintseed);
      }
    });

    test("a Doppler knife's paint index is one of its phases (415-421), and its wear stays Factory New", async () => {
      const assets = await grantItems(t, await emptyAccount(), {
        market_hash_name: KARAMBIT_DOPPLER,
        count: 60,
      });
      for (const asset of assets) {
        const index = asset.info.paintindex;
        assert.ok(index !== null && index >= 415 && index <= 421, String(index));
        assert.ok(wearOf(asset) >= 0 && wearOf(asset) < 0.07, asset.paintwear);
      }
      assert.ok(new Set(assets.map((asset) => asset.info.paintindex)).size > 1);
    });

    test("a Gamma Doppler Glock's paint index is one of its phases (1119-1123)", async () => {
      const assets = await grantItems(t, await emptyAccount(), {
        market_hash_name: GLOCK_GAMMA_DOPPLER,
        count: 40,
        random_extras: false,
      });
      for (const asset of assets) {
        const index = asset.info.paintindex;
        assert.ok(index !== null && index >= 1119 && index <= 1123, String(index));
      }
      assert.ok(new Set(assets.map((asset) => asset.info.paintindex)).size > 1);
    });

    test("stickers given explicitly sit in their slots with their wear, by name or goods_id", async () => {
      const platformid = await emptyAccount();
      const [crown] = await grantItems(t, platformid, { market_hash_name: CROWN_FOIL });
      assert.ok(crown);
      const [rifle] = await grantItems(t, platformid, {
        market_hash_name: REDLINE,
        stickers: [
          { market_hash_name: CROWN_FOIL, slot: 3, wear: 0.25 },
          { goods_id: crown.goods_id, slot: 0 },
        ],
      });
      assert.ok(rifle);
      const stickers = [...rifle.info.stickers].sort((a, b) => a.slot - b.slot);
      assert.equal(stickers.length, 2);
      assert.deepEqual(
        stickers.map(({ slot, wear, category, market_hash_name }) => ({
          slot,
          wear,
          category,
          market_hash_name,
        })),
        [
          { slot: 0, wear: 0, category: "sticker", market_hash_name: CROWN_FOIL },
          { slot: 3, wear: 0.25, category: "sticker", market_hash_name: CROWN_FOIL },
        ],
      );
      assert.ok(Number.isInteger(stickers[0]?.sticker_id) && (stickers[0]?.sticker_id ?? 0) > 0);
      assert.equal(stickers[0]?.sticker_id, stickers[1]?.sticker_id);
    });

    test("an item's sticker_id is the game's sticker kit id (3DMAX (Holo) | Katowice 2014 is 49)", async () => {
      const [rifle] = await grantItems(t, await emptyAccount(), {
        market_hash_name: REDLINE,
        stickers: [{ market_hash_name: "Sticker | 3DMAX (Holo) | Katowice 2014" }],
      });
      assert.equal(rifle?.info.stickers[0]?.sticker_id, 49);
    });

    test("stickers without a slot fill the slots in order, on every item of the grant", async () => {
      const assets = await grantItems(t, await emptyAccount(), {
        market_hash_name: REDLINE,
        count: 3,
        stickers: [{ market_hash_name: CROWN_FOIL }, { market_hash_name: CROWN_FOIL }],
      });
      for (const asset of assets) {
        assert.deepEqual(
          asset.info.stickers.map((sticker) => sticker.slot),
          [0, 1],
        );
      }
    });

    test("an empty sticker list gives a weapon no stickers even with random extras on", async () => {
      const assets = await grantItems(t, await emptyAccount(), {
        market_hash_name: REDLINE,
        count: 40,
        stickers: [],
      });
      for (const asset of assets) assert.deepEqual(asset.info.stickers, []);
    });

    test("a name tag shows in fraudwarnings as Name Tag: ''text''", async () => {
      const [asset] = await grantItems(t, await emptyAccount(), {
        market_hash_name: REDLINE,
        nametag: "Old Faithful",
      });
      assert.equal(asset?.info.fraudwarnings, "Name Tag: ''Old Faithful''");
    });

    test("nametag null gives no name tag even with random extras on", async () => {
      const assets = await grantItems(t, await emptyAccount(), {
        market_hash_name: REDLINE,
        count: 100,
        nametag: null,
      });
      for (const asset of assets) assert.equal(asset.info.fraudwarnings, null);
    });

    test("random_extras false gives plain items: no stickers, charm or name tag", async () => {
      const assets = await grantItems(t, await emptyAccount(), {
        market_hash_name: REDLINE,
        count: 100,
        random_extras: false,
      });
      for (const asset of assets) {
        assert.deepEqual(asset.info.stickers, []);
        assert.deepEqual(asset.info.keychains, []);
        assert.equal(asset.info.fraudwarnings, null);
      }
    });

    test("random extras give some weapons catalog stickers, a charm or a name tag", async () => {
      const assets = await grantItems(t, await emptyAccount(), { market_hash_name: REDLINE, count: 250 });
      const stickered = assets.filter((asset) => asset.info.stickers.length > 0);
      const charmed = assets.filter((asset) => asset.info.keychains.length > 0);
      const tagged = assets.filter((asset) => asset.info.fraudwarnings !== null);
      assert.ok(
        stickered.length > 0 && stickered.length < assets.length,
        `${stickered.length} with stickers`,
      );
      assert.ok(charmed.length > 0 && charmed.length < assets.length, `${charmed.length} with a charm`);
      assert.ok(tagged.length > 0 && tagged.length < assets.length, `${tagged.length} with a name tag`);
      for (const asset of stickered) {
        const slots = asset.info.stickers.map((sticker) => sticker.slot);
        assert.ok(slots.length <= 5 && new Set(slots).size === slots.length, JSON.stringify(slots));
        for (const sticker of asset.info.stickers) {
          assert.ok(sticker.slot >= 0 && sticker.slot <= 4);
          assert.ok(sticker.wear >= 0 && sticker.wear <= 1);
          assert.match(sticker.market_hash_name, /^Sticker \| /);
        }
      }
      for (const asset of charmed) {
        assert.equal(asset.info.keychains.length, 1);
        assert.match(asset.info.keychains[0]?.market_hash_name ?? "", /^Charm \| /);
      }
      for (const asset of tagged) assert.match(asset.info.fraudwarnings ?? "", NAME_TAG);
    });

    test("standard goods (a sticker, a case) have no wear, seed or paint index, and instanceid 0", async () => {
      const platformid = await emptyAccount();
      for (const market_hash_name of [CROWN_FOIL, PHOENIX_CASE]) {
        const assets = await grantItems(t, platformid, { market_hash_name, count: 3 });
        for (const asset of assets) {
          assert.equal(asset.paintwear, "");
          assert.equal(asset.info.paintseed, null);
          assert.equal(asset.info.paintindex, null);
          assert.equal(asset.instanceid, "0");
          assert.deepEqual(asset.info.stickers, []);
          assert.deepEqual(asset.info.keychains, []);
          assert.equal(asset.info.fraudwarnings, null);
        }
      }
    });

    test("a charm has no wear, seed or paint index", async () => {
      const [charm] = await grantItems(t, await emptyAccount(), { market_hash_name: LIL_SQUIRT });
      assert.ok(charm);
      assert.equal(charm.paintwear, "");
      assert.equal(charm.info.paintseed, null);
      assert.equal(charm.info.paintindex, null);
    });

    test("items with the same attributes share an instanceid; a name tag gives another", async () => {
      const platformid = await emptyAccount();
      const plain = { market_hash_name: REDLINE, paintwear: "0.2", paintseed: 7, random_extras: false };
      const twins = await grantItems(t, platformid, { ...plain, count: 2 });
      const [tagged] = await grantItems(t, platformid, { ...plain, nametag: "Twin" });
      assert.match(twins[0]?.instanceid ?? "", /^\d+$/);
      assert.equal(twins[0]?.instanceid, twins[1]?.instanceid);
      assert.notEqual(tagged?.instanceid, twins[0]?.instanceid);
    });

    test("cooldown_days keeps the item out of trade until those days have passed", async () => {
      const sender = await createAccount(t);
      const receiver = await createAccount(t);
      const [asset] = await grantItems(t, sender.platformid, { market_hash_name: REDLINE, cooldown_days: 2 });
      assert.ok(asset);
      const refused = await offerRequest(t, sender.platformid, receiver.trade_url, [asset.assetid]);
      assert.equal(refused.statusCode, 409, refused.body);
      assert.match(refused.json().msg, /trade cooldown/);
      await advanceClock(t, 2 * 86_400 - 60);
      const stillRefused = await offerRequest(t, sender.platformid, receiver.trade_url, [asset.assetid]);
      assert.equal(stillRefused.statusCode, 409, stillRefused.body);
      await advanceClock(t, 60);
      const offered = await offerRequest(t, sender.platformid, receiver.trade_url, [asset.assetid]);
      assert.equal(offered.statusCode, 200, offered.body);
    });

    test("an item granted without cooldown can be offered at once", async () => {
      const sender = await createAccount(t);
      const receiver = await createAccount(t);
      const [asset] = await grantItems(t, sender.platformid, { market_hash_name: REDLINE, cooldown_days: 0 });
      assert.ok(asset);
      const offered = await offerRequest(t, sender.platformid, receiver.trade_url, [asset.assetid]);
      assert.equal(offered.statusCode, 200, offered.body);
    });
  });

  describe("error", () => {
    test("goods not in the catalog are Not Found, by goods_id and by market_hash_name, and nothing is granted", async () => {
      const platformid = await emptyAccount();
      await expectRefused(platformid, { goods_id: 999_999_999 }, 404, /^goods_id:/);
      await expectRefused(
        platformid,
        { market_hash_name: "AK-47 | Nothing Like It" },
        404,
        /^market_hash_name:/,
      );
      assert.equal(await itemCount(t, platformid), 0);
    });

    test("a grant naming no goods is refused naming goods_id", async () => {
      await expectRefused(await emptyAccount(), { count: 2 }, 400, /^goods_id:/);
    });

    test("count above 1000 or below 1 is refused naming count", async () => {
      const platformid = await emptyAccount();
      for (const count of [1001, 0, -1, 2.5]) {
        await expectRefused(platformid, { market_hash_name: REDLINE, count }, 400, /^count:/);
      }
      assert.equal(await itemCount(t, platformid), 0);
    });

    test("a paintwear outside the goods' range is refused naming paintwear, and nothing is granted", async () => {
      const platformid = await emptyAccount();
      // The top of the range belongs to the next exterior: 0.38 is Well-Worn, not Field-Tested.
      for (const paintwear of ["0.1499999", "0.38", "0.3800001", "0.5", "0", "1"]) {
        await expectRefused(
          platformid,
          { market_hash_name: REDLINE, paintwear, count: 3 },
          400,
          /^paintwear:/,
        );
      }
      assert.equal(await itemCount(t, platformid), 0);
    });

    test("a paintwear that is not a decimal from 0 to 1 is refused naming paintwear", async () => {
      const platformid = await emptyAccount();
      for (const paintwear of ["abc", ".2", "0.2.1", "1.5", "-0.2", "0.123456789012345678901", 0.2, "2e-1"]) {
        await expectRefused(platformid, { market_hash_name: REDLINE, paintwear }, 400, /^paintwear:/);
      }
    });

    test("paintwear or paintseed on goods without wear is refused by name", async () => {
      const platformid = await emptyAccount();
      await expectRefused(platformid, { market_hash_name: CROWN_FOIL, paintwear: "0.2" }, 400, /^paintwear:/);
      await expectRefused(platformid, { market_hash_name: PHOENIX_CASE, paintseed: 5 }, 400, /^paintseed:/);
      assert.equal(await itemCount(t, platformid), 0);
    });

    test("a paintseed outside 0-1000 is refused naming paintseed", async () => {
      const platformid = await emptyAccount();
      for (const paintseed of [-1, 1001, 1.5, "7"]) {
        await expectRefused(platformid, { market_hash_name: REDLINE, paintseed }, 400, /^paintseed:/);
      }
    });

    test("stickers on goods that are not weapons are refused naming stickers", async () => {
      const platformid = await emptyAccount();
      for (const market_hash_name of [KARAMBIT_DOPPLER, CROWN_FOIL, PHOENIX_CASE]) {
        const stickers = [{ market_hash_name: CROWN_FOIL }];
        await expectRefused(platformid, { market_hash_name, stickers }, 400, /^stickers:/);
      }
      assert.equal(await itemCount(t, platformid), 0);
    });

    test("a sticker that is not in the catalog, or is not a sticker, is refused by its position", async () => {
      const platformid = await emptyAccount();
      const [rifle] = await grantItems(t, platformid, { market_hash_name: REDLINE });
      assert.ok(rifle);
      const cases: Array<[unknown[], RegExp]> = [
        [[{ market_hash_name: "Sticker | Never Printed" }], /^stickers\.0:/],
        [[{ market_hash_name: CROWN_FOIL }, { goods_id: rifle.goods_id }], /^stickers\.1:/],
        [[{ market_hash_name: CROWN_FOIL }, { market_hash_name: REDLINE }], /^stickers\.1:/],
        [[{ slot: 1 }], /^stickers\.0:/],
      ];
      for (const [stickers, message] of cases) {
        await expectRefused(platformid, { market_hash_name: REDLINE, stickers }, 400, message);
      }
      assert.equal(await itemCount(t, platformid), 1);
    });

    test("two stickers in one slot are refused naming the slot", async () => {
      await expectRefused(
        await emptyAccount(),
        {
          market_hash_name: REDLINE,
          stickers: [{ market_hash_name: CROWN_FOIL }, { market_hash_name: CROWN_FOIL, slot: 0 }],
        },
        400,
        /^stickers\.1\.slot:/,
      );
    });

    test("more than five stickers, a slot beyond 4 or a wear beyond 1 are refused", async () => {
      const platformid = await emptyAccount();
      const six = Array.from({ length: 6 }, () => ({ market_hash_name: CROWN_FOIL }));
      await expectRefused(platformid, { market_hash_name: REDLINE, stickers: six }, 400, /^stickers/);
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ market_hash_name: CROWN_FOIL, slot: 5 }, /^stickers\.0\.slot:/],
        [{ market_hash_name: CROWN_FOIL, wear: 1.5 }, /^stickers\.0\.wear:/],
        [{ market_hash_name: CROWN_FOIL, colour: "red" }, /^stickers\.0\.colour: unknown field$/],
      ];
      for (const [sticker, message] of cases) {
        await expectRefused(platformid, { market_hash_name: REDLINE, stickers: [sticker] }, 400, message);
      }
    });

    test("a name tag on goods other than weapons and knives is refused naming nametag", async () => {
      const platformid = await emptyAccount();
      for (const goods of [CROWN_FOIL, PHOENIX_CASE, LIL_SQUIRT]) {
        await expectRefused(
          platformid,
          { market_hash_name: goods, nametag: "hi" },
          400,
          /^nametag: only weapons and knives take name tags$/,
        );
      }
      const [knife] = await grantItems(t, platformid, {
        market_hash_name: KARAMBIT_DOPPLER,
        nametag: "Shiny",
      });
      assert.equal(knife?.info.fraudwarnings, "Name Tag: ''Shiny''");
    });

    test("an empty name tag or one longer than 20 characters is refused naming nametag", async () => {
      const platformid = await emptyAccount();
      for (const nametag of ["", "x".repeat(21), 5]) {
        await expectRefused(platformid, { market_hash_name: REDLINE, nametag }, 400, /^nametag:/);
      }
    });

    test("cooldown_days outside 0-30 is refused naming cooldown_days", async () => {
      const platformid = await emptyAccount();
      for (const cooldown_days of [-1, 31]) {
        await expectRefused(platformid, { market_hash_name: REDLINE, cooldown_days }, 400, /^cooldown_days:/);
      }
    });

    test("an unknown field is refused by name", async () => {
      await expectRefused(
        await emptyAccount(),
        { market_hash_name: REDLINE, float: "0.2" },
        400,
        /^float: unknown field$/,
      );
    });

    test("granting to an account the platform does not have is Not Found; a malformed platformid names platformid", async () => {
      await expectRefused("76561199999999998", { market_hash_name: REDLINE }, 404, /does not exist/);
      await expectRefused("1234", { market_hash_name: REDLINE }, 400, /^platformid:/);
    });
  });

  describe("security", () => {
    test("granting needs the sandbox admin token: none or a user's token is Unauthorized and grants nothing", async () => {
      const user = await t.createUser();
      const platformid = await emptyAccount();
      const url = `/sandbox/platform/accounts/${platformid}/items`;
      const body = { market_hash_name: REDLINE, count: 5 };
      const anonymous = await t.app.inject({ method: "POST", url, payload: body });
      assert.equal(anonymous.statusCode, 401);
      const asUser = await t.as(user.token, "POST", url, body);
      assert.equal(asUser.statusCode, 401);
      assert.equal(asUser.json().code, "Unauthorized");
      assert.equal(await itemCount(t, platformid), 0);
    });

    test("a grant with one bad item in a large count writes nothing at all", async () => {
      const platformid = await emptyAccount();
      await expectRefused(
        platformid,
        { market_hash_name: REDLINE, count: 50, stickers: [{ market_hash_name: "Sticker | Never Printed" }] },
        400,
        /^stickers\.0:/,
      );
      assert.equal(await itemCount(t, platformid), 0);
    });
  });
});
