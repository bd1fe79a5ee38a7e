import { addMoney, moneyToNumber, parseMoney, type Fen } from "@skinmarket/contract";
import type { PayMethod, UserAccountKind } from "../../storage/schema.ts";
import { sql } from "kysely";
import { auditRow } from "../audit.ts";
import type { DomainContext } from "../context.ts";
import { fail, invalidArgument, ok, type Result } from "../result.ts";
import { constraintName, inTransaction, sqlState } from "../transaction.ts";
import { lockUserAccounts, postJournalEntry, readUserBalances, type UserBalances } from "../wallet/ledger.ts";
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

/** The seller's delivery time: the offer must be sent within 12 hours (docs/design.md section 6). */
export const DELIVERY_WINDOW_MS = 12 * 3600 * 1000;
/** Without `pay_method` funds are used in this order (reference: purchase/orders). */
const FALLBACK: UserAccountKind[] = ["balance", "margin", "wallet"];

/**
 * Immediate-or-cancel purchase of standard goods (reference: purchase/orders): per goods, the
 * cheapest tradable listings at or below `max_price` that are not the buyer's own and whose offer the
 * seller sends, up to `quantity`. Each unit is bought in its own transaction: the listing is
 * taken with `FOR UPDATE SKIP LOCKED` and a conditional update, the buyer pays into escrow, and a
 * trade waits for the seller's offer.
 */
