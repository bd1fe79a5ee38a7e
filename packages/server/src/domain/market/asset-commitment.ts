import { sql } from "kysely";
import type { ListingState } from "../../storage/schema.ts";
import type { DomainContext } from "../context.ts";
import { fail, type Result } from "../result.ts";
import { constraintName, sqlState } from "../transaction.ts";

/**
 * The commitment rule for items (docs/design/domain-model.md#the-commitment-rule-for-items): an item is committed to at most one
 * thing at a time, a listing on sale or a sale whose trade is live (a supply to a buy order is
 * such a sale). The partial unique index of migration 0014 decides every race: the verb whose
 * listing is written second is refused by the database, never by a look taken before its write.
 */
export const ONE_COMMITMENT_PER_ASSET = "listings_one_commitment_per_asset";

/** How a verb words its refusal of an item that is committed elsewhere. */
export interface CommitmentRefusals {
  onSale: string;
  inTrade: string;
}

/**
 * Runs `commit`, a transaction that writes a listing committing `assetid`, and answers the verb's
 * refusal when the item is already committed. An item freed between the refusal and the look at
 * what holds it is tried again.
 */
export async function committingItem<Value>(
  ctx: DomainContext,
  assetid: number,
  refusals: CommitmentRefusals,
  commit: () => Promise<Result<Value>>,
): Promise<Result<Value>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await commit();
    } catch (error) {
      if (sqlState(error) !== "23505" || constraintName(error) !== ONE_COMMITMENT_PER_ASSET) throw error;
      const holder = await heldBy(ctx, assetid);
      if (holder === "ON_SALE") return fail("Invalid State", refusals.onSale);
      if (holder === "SOLD" || attempt === MAX_ATTEMPTS) return fail("Invalid State", refusals.inTrade);
    }
  }
}

export const MAX_ATTEMPTS = 3;

async function heldBy(ctx: DomainContext, assetid: number): Promise<ListingState | undefined> {
  return (await holdersOf(ctx, [assetid])).get(String(assetid));
}

/** What commits each of these items now, if anything: a listing on sale or a sale whose trade is live. */
export async function holdersOf(ctx: DomainContext, assetids: number[]): Promise<Map<string, ListingState>> {
  const rows = await ctx.db
    .selectFrom("listings")
    .select(["assetid", "state"])
    .where("assetid", "in", assetids)
    .where((eb) =>
      eb.or([
        eb("state", "=", sql.lit("ON_SALE")),
        eb.and([eb("state", "=", sql.lit("SOLD")), eb("trade_ended", "=", sql.lit(false))]),
      ]),
    )
    .execute();
  return new Map(rows.map((row) => [String(row.assetid), row.state]));
}

/**
 * The predicate of the commitment index, for `ON CONFLICT (assetid) WHERE ...`: PostgreSQL infers
 * a partial unique index only from a conflict target that repeats its predicate.
 */
export const COMMITMENT_PREDICATE = sql<boolean>`state = 'ON_SALE' OR (state = 'SOLD' AND NOT trade_ended)`;
