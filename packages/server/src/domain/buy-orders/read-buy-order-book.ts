import { formatMoney, RECORD_GAME, WEB_PAY_METHOD_CODES } from "@skinmarket/contract";
import type { BuyOrderRow } from "./match.ts";
import type { SpecificRow } from "../../storage/schema.ts";
import { readUserInfos } from "../users/read-user-infos.ts";
import { toUnixSeconds } from "../clock.ts";
import type { DomainContext } from "../context.ts";
import { sellerFee } from "../market/seller-fee.ts";
import { fail, ok } from "../result.ts";
import { phaseTagsOf } from "../catalog/phases.ts";
import { findOrderGoods, publicBook } from "../market/public-book.ts";
import type { SpecificGoods } from "../market/specific.ts";

/**
 * How an order pays (docs/design/website-buying-routes.md#the-websites-buying-routes): `pay_method` says how the seller is paid, which is
 * what the real service's code tells a seller's tool choosing a bid; every fill pays the seller
 * into the marketplace balance, so every order reads 3 (the real code of the balance, which tools
 * read as payable). The text and channels say which of the buyer's accounts the order draws on.
 */
const PAY_METHODS = {
  any: { text: "余额+保证金", channels: ["balance", "margin"] },
  balance: { text: "余额", channels: ["balance"] },
  margin: { text: "保证金", channels: ["margin"] },
} as const;

/**
 * The public buy-order book of one goods (website route `goods/buy_order`): orders in progress
 * that still want units, best price first and the oldest of equal prices first, as they fill;
 * orders of buyers who are offline are hidden (docs/design/buy-orders.md#placing-supplying-and-cancelling).
 */
export async function readBuyOrderBook(
  ctx: DomainContext,
  input: { goodsId: number; pageNum: number; pageSize: number },
) {
  const goods = await findOrderGoods(ctx, input.goodsId);
  if (!goods) return fail("Not Found", `goods_id: no goods ${input.goodsId} in the catalog`);
  const book = publicBook(ctx.db).where("buy_orders.goods_id", "=", input.goodsId);
  const { total } = await book.select((eb) => eb.fn.countAll<string>().as("total")).executeTakeFirstOrThrow();
  const rows = await book
    .selectAll("buy_orders")
    .orderBy("buy_orders.price", "desc")
    .orderBy("buy_orders.buy_order_id")
    .limit(input.pageSize)
    .offset((input.pageNum - 1) * input.pageSize)
    .execute();
  const totalCount = Number(total);
  return ok({
    items: rows.map((row) => toBookRecord(ctx, row, goods)),
    page_num: input.pageNum,
    page_size: input.pageSize,
    total_count: totalCount,
    total_page: Math.ceil(totalCount / input.pageSize),
    show_pay_method_icon: false,
    user_infos: await readUserInfos(
      ctx,
      rows.map((row) => row.user_id),
    ),
  });
}

/**
 * One order as the public book shows it (`goods/buy_order`'s item); the `market.buy_order_*`
 * events carry the same record.
 */
export function toBookRecord(
  ctx: DomainContext,
  row: BuyOrderRow,
  goods: SpecificGoods & { icon_url: string },
) {
  const pay = PAY_METHODS[row.pay_method ?? "any"];
  return {
    id: String(row.buy_order_id),
    user_id: String(row.user_id),
    game: RECORD_GAME,
    appid: 730,
    goods_id: row.goods_id,
    icon_url: goods.icon_url,
    price: formatMoney(row.price),
    fee: formatMoney(sellerFee(row.price, ctx.rules)),
    num: row.num,
    real_num: row.real_num,
    frozen_num: row.frozen_num,
    frozen_amount: formatMoney(row.frozen_amount),
    created_at: toUnixSeconds(row.created_at),
    updated_at: toUnixSeconds(row.updated_at),
    expire_time: 0,
    allow_tradable_cooldown: row.allow_tradable_cooldown ? 1 : 0,
    tradable_cooldown: null,
    pay_expire_timeout: 0,
    pay_method: WEB_PAY_METHOD_CODES.balance,
    pay_method_text: pay.text,
    supported_pay_channels: [...pay.channels],
    specific: row.specific.map((entry) => describeSpecific(entry, goods)),
    state: row.state,
    state_text: BOOK_STATE_TEXT[row.state] ?? BOOK_STATE_TEXT.progressing!,
  };
}

/**
 * The website's words for a buy order's state. The public book lists orders in progress only; the
 * book's events (`market.buy_order_removed`) also carry orders that were filled or ended.
 */
const BOOK_STATE_TEXT: Record<string, string> = {
  progressing: "进行中",
  waiting: "等待中",
  success: "已完成",
  failed: "已失效",
};

const SPECIFIC_LABELS: Record<SpecificRow["type"], { label: string; color: string }> = {
  paintwear: { label: "磨损", color: "#4A90E2" },
  paintseed: { label: "图案模板", color: "#9B59B6" },
  fade: { label: "渐变", color: "#E67E22" },
  phase: { label: "款式", color: "#27AE60" },
};

/** A constraint as the website writes it: `磨损 0.15-0.2`, `渐变 95%-100%`, `款式 P2, 红宝石`. */
function describeSpecific(entry: SpecificRow, goods: SpecificGoods) {
  const { label, color } = SPECIFIC_LABELS[entry.type];
  let simple: string;
  if (entry.type === "paintwear") simple = `${entry.values[0]}-${entry.values[1]}`;
  else if (entry.type === "fade") simple = `${entry.values[0]}%-${entry.values[1]}%`;
  else if (entry.type === "phase") {
    const names = new Map(phaseTagsOf(goods).map((tag) => [tag.internal_name, tag.localized_name]));
    simple = entry.values.map((value) => names.get(value) ?? value).join(", ");
  } else simple = entry.values.join(", ");
  return {
    color,
    simple_text: simple,
    text: `${label} ${simple}`,
    type: entry.type,
    values: [...entry.values],
  };
}
