import { sql } from "kysely";
import type { DomainContext } from "../../domain/context.ts";
import type { OfferItemsFrom } from "../../storage/schema.ts";

/**
 * Trades as IEconService's `GetTradeHistory` and `GetTradeStatus` give them, and ISteamEconomy's
 * `GetAssetClassInfo`. The sandbox's trade id is its accepted offer's id, and the trade's time is
 * its acceptance (when the items arrived). A trade is complete (ETradeStatus 3) once the offer is
 * accepted; one the platform reversed under trade protection is 12 (Steam's `Reverted`), counted
 * with the failed ones. Each item carries its assetid before the trade and `new_assetid` after.
 */
const TRADE_STATUS = { accepted: 3, reverted: 12 } as const;
/** The most trades one `GetTradeHistory` page answers. */
export const STEAM_TRADE_HISTORY_MAX = 500;

export interface SteamTradeQuery {
  /** One trade only (`GetTradeStatus`). */
  tradeid?: string;
  maxTrades: number;
  /** The page's edge: the time (Unix seconds) and id of the last trade shown, or the first when navigating back. */
  startAfterTime?: number;
  startAfterTradeid?: string;
  navigatingBack: boolean;
  includeFailed: boolean;
}

interface TradeRow {
  tradeofferid: number;
  sender: string;
  receiver: string;
  items_from: OfferItemsFrom;
  state: keyof typeof TRADE_STATUS;
  assetids: number[];
  time_init: number;
}

/**
 * The viewer's trades, newest first: a page after (older than) the cursor, or before it (newer)
 * when navigating back, and whether more lie beyond the page in that direction.
 */
export async function steamTrades(
  ctx: DomainContext,
  viewer: string,
  query: SteamTradeQuery,
): Promise<{ trades: Array<Record<string, unknown>>; more: boolean }> {
  const back = query.navigatingBack;
  const cursor =
    query.startAfterTime === undefined
      ? sql`true`
      : query.startAfterTradeid === undefined
        ? sql`time_init ${sql.raw(back ? ">" : "<")} ${query.startAfterTime}`
        : sql`(time_init, tradeofferid) ${sql.raw(back ? ">" : "<")} (${query.startAfterTime}, ${Number(query.startAfterTradeid)})`;
  const order = sql.raw(back ? "ASC" : "DESC");
  const rows = (
    await sql<TradeRow>`
      SELECT * FROM (${tradesOf(viewer, query)}) trades WHERE ${cursor}
      ORDER BY time_init ${order}, tradeofferid ${order} LIMIT ${query.maxTrades + 1}
    `.execute(ctx.db)
  ).rows;
  const more = rows.length > query.maxTrades;
  const page = rows.slice(0, query.maxTrades);
  if (back) page.reverse();
  return { trades: await steamTradesOf(ctx, viewer, page), more };
}

/** How many trades the viewer has (`include_total`). */
export async function countSteamTrades(ctx: DomainContext, viewer: string, includeFailed: boolean) {
  const counted = await sql<{ count: number }>`
    SELECT count(*)::int AS count FROM (${tradesOf(viewer, { includeFailed })}) trades
  `.execute(ctx.db);
  return counted.rows[0]?.count ?? 0;
}

/** The viewer's accepted (and, with the failed, reverted) offers with the second they were accepted. */
function tradesOf(viewer: string, query: Pick<SteamTradeQuery, "tradeid" | "includeFailed">) {
  const states = query.includeFailed ? ["accepted", "reverted"] : ["accepted"];
  return sql`
    SELECT o.tradeofferid, o.sender, o.receiver, o.items_from, o.state, o.assetids,
      coalesce(
        (SELECT floor(extract(epoch FROM arrived.acquired_at))::bigint
          FROM sandbox_assets given JOIN sandbox_assets arrived ON arrived.assetid = given.traded_to_assetid
          WHERE given.assetid = (o.assetids ->> 0)::bigint),
        floor(extract(epoch FROM o.updated_at))::bigint
      ) AS time_init
    FROM sandbox_trade_offers o
    WHERE (o.sender = ${viewer} OR o.receiver = ${viewer})
      AND o.state IN (${sql.join(states)})
      ${query.tradeid === undefined ? sql`` : sql`AND o.tradeofferid = ${Number(query.tradeid)}`}
  `;
}

