import { addMoney, moneyToNumber, parseMoney, type Fen } from "@skinmarket/contract";
import type { PayMethod, UserAccountKind } from "../../storage/schema.ts";
import { sql } from "kysely";
import { auditRow } from "../audit.ts";
import type { DomainContext } from "../context.ts";
import { fail, invalidArgument, ok, type Result } from "../result.ts";
import { constraintName, inOneStatement, sqlState } from "../transaction.ts";
import { readUserBalances } from "../wallet/ledger.ts";
import { DELIVERY_WINDOW_MS } from "./open-trade.ts";
import { resolveTradeUrl } from "./resolve-trade-url.ts";

export interface PurchaseItem {
  goodsId?: number;
  marketHashName?: string;
  maxPrice: unknown;
  quantity: number;
}

export interface PurchaseInput {
  items: PurchaseItem[];
  payMethod?: PayMethod;
  tradeUrl?: string;
  platformid?: string;
}

export interface PurchaseGoodsResult {
  success_num: number;
  total_cost: number;
  bill_order_ids: string[];
  msg?: string;
}

/** Without `pay_method` funds are used in this order (reference: purchase/orders). */
const FALLBACK: UserAccountKind[] = ["balance", "margin", "wallet"];

/**
 * Immediate-or-cancel purchase of standard goods (reference: purchase/orders): per goods, the
 * cheapest tradable listings at or below `max_price` that are not the buyer's own and whose offer the
 * seller sends, up to `quantity`. Each unit is bought in its own transaction, one statement: the
 * listing is taken with `FOR UPDATE SKIP LOCKED`, the buyer pays into escrow, and a trade waits
 * for the seller's offer.
 */
export async function purchaseGoods(
  ctx: DomainContext,
  input: PurchaseInput,
): Promise<Result<{ result: Record<string, PurchaseGoodsResult>; market_balance: number }>> {
  if (ctx.actor.kind !== "user") return fail("Unauthorized", "a user token is required");
  const buyerId = ctx.actor.userId;
  const destination = await resolveTradeUrl(ctx, { userId: buyerId, ...pick(input) });
  if (!destination.ok) return destination;
  // Every item is checked before any is bought: a refusal never follows a purchase.
  const maxPrices: Fen[] = [];
  for (const [index, item] of input.items.entries()) {
    const maxPrice = parseMoney(item.maxPrice);
    if (!maxPrice.ok) return invalidArgument(`items.${index}.max_price`, maxPrice.reason);
    maxPrices.push(maxPrice.fen);
  }
  const result: Record<string, PurchaseGoodsResult> = {};
  // The buyer's balance as the last payment left it; read afresh when nothing was paid from it.
  let marketBalance: Fen | undefined;
  for (const [index, item] of input.items.entries()) {
    const goodsId = item.goodsId ?? (await findGoods(ctx, item))?.goods_id;
    const key = String(goodsId ?? item.goodsId ?? item.marketHashName);
    const entry: PurchaseGoodsResult = result[key] ?? { success_num: 0, total_cost: 0, bill_order_ids: [] };
    result[key] = entry;
    if (goodsId === undefined) {
      entry.msg = NO_SUCH_GOODS;
      continue;
    }
    let spent: Fen = 0;
    for (let unit = 0; unit < item.quantity; unit++) {
      const bought = await buyOneGuarded(ctx, {
        buyerId,
        goodsId,
        maxPrice: maxPrices[index]!,
        payMethod: input.payMethod,
        destination: destination.value,
      });
      if (!bought.ok) {
        // Only standard goods have listings a purchase takes; say why when there were none.
        entry.msg =
          entry.success_num === 0 && bought.failure.code === "Invalid State"
            ? await whyNothingToBuy(ctx, goodsId, bought.failure.message)
            : bought.failure.message;
        break;
      }
      spent = addMoney(spent, bought.value.price);
      entry.success_num += 1;
      entry.bill_order_ids.push(String(bought.value.tradeId));
      if (bought.value.balanceAfter !== undefined) marketBalance = bought.value.balanceAfter;
    }
    entry.total_cost = moneyToNumber(addMoney(Math.round(entry.total_cost * 100), spent));
  }
  marketBalance ??= (await readUserBalances(ctx, buyerId)).balance;
  return ok({ result, market_balance: moneyToNumber(marketBalance) });
}

