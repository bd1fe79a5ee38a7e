import { sql } from "kysely";
import type { ListingState } from "../../storage/schema.ts";
import type { DomainContext } from "../context.ts";
import { fail, type Result } from "../result.ts";
import { constraintName, sqlState } from "../transaction.ts";

/**
 * The commitment rule for items (docs/design.md section 5): an item is committed to at most one
 * thing at a time, a listing on sale or a sale whose trade is live (a supply to a buy order is
 * such a sale). The partial unique index of migration 0014 decides every race: the verb whose
 * listing is written second is refused by the database, never by a look taken before its write.
 */
const ONE_COMMITMENT_PER_ASSET = "listings_one_commitment_per_asset";

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

const MAX_ATTEMPTS = 3;

async function heldBy(ctx: DomainContext, assetid: number): Promise<ListingState | undefined> {
  const holder = await ctx.db
    .selectFrom("listings")
    .select("state")
    .where("assetid", "=", assetid)
    .where((eb) =>
      eb.or([
        eb("state", "=", sql.lit("ON_SALE")),
        eb.and([eb("state", "=", sql.lit("SOLD")), eb("trade_ended", "=", sql.lit(false))]),
      ]),
    )
    .executeTakeFirst();
  return holder?.state;
}
