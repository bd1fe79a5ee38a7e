import { performance } from "node:perf_hooks";
import { sql, type Kysely } from "kysely";
import { createUser } from "../src/domain/accounts/create-user.ts";
import { DEFAULT_MARKET_RULES, type DomainContext } from "../src/domain/context.ts";
import { SecretBox } from "../src/domain/secret-box.ts";
import { createPlatformAccount } from "../src/platform/sandbox/platform-accounts.ts";
import { SandboxPlatform } from "../src/platform/sandbox/sandbox-platform.ts";
import type { Database } from "../src/storage/schema.ts";

/**
 * The market the listings bench writes into (`listings.ts`): its sellers, the items they list,
 * the listings already on sale between the phases, and the tables' frozen statistics.
 */

/** Assets per request, as the bots list them. */
export const PER_REQUEST = 200;
/** Rows per statement while the market is filled between the phases. */
const FILL_CHUNK = 50_000;
/**
 * The tables whose statistics are kept as they were at the start: autovacuum still vacuums them
 * (as on any server) but never analyzes them.
 */
export const FROZEN_STATISTICS = ["listings", "sandbox_assets", "audit_events", "event_outbox", "goods"];

export const silent = { info() {}, warn() {}, error() {} };
export const services = {
  platform: new SandboxPlatform(),
  secretBox: new SecretBox(SecretBox.generateKey()),
  rules: DEFAULT_MARKET_RULES,
};

export interface Seller {
  userId: number;
  token: string;
  platformid: string;
}

export async function createSellers(admin: DomainContext, count: number): Promise<Seller[]> {
  const sellers: Seller[] = [];
  for (let index = 0; index < count; index++) {
    const user = await createUser(admin, { nickname: `bench-seller-${index}` });
    if (!user.ok) throw new Error(user.failure.message);
    const account = await createPlatformAccount(admin, { userId: user.value.userId });
    if (!account.ok) throw new Error(account.failure.message);
    sellers.push({
      userId: user.value.userId,
      token: user.value.token,
      platformid: account.value.platformid,
    });
  }
  return sellers;
}

let nextAssetId = 1_000_000_000;

/**
 * `count` new items in the sellers' inventories (the sellers in turn), of goods spread over the
 * catalog, written set-based; answers each seller's assetids.
 */
export async function mintAssets(
  db: Kysely<Database>,
  sellers: Seller[],
  count: number,
): Promise<string[][]> {
  const first = nextAssetId;
  nextAssetId += count;
  await sql`
    WITH catalog AS (SELECT array_agg(goods_id ORDER BY goods_id) AS ids FROM goods),
    owners AS (SELECT ${sellers.map((seller) => seller.platformid)}::text[] AS ids)
    INSERT INTO sandbox_assets (assetid, platformid, goods_id, classid, instanceid, paintwear, paintseed,
      paintindex, acquired_at)
    SELECT ${first}::bigint + n, owners.ids[1 + n % array_length(owners.ids, 1)],
      catalog.ids[1 + (n * 7919) % array_length(catalog.ids, 1)], (5000000 + n)::text, '0',
      (0.06 + (n % 9000) / 10000.0)::text, n % 1000, 0, now()
    FROM generate_series(0, ${count - 1}::int) AS n, catalog, owners`.execute(db);
  return sellers.map((_, seller) =>
    Array.from({ length: Math.ceil((count - seller) / sellers.length) }, (_, index) =>
      String(first + seller + index * sellers.length),
    ),
  );
}

/** Listings on sale of another seller's items, written set-based (no events, as the demo build). */
export async function fillMarket(
  admin: DomainContext,
  count: number,
  progress: (line: string) => void,
): Promise<void> {
  const db = admin.db;
  const user = await createUser(admin, { nickname: "bench-filler" });
  if (!user.ok) throw new Error(user.failure.message);
  const account = await createPlatformAccount(admin, { userId: user.value.userId });
  if (!account.ok) throw new Error(account.failure.message);
  const filler = { platformid: account.value.platformid, userId: user.value.userId };
  const started = performance.now();
  for (let done = 0; done < count; done += FILL_CHUNK) {
    const chunk = Math.min(FILL_CHUNK, count - done);
    const first = nextAssetId;
    nextAssetId += chunk;
    await db.transaction().execute(async (trx) => {
      await sql`SELECT set_config('skinmarket.events', 'off', true)`.execute(trx);
      await sql`
        WITH catalog AS (SELECT array_agg(goods_id ORDER BY goods_id) AS ids FROM goods),
        minted AS (
          INSERT INTO sandbox_assets (assetid, platformid, goods_id, classid, instanceid, paintwear,
            paintseed, paintindex, acquired_at)
          SELECT ${first}::bigint + n, ${filler.platformid},
            catalog.ids[1 + (n * 7919) % array_length(catalog.ids, 1)], (7000000 + n)::text, '0',
            (0.06 + (n % 9000) / 10000.0)::text, n % 1000, 0, now()
          FROM generate_series(0, ${chunk - 1}::int) AS n, catalog
          RETURNING assetid, goods_id, paintwear, paintseed, paintindex)
        INSERT INTO listings (user_id, platformid, assetid, goods_id, price, fee, state, allow_bargain,
          allow_wallet_zft, allow_epay, allow_pending_divide_balance, force_buyer_send_offer, description,
          paintwear, paintseed, paintindex, asset, created_at, updated_at)
        SELECT ${filler.userId}::bigint, ${filler.platformid}, assetid, goods_id, 10000 + assetid % 90000,
          250 + assetid % 2250, 'ON_SALE', false, true, true, false, false, '', paintwear::numeric,
          paintseed, paintindex, jsonb_build_object('assetid', assetid::text), now(), now()
        FROM minted`.execute(trx);
    });
    progress(
      `filled ${done + chunk} of ${count} listings (${((done + chunk) / ((performance.now() - started) / 1000)).toFixed(0)}/s)`,
    );
  }
}

export async function vacuumed(db: Kysely<Database>): Promise<void> {
  // VACUUM without ANALYZE: the visibility map and the row counts, no column statistics.
  for (const table of FROZEN_STATISTICS) await sql.raw(`VACUUM ${table}`).execute(db);
}

export async function onSale(db: Kysely<Database>): Promise<number> {
  const { count } = await db
    .selectFrom("listings")
    .select((eb) => eb.fn.countAll<string>().as("count"))
    .where("state", "=", sql.lit("ON_SALE"))
    .executeTakeFirstOrThrow();
  return Number(count);
}