async function steamTradesOf(
  ctx: DomainContext,
  viewer: string,
  rows: TradeRow[],
): Promise<Array<Record<string, unknown>>> {
  const assetids = [...new Set(rows.flatMap((row) => row.assetids))];
  const assets =
    assetids.length === 0
      ? []
      : await ctx.db
          .selectFrom("sandbox_assets")
          .select(["assetid", "classid", "instanceid", "traded_to_assetid"])
          .where("assetid", "in", assetids)
          .execute();
  return rows.map((row) => {
    const items = row.assetids.flatMap((assetid) => {
      const asset = assets.find((each) => each.assetid === assetid);
      if (!asset) return [];
      return [
        {
          appid: 730,
          contextid: "2",
          assetid: String(asset.assetid),
          amount: "1",
          classid: asset.classid,
          instanceid: asset.instanceid,
          new_assetid: asset.traded_to_assetid === null ? "" : String(asset.traded_to_assetid),
          new_contextid: "2",
        },
      ];
    });
    const holder = row.items_from === "sender" ? row.sender : row.receiver;
    return {
      tradeid: String(row.tradeofferid),
      steamid_other: viewer === row.sender ? row.receiver : row.sender,
      time_init: Number(row.time_init),
      status: TRADE_STATUS[row.state],
      ...(holder === viewer ? { assets_given: items } : { assets_received: items }),
    };
  });
}

/**
 * The descriptions of the given classes (`classid` and `instanceid`), keyed as Steam keys them:
 * `<classid>_<instanceid>`, or the bare classid for instance 0. A class the sandbox never minted
 * is left out, as Steam leaves out classes it does not know.
 */
export async function steamAssetClassInfo(
  ctx: DomainContext,
  classes: Array<{ classid: string; instanceid: string }>,
): Promise<Record<string, Record<string, unknown>>> {
  const known = classes.filter(
    (each) => /^\d{1,20}$/.test(each.classid) && /^\d{1,20}$/.test(each.instanceid),
  );
  if (known.length === 0) return {};
  const rows = await ctx.db
    .selectFrom("sandbox_assets")
    .innerJoin("goods", "goods.goods_id", "sandbox_assets.goods_id")
    .select([
      "sandbox_assets.classid",
      "sandbox_assets.instanceid",
      "goods.market_hash_name",
      "goods.type",
      "goods.icon_url",
      "goods.rarity_color",
      "goods.tags",
    ])
    .distinctOn(["sandbox_assets.classid", "sandbox_assets.instanceid"])
    .where("sandbox_assets.classid", "in", [...new Set(known.map((each) => each.classid))])
    .execute();
  const info: Record<string, Record<string, unknown>> = {};
  for (const wanted of known) {
    const row = rows.find((each) => each.classid === wanted.classid && each.instanceid === wanted.instanceid);
    if (!row) continue;
    info[wanted.instanceid === "0" ? wanted.classid : `${wanted.classid}_${wanted.instanceid}`] = {
      classid: row.classid,
      instanceid: row.instanceid,
      icon_url: row.icon_url,
      name: row.market_hash_name,
      market_hash_name: row.market_hash_name,
      market_name: row.market_hash_name,
      name_color: row.rarity_color ?? "D2D2D2",
      type: row.type,
      tradable: "1",
      marketable: "1",
      commodity: "0",
      tags: Object.fromEntries(
        row.tags.map((tag, index) => [
          String(index),
          { internal_name: tag.internal_name, name: tag.localized_name, category: tag.category },
        ]),
      ),
    };
  }
  return info;
}