const NO_SUCH_GOODS = "no such goods in the catalog";

function pick(input: PurchaseInput) {
  return {
    ...(input.tradeUrl !== undefined ? { tradeUrl: input.tradeUrl } : {}),
    ...(input.platformid !== undefined ? { platformid: input.platformid } : {}),
  };
}

async function findGoods(ctx: DomainContext, item: PurchaseItem) {
  if (item.marketHashName === undefined) return undefined;
  return ctx.db
    .selectFrom("goods")
    .select("goods_id")
    .where("market_hash_name", "=", item.marketHashName)
    .executeTakeFirst();
}

async function whyNothingToBuy(ctx: DomainContext, goodsId: number, otherwise: string): Promise<string> {
  const goods = await ctx.db
    .selectFrom("goods")
    .select("is_standard")
    .where("goods_id", "=", goodsId)
    .executeTakeFirst();
  if (!goods) return NO_SUCH_GOODS;
  if (!goods.is_standard)
    return "only standard goods (stickers, cases, keys, music kits, ...) can be bought in batch";
  return otherwise;
}

/** The unique index on live trades per asset is the backstop of the check inside purchase_unit. */
async function buyOneGuarded(
  ctx: DomainContext,
  input: Parameters<typeof buyOne>[1],
): ReturnType<typeof buyOne> {
  try {
    return await buyOne(ctx, input);
  } catch (error) {
    if (sqlState(error) === "23505" && constraintName(error) === "trades_one_live_per_asset") {
      return fail("Invalid State", "the listing's item was sold at the same moment; try again");
    }
    throw error;
  }
}

interface UnitBought {
  tradeId: number;
  price: Fen;
  balanceAfter: Fen | undefined;
}

interface UnitRow {
  outcome: "bought" | "none" | "insufficient";
  trade_id: number | null;
  price: Fen | null;
  balance_after: Fen | null;
  withdrawn: number;
}

/**
 * One unit, as one statement: the database's `purchase_unit` takes the cheapest eligible listing,
 * pays for it from the buyer's accounts into escrow (or leaves a card payment waiting), and opens
 * its trade, or writes nothing (docs/design.md section 12 says why it is a function).
 */
async function buyOne(
  ctx: DomainContext,
  input: {
    buyerId: number;
    goodsId: number;
    maxPrice: Fen;
    payMethod: PayMethod | undefined;
    destination: { tradeUrl: string; platformid: string };
  },
): Promise<Result<UnitBought>> {
  // A card payment is confirmed later by the card network (the trade waits in PAYING); any
  // other payment moves into escrow now, from the chosen account or in the fallback order.
  const payOrder = input.payMethod === "bankcard" ? null : input.payMethod ? [input.payMethod] : FALLBACK;
  const unit = await inOneStatement(
    ctx,
    async (tx) => {
      const audit = auditRow(tx, { action: "trade.create" });
      const { rows } = await sql<UnitRow>`
        SELECT o_outcome AS outcome, o_trade_id AS trade_id, o_price AS price,
          o_balance_after AS balance_after, o_withdrawn AS withdrawn
        FROM purchase_unit(${input.buyerId}, ${input.goodsId}, ${input.maxPrice}, ${payOrder}::text[],
          ${input.destination.tradeUrl}, ${input.destination.platformid}, ${audit.created_at},
          ${DELIVERY_WINDOW_MS}, ${audit.actor}, ${audit.request_id}::text)
      `.execute(tx.db);
      return rows[0]!;
    },
    (row) => row.outcome === "bought" || row.withdrawn > 0,
  );
  if (unit.outcome === "none") return fail("Invalid State", "no more listings at or below max_price");
  if (unit.outcome === "insufficient")
    return fail("Insufficient Balance", "insufficient funds for the next unit");
  return ok({ tradeId: unit.trade_id!, price: unit.price!, balanceAfter: unit.balance_after ?? undefined });
}
