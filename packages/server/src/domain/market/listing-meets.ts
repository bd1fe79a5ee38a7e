import { sql, type ExpressionBuilder } from "kysely";
import type { Database } from "../../storage/schema.ts";
import type { SpecificFilter } from "./specific.ts";

/**
 * A listing that meets `filter`, as SQL conditions on `listings`: its wear from the filter's lower
 * bound up to its upper one (excluded for buy orders, whose ranges are half-open; included for a
 * page's `max_paintwear`), a paint seed and a paint index among the filter's (none when the list
 * is empty).
 */
export function listingMeets(
  eb: ExpressionBuilder<Database, "listings">,
  filter: SpecificFilter,
  wearMax: "open" | "closed",
) {
  const conditions = [];
  if (filter.paintwearMin !== undefined) {
    conditions.push(eb("listings.paintwear", ">=", sql<string>`${filter.paintwearMin}::numeric`));
    conditions.push(
      eb("listings.paintwear", wearMax === "open" ? "<" : "<=", sql<string>`${filter.paintwearMax}::numeric`),
    );
  }
  if (filter.paintseeds)
    conditions.push(
      filter.paintseeds.length > 0 ? eb("listings.paintseed", "in", filter.paintseeds) : sql<boolean>`false`,
    );
  if (filter.paintindexes)
    conditions.push(
      filter.paintindexes.length > 0
        ? eb("listings.paintindex", "in", filter.paintindexes)
        : sql<boolean>`false`,
    );
  return eb.and(conditions);
}
