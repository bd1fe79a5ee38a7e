import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { sql } from "kysely";
import { loadCatalog } from "../../src/domain/catalog/load-catalog.ts";
import { createReadyTrader, grant } from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

const HOLO_3DMAX = "Sticker | 3DMAX (Holo) | Katowice 2014";
/** The catalog library's own id of that sticker, which records stored before carried. */
const LIBRARY_ID = 1891;
const GAME_KIT_ID = 49;

/**
 * Records stored while sticker ids were the catalog library's are rewritten to the game's kit ids
 * by the next catalog load (docs/design/domain-model.md#catalog-goods), on the platform's item and on the listing.
 */
describe("a catalog load makes stored sticker ids follow the catalog", () => {
  let t: TestApp;
  before(async () => (t = await createTestApp({ catalog: true })));
  after(() => t.close());

  const stickerIds = async (assetid: string) => {
    const asset = await t.database.db
      .selectFrom("sandbox_assets")
      .select("stickers")
      .where("assetid", "=", Number(assetid))
      .executeTakeFirstOrThrow();
    const listing = await t.database.db
      .selectFrom("listings")
      .select("asset")
      .where("assetid", "=", Number(assetid))
      .executeTakeFirstOrThrow();
    const listed = (listing.asset as { info: { stickers: Array<{ sticker_id: number }> } }).info.stickers;
    return {
      asset: asset.stickers.map((sticker) => sticker.sticker_id),
      listing: listed.map((s) => s.sticker_id),
    };
  };

  test("an item and its listing stored with the library's id carry 49 after the load; right records stay", async () => {
    const seller = await createReadyTrader(t, "kit-seller");
    const [assetid] = await grant(t, seller.platformid, {
      market_hash_name: "AK-47 | Redline (Field-Tested)",
      count: 1,
      stickers: [{ market_hash_name: HOLO_3DMAX }],
    });
    const listed = await t.as(seller.token, "POST", "/api/market/developer/sell_order/items", {
      game: "cs2",
      assets: [{ assetid, price: 30 }],
    });
    assert.equal(listed.statusCode, 200, listed.body);
    assert.deepEqual(await stickerIds(assetid!), { asset: [GAME_KIT_ID], listing: [GAME_KIT_ID] });

    // As a version before this one stored them: the library's id, and a catalog load pending.
    await sql`UPDATE sandbox_assets SET stickers = jsonb_set(stickers, '{0,sticker_id}', ${String(LIBRARY_ID)}::jsonb)
      WHERE assetid = ${Number(assetid)}`.execute(t.database.db);
    await sql`UPDATE listings SET asset = jsonb_set(asset, '{info,stickers,0,sticker_id}', ${String(LIBRARY_ID)}::jsonb)
      WHERE assetid = ${Number(assetid)}`.execute(t.database.db);
    await sql`UPDATE catalog_state SET checksum = 'before'`.execute(t.database.db);
    assert.deepEqual(await stickerIds(assetid!), { asset: [LIBRARY_ID], listing: [LIBRARY_ID] });

    const loaded = await loadCatalog(t.ctx);
    assert.ok(loaded.ok && loaded.value.loaded);
    assert.deepEqual(await stickerIds(assetid!), { asset: [GAME_KIT_ID], listing: [GAME_KIT_ID] });
  });
});
