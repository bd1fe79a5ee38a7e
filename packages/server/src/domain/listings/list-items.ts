import { sql } from "kysely";
import { actorLabel } from "../context.ts";
import { crossListing } from "../buy-orders/match.ts";
import type { DomainContext } from "../context.ts";
import type { PlatformAsset } from "../platform/game-platform.ts";
import { toAssetInfo } from "../platform-accounts/asset-info.ts";
import { fail, ok, type Result } from "../result.ts";
import { inOneStatement, noteChangedGoods } from "../transaction.ts";
import { COMMITMENT_PREDICATE, holdersOf, MAX_ATTEMPTS } from "../market/asset-commitment.ts";
import { parseListingPrice } from "../market/parse-listing-price.ts";
import { refuseIfFrozen } from "../users/refuse-if-frozen.ts";

export interface ListingRequest {
  assetid: string;
  price: unknown;
  allowBargain?: boolean;
  allowWalletZft?: boolean;
  allowEpay?: boolean;
  allowPendingDivideBalance?: boolean;
  forceBuyerSendOffer?: boolean;
  description?: string;
}

export interface ListingOutcome {
  /** Per assetid: "OK" or why it was not listed. */
  results: Record<string, string>;
  sellOrders: Record<string, { sell_order_id: string }>;
}

type FoundAsset = PlatformAsset & { platformid: string };

/** An item that passed the checks made before writing: its price, and its holder bound to the caller. */
interface Candidate {
  request: ListingRequest;
  asset: FoundAsset;
  price: number;
  fee: number;
}

/**
 * Puts items on sale, each on its own (reference: sell_order/items). An item must be held by a
 * platform account bound to the caller and committed to nothing else (neither on sale nor in a
 * trade that is not finished: docs/design/domain-model.md#the-commitment-rule-for-items); an item in trade cooldown is
 * listed as a pre-sell listing. Each item is listed or refused on its own, so one refusal leaves
 * the others listed; the request's items are written by one statement (docs/design/performance.md#how-the-bench-measures:
 * a statement and a commit per item made listing a tenth of the speed of a plain insert).
 */
export async function listItems(
  ctx: DomainContext,
  requests: ListingRequest[],
): Promise<Result<ListingOutcome>> {
  if (ctx.actor.kind !== "user") return fail("Unauthorized", "a user token is required");
  const userId = ctx.actor.userId;
  const frozen = await refuseIfFrozen(ctx, userId, "trading");
  if (!frozen.ok) return frozen;
  const outcome: ListingOutcome = { results: {}, sellOrders: {} };
  const bound = new Set(
    (
      await ctx.db
        .selectFrom("bound_platform_accounts")
        .select("platformid")
        .where("user_id", "=", userId)
        .execute()
    ).map((row) => row.platformid),
  );
  const assets = new Map(
    (await ctx.platform.findAssets(ctx, { assetids: requests.map((request) => request.assetid) })).map(
      (asset) => [asset.assetid, asset],
    ),
  );
  const candidates: Candidate[] = [];
  for (const request of requests) {
    if (request.assetid in outcome.results) {
      outcome.results[request.assetid] = "listed twice in this request";
      continue;
    }
    const price = parseListingPrice(request.price, ctx.rules);
    const asset = assets.get(request.assetid);
    if (!price.ok) {
      outcome.results[request.assetid] = `price ${price.reason}`;
    } else if (!asset || !bound.has(asset.platformid)) {
      outcome.results[request.assetid] = "not in the inventory of a platform account bound to you";
    } else {
      // Answered below; the mention holds its place, so a second one is "listed twice".
      outcome.results[request.assetid] = "";
      candidates.push({ request, asset, price: price.price, fee: price.fee });
    }
  }
  const listed = await writeListings(ctx, userId, candidates);
  for (const candidate of candidates) {
    const assetid = candidate.asset.assetid;
    const result = listed.get(assetid)!;
    // A second mention's answer stands for the asset; the first mention was listed all the same.
    if (outcome.results[assetid] === "") outcome.results[assetid] = result.ok ? "OK" : result.failure.message;
    if (result.ok) {
      outcome.sellOrders[assetid] = { sell_order_id: String(result.value) };
    }
  }
  // A listing at or below the best eligible buy order sells to it at once.
  for (const listingId of await mayCross(ctx, userId, candidates, listed)) await crossListing(ctx, listingId);
  return ok(outcome);
}

const LISTING_REFUSALS = { onSale: "already on sale", inTrade: "in a trade that is not finished" };

/**
 * Writes the candidates' listings, each with its audit row (and, by trigger, its event), in one
 * statement: every row is written or skipped on its own, and a skipped row is one whose item the
 * commitment rule's unique index found committed (docs/design/domain-model.md#the-commitment-rule-for-items; a writer racing for
 * the same item is waited for, as a plain insert would be). A skipped item is answered by what
 * holds it; one whose holder was gone by then (its trade ended, its listing withdrawn) is tried
 * again, as the one-by-one path did.
 */
