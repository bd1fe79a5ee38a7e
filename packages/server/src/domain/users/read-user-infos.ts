import { sql } from "kysely";
import type { DomainContext } from "../context.ts";

/** What the website shows of a trader (reference: `user_infos` value). */
export interface WebUserInfo {
  avatar: string;
  avatar_safe: string;
  nickname: string;
  shop_id: string;
  user_id: string;
  is_auto_accept: boolean;
  is_premium_vip: boolean;
  seller_level: number;
  v_types: string[];
}

/**
 * Seller levels by completed sales: 0 none, 1 from 1, 2 from 10, 3 from 100, 4 from 1,000,
 * 5 from 10,000 (docs/design/website-goods-routes.md#the-websites-goods-pages).
 */
export function sellerLevel(completedSales: number): number {
  return completedSales <= 0 ? 0 : Math.min(5, Math.floor(Math.log10(completedSales)) + 1);
}

/**
 * The website's `user_infos` of the traders a page shows, keyed by user id. Accounts have no
 * avatar, no shop of their own (the shop id is the user id) and no premium or auto-accept
 * service; enterprise accounts carry the `enterprise` verification.
 */
export async function readUserInfos(
  ctx: DomainContext,
  userIds: readonly number[],
): Promise<Record<string, WebUserInfo>> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return {};
  const rows = await ctx.db
    .selectFrom("users")
    .select([
      "users.user_id",
      "users.nickname",
      "users.access_level",
      (eb) =>
        eb
          .selectFrom("trades")
          .select(sql<string>`count(*)`.as("sales"))
          .whereRef("trades.seller_id", "=", "users.user_id")
          .where("trades.state", "=", sql.lit("SUCCESS"))
          .as("sales"),
    ])
    .where("users.user_id", "in", ids)
    .execute();
  return Object.fromEntries(
    rows.map((row) => [
      String(row.user_id),
      {
        avatar: "",
        avatar_safe: "",
        nickname: row.nickname,
        shop_id: String(row.user_id),
        user_id: String(row.user_id),
        is_auto_accept: false,
        is_premium_vip: false,
        seller_level: sellerLevel(Number(row.sales ?? 0)),
        v_types: row.access_level === "enterprise" ? ["enterprise"] : [],
      },
    ]),
  );
}