export async function purchaseGoods(
  ctx: DomainContext,
  input: PurchaseInput,
): Promise<Result<{ result: Record<string, PurchaseGoodsResult>; market_balance: number }>> {
  if (ctx.actor.kind !== "user") return fail("Unauthorized", "a user token is required");
  const buyerId = ctx.actor.userId;
  const destination = await resolveTradeUrl(ctx, { userId: buyerId, ...pick(input) });
  if (!destination.ok) return destination;
  const result: Record<string, PurchaseGoodsResult> = {};
  // The buyer's balance as the last payment left it; read afresh when nothing was paid from it.
  let marketBalance: Fen | undefined;
  for (const [index, item] of input.items.entries()) {
    const maxPrice = parseMoney(item.maxPrice);
    if (!maxPrice.ok) return invalidArgument(`items.${index}.max_price`, maxPrice.reason);
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
        maxPrice: maxPrice.fen,
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
      if (bought.value.withdrawn) {
        unit -= 1;
        continue;
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

/** The unique index on live trades per asset is the backstop of the check inside buyOne. */
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

type UnitBought =
  { withdrawn: true } | { withdrawn: false; tradeId: number; price: Fen; balanceAfter: Fen | undefined };

const LIVE_TRADE_STATES = ["PAYING", "SELLER_TO_SEND_OFFER", "TRADING"] as const;

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
  return inTransaction<UnitBought>(ctx, async (tx) => {
    const now = tx.clock.now();
    // Take the cheapest eligible listing of a standard goods and mark it sold in one statement;
    // rows other buyers are taking are skipped, and the state condition makes a lost race answer
    // nothing. The statement also tells whether the item is already in a live trade. Constants are
    // literals so that the statement's cached plan can use the partial index of listings on sale.
    const listing = await tx.db
      .updateTable("listings")
      .set({ state: "SOLD", updated_at: now })
      .where("listing_id", "=", (eb) =>
        eb
          .selectFrom("listings as candidate")
          .select("candidate.listing_id")
          .where("candidate.goods_id", "=", input.goodsId)
          .where("candidate.state", "=", sql.lit("ON_SALE"))
          .where("candidate.price", "<=", input.maxPrice)
          .where("candidate.user_id", "<>", input.buyerId)
          .where("candidate.force_buyer_send_offer", "=", sql.lit(false))
          .where((inner) =>
            inner.or([
              inner("candidate.tradable_after", "is", null),
              inner("candidate.tradable_after", "<=", now),
            ]),
          )
          .where((inner) =>
            inner.exists(
              inner
                .selectFrom("goods")
                .select("goods.goods_id")
                .where("goods.goods_id", "=", input.goodsId)
                .where("goods.is_standard", "=", sql.lit(true)),
            ),
          )
          .orderBy("candidate.price")
          .orderBy("candidate.listing_id")
          .limit(1)
          .forUpdate()
          .skipLocked(),
      )
      .where("state", "=", "ON_SALE")
      .returningAll()
      .returning((eb) =>
        eb
          .exists(
            eb
              .selectFrom("trades")
              .select("trades.trade_id")
              .whereRef("trades.assetid", "=", "listings.assetid")
              .where("trades.state", "in", LIVE_TRADE_STATES),
          )
          .as("in_live_trade"),
      )
      .executeTakeFirst();
    if (!listing) return fail("Invalid State", "no more listings at or below max_price");
    // The seller may have traded the item away elsewhere, or it may already be on its way to
    // another buyer: such a listing is withdrawn, not sold.
    const [held] = listing.in_live_trade
      ? []
      : await tx.platform.findAssets(tx, { assetids: [String(listing.assetid)] });
    if (!held || held.platformid !== listing.platformid) {
      await tx.db
        .updateTable("listings")
        .set({ state: "CANCELLED", updated_at: now })
        .where("listing_id", "=", listing.listing_id)
        .execute();
      return ok({ withdrawn: true as const });
    }
    // A card payment is confirmed later by the card network (the trade waits in PAYING); any
    // other payment moves into escrow now.
    const card = input.payMethod === "bankcard";
    let balanceAfter: Fen | undefined;
    let paidFrom: Partial<Record<UserAccountKind | "bankcard", Fen>> = { bankcard: listing.price };
    if (!card) {
      const buyer = await lockUserAccounts(tx, input.buyerId);
      const plan = planPayment(buyer.balances, listing.price, input.payMethod);
      if (!plan) return fail("Insufficient Balance", "insufficient funds for the next unit");
      const payment = await postJournalEntry(
        tx,
        {
          kind: "purchase_payment",
          reference: `listing:${listing.listing_id}`,
          lines: [
            ...Object.entries(plan).map(([kind, amount]) => ({
              account: { userId: input.buyerId, kind: kind as UserAccountKind },
              amount: -amount,
            })),
            { account: { userId: input.buyerId, kind: "escrow" }, amount: listing.price },
          ],
        },
        buyer.accounts,
      );
      if (!payment.ok) return payment;
      paidFrom = plan;
      balanceAfter = buyer.balances.balance - (plan.balance ?? 0);
    }
    // The trade and its audit row in one statement.
    const audit = auditRow(tx, {
      action: "trade.create",
      details: { listing_id: listing.listing_id, price_fen: listing.price, paid_from: paidFrom },
    });
    const { trade_id: tradeId } = await tx.db
      .with("trade", (db) =>
        db
          .insertInto("trades")
          .values({
            listing_id: listing.listing_id,
            buyer_id: input.buyerId,
            seller_id: listing.user_id,
            goods_id: listing.goods_id,
            assetid: listing.assetid,
            seller_platformid: listing.platformid,
            buyer_platformid: input.destination.platformid,
            buyer_trade_url: input.destination.tradeUrl,
            price: listing.price,
            fee: listing.fee,
            pay_method: input.payMethod ?? (Object.keys(paidFrom)[0] as PayMethod),
            paid_from: JSON.stringify(paidFrom),
            state: card ? "PAYING" : "SELLER_TO_SEND_OFFER",
            asset: JSON.stringify(listing.asset),
            deliver_by: card ? null : new Date(now.getTime() + DELIVERY_WINDOW_MS),
            created_at: now,
            updated_at: now,
          })
          .returning("trade_id"),
      )
      .with("audit", (db) =>
        db
          .insertInto("audit_events")
          .columns(["created_at", "actor", "action", "subject", "details", "request_id"])
          .expression((eb) =>
            eb
              .selectFrom("trade")
              .select([
                sql<Date>`${audit.created_at}::timestamptz`.as("created_at"),
                sql<string>`${audit.actor}::text`.as("actor"),
                sql<string>`${audit.action}::text`.as("action"),
                sql<string>`'trade:' || trade.trade_id`.as("subject"),
                sql<string>`${audit.details}::jsonb`.as("details"),
                sql<string | null>`${audit.request_id}::text`.as("request_id"),
              ]),
          ),
      )
      .selectFrom("trade")
      .select("trade_id")
      .executeTakeFirstOrThrow();
    return ok({ withdrawn: false as const, tradeId, price: listing.price, balanceAfter });
  });
}

/** Which accounts pay how much: the chosen one alone, or balance, then margin, then wallet. */
function planPayment(balances: UserBalances, price: Fen, payMethod: PayMethod | undefined) {
  const order = payMethod ? [payMethod as UserAccountKind] : FALLBACK;
  const plan: Partial<Record<UserAccountKind, Fen>> = {};
  let remaining = price;
  for (const kind of order) {
    const take = Math.min(balances[kind], remaining);
    if (take > 0) plan[kind] = take;
    remaining -= take;
  }
  return remaining === 0 ? plan : undefined;
}