async function writeListings(
  ctx: DomainContext,
  userId: number,
  candidates: Candidate[],
): Promise<Map<string, Result<number>>> {
  const answers = new Map<string, Result<number>>();
  if (candidates.length === 0) return answers;
  const goods = await goodsOfAssets(ctx, candidates);
  let pending = candidates;
  for (let attempt = 1; pending.length > 0; attempt++) {
    const batch = pending;
    const written = await inOneStatement(
      ctx,
      async (statementCtx) => {
        const rows = await insertListings(statementCtx, userId, batch, goods);
        noteChangedGoods(
          statementCtx,
          rows.map((row) => row.goods_id),
        );
        return rows;
      },
      (rows) => rows.length > 0,
    );
    for (const row of written) answers.set(String(row.assetid), ok(row.listing_id));
    const skipped = batch.filter((candidate) => !answers.has(candidate.asset.assetid));
    if (skipped.length === 0) break;
    const holders = await holdersOf(
      ctx,
      skipped.map((candidate) => Number(candidate.asset.assetid)),
    );
    pending = [];
    for (const candidate of skipped) {
      const holder = holders.get(candidate.asset.assetid);
      if (holder === "ON_SALE")
        answers.set(candidate.asset.assetid, fail("Invalid State", LISTING_REFUSALS.onSale));
      else if (holder === "SOLD" || attempt === MAX_ATTEMPTS)
        answers.set(candidate.asset.assetid, fail("Invalid State", LISTING_REFUSALS.inTrade));
      else pending.push(candidate);
    }
  }
  return answers;
}

/** The icon and type of the candidates' goods (for each listing's `asset_info`), one read. */
async function goodsOfAssets(ctx: DomainContext, candidates: Candidate[]) {
  const ids = [...new Set(candidates.map((candidate) => candidate.asset.goodsId))];
  const rows = await ctx.db
    .selectFrom("goods")
    .select(["goods_id", "icon_url", "type"])
    .where("goods_id", "in", ids)
    .execute();
  return new Map(rows.map((row) => [row.goods_id, row]));
}

/**
 * The listings and their audit rows in one statement; `ON CONFLICT ... DO NOTHING` on the
 * commitment index skips each item already committed.
 */
async function insertListings(
  ctx: DomainContext,
  userId: number,
  candidates: Candidate[],
  goods: Map<number, { icon_url: string; type: string }>,
) {
  const now = ctx.clock.now();
  const rows = candidates.map(({ request, asset, price, fee }) => {
    const info = goods.get(asset.goodsId)!;
    return {
      user_id: userId,
      platformid: asset.platformid,
      assetid: Number(asset.assetid),
      goods_id: asset.goodsId,
      price,
      fee,
      state: "ON_SALE" as const,
      allow_bargain: request.allowBargain ?? false,
      allow_wallet_zft: request.allowWalletZft ?? true,
      allow_epay: request.allowEpay ?? true,
      allow_pending_divide_balance: request.allowPendingDivideBalance ?? false,
      force_buyer_send_offer: request.forceBuyerSendOffer ?? false,
      description: request.description ?? "",
      paintwear: asset.paintwear,
      paintseed: asset.paintseed,
      paintindex: asset.paintindex,
      tradable_after: asset.tradableAfter,
      asset: JSON.stringify(toAssetInfo(asset, info.icon_url, info.type)),
      created_at: now,
      updated_at: now,
    };
  });
  return ctx.db
    .with("listed", (db) =>
      db
        .insertInto("listings")
        .values(rows)
        .onConflict((conflict) => conflict.column("assetid").where(COMMITMENT_PREDICATE).doNothing())
        .returning(["listing_id", "assetid", "goods_id", "price", "fee"]),
    )
    .with("audited", (db) =>
      // The row recordAudit writes for each listing (domain/audit.ts).
      db
        .insertInto("audit_events")
        .columns(["created_at", "actor", "action", "subject", "details", "request_id"])
        .expression((eb) =>
          eb
            .selectFrom("listed")
            .select([
              sql<Date>`${now}::timestamptz`.as("created_at"),
              sql<string>`${actorLabel(ctx.actor)}::text`.as("actor"),
              sql<string>`'listing.create'`.as("action"),
              sql<string>`'listing:' || listed.listing_id`.as("subject"),
              sql<string>`jsonb_build_object('assetid', listed.assetid::text, 'price_fen', listed.price, 'fee_fen', listed.fee)`.as(
                "details",
              ),
              sql<string | null>`${ctx.requestId ?? null}::text`.as("request_id"),
            ]),
        )
        .returning("event_id"),
    )
    .selectFrom("listed")
    .select(["listing_id", "assetid", "goods_id"])
    .execute();
}

/**
 * The new listings that may cross a buy order, in the request's order: those priced at or below
 * the best order in progress for their goods, not the seller's own, and not asking the buyer to
 * send the offer. One read for the request; `crossListing` then decides each with the
 * full rules (cooldown, `specific`), so this only spares the listings no order can want.
 */
async function mayCross(
  ctx: DomainContext,
  userId: number,
  candidates: Candidate[],
  listed: Map<string, Result<number>>,
): Promise<number[]> {
  const eligible = candidates.filter(
    (candidate) => listed.get(candidate.asset.assetid)?.ok && !candidate.request.forceBuyerSendOffer,
  );
  if (eligible.length === 0) return [];
  // Wider than the public book (buyers offline, orders that want other items): `crossListing`
  // decides; this read only needs to be index-backed on any statistics (buy_orders_book_idx).
  const best = new Map(
    (
      await ctx.db
        .selectFrom("buy_orders")
        .select((eb) => ["goods_id", eb.fn.max("price").as("best")])
        .where("state", "=", sql.lit("progressing"))
        .where("goods_id", "in", [...new Set(eligible.map((candidate) => candidate.asset.goodsId))])
        .where("user_id", "<>", userId)
        .groupBy("goods_id")
        .execute()
    ).map((row) => [row.goods_id, Number(row.best)]),
  );
  return eligible.flatMap((candidate) => {
    const result = listed.get(candidate.asset.assetid)!;
    const bestPrice = best.get(candidate.asset.goodsId);
    return result.ok && bestPrice !== undefined && candidate.price <= bestPrice ? [result.value] : [];
  });
}
