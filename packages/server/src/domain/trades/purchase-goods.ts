import { addMoney, moneyToNumber, parseMoney, type Fen } from "@skinmarket/contract";
import type { PayMethod, UserAccountKind } from "../../storage/schema.ts";
import { recordAudit } from "../audit.ts";
import type { DomainContext } from "../context.ts";
import { fail, invalidArgument, ok, type Result } from "../result.ts";
import { constraintName, inTransaction, sqlState } from "../transaction.ts";
import { postJournalEntry, readUserBalances } from "../wallet/ledger.ts";
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
  for (const [index, item] of input.items.entries()) {
    const maxPrice = parseMoney(item.maxPrice);
    if (!maxPrice.ok) return invalidArgument(`items.${index}.max_price`, maxPrice.reason);
    const goods = await findGoods(ctx, item);
    const key = goods ? String(goods.goods_id) : String(item.goodsId ?? item.marketHashName);
    const entry: PurchaseGoodsResult = result[key] ?? { success_num: 0, total_cost: 0, bill_order_ids: [] };
    result[key] = entry;
    if (!goods) {
      entry.msg = "no such goods in the catalog";
      continue;
    }
    if (!goods.is_standard) {
      entry.msg = "only standard goods (stickers, cases, keys, music kits, ...) can be bought in batch";
      continue;
    }
    let spent: Fen = 0;
    for (let unit = 0; unit < item.quantity; unit++) {
      const bought = await buyOneGuarded(ctx, {
        buyerId,
        goodsId: goods.goods_id,
        maxPrice: maxPrice.fen,
        payMethod: input.payMethod,
        destination: destination.value,
      });
      if (!bought.ok) {
        entry.msg = bought.failure.message;
        break;
      }
      if (bought.value.withdrawn) {
        unit -= 1;
        continue;
      }
      spent = addMoney(spent, bought.value.price);
      entry.success_num += 1;
      entry.bill_order_ids.push(String(bought.value.tradeId));
    }
    entry.total_cost = moneyToNumber(addMoney(Math.round(entry.total_cost * 100), spent));
  }
  const balances = await readUserBalances(ctx, buyerId);
  return ok({ result, market_balance: moneyToNumber(balances.balance) });
}

function pick(input: PurchaseInput) {
  return {
    ...(input.tradeUrl !== undefined ? { tradeUrl: input.tradeUrl } : {}),
    ...(input.platformid !== undefined ? { platformid: input.platformid } : {}),
  };
}

async function findGoods(ctx: DomainContext, item: PurchaseItem) {
  const query = ctx.db.selectFrom("goods").select(["goods_id", "is_standard"]);
  if (item.goodsId !== undefined) return query.where("goods_id", "=", item.goodsId).executeTakeFirst();
  if (item.marketHashName !== undefined)
    return query.where("market_hash_name", "=", item.marketHashName).executeTakeFirst();
  return undefined;
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

async function buyOne(
  ctx: DomainContext,
  input: {
    buyerId: number;
    goodsId: number;
    maxPrice: Fen;
    payMethod: PayMethod | undefined;
    destination: { tradeUrl: string; platformid: string };
  },
): Promise<Result<{ withdrawn: true } | { withdrawn: false; tradeId: number; price: Fen }>> {
  return inTransaction<{ withdrawn: true } | { withdrawn: false; tradeId: number; price: Fen }>(
    ctx,
    async (tx) => {
      const now = tx.clock.now();
      // Take the cheapest eligible listing and mark it sold in one statement; rows other buyers
      // are taking are skipped, and the state condition makes a lost race answer nothing.
      const listing = await tx.db
        .updateTable("listings")
        .set({ state: "SOLD", updated_at: now })
        .where("listing_id", "=", (eb) =>
          eb
            .selectFrom("listings as candidate")
            .select("candidate.listing_id")
            .where("candidate.goods_id", "=", input.goodsId)
            .where("candidate.state", "=", "ON_SALE")
            .where("candidate.price", "<=", input.maxPrice)
            .where("candidate.user_id", "<>", input.buyerId)
            .where("candidate.force_buyer_send_offer", "=", false)
            .where((inner) =>
              inner.or([
                inner("candidate.tradable_after", "is", null),
                inner("candidate.tradable_after", "<=", now),
              ]),
            )
            .orderBy("candidate.price")
            .orderBy("candidate.listing_id")
            .limit(1)
            .forUpdate()
            .skipLocked(),
        )
        .where("state", "=", "ON_SALE")
        .returningAll()
        .executeTakeFirst();
      if (!listing) return fail("Invalid State", "no more listings at or below max_price");
      // The seller may have traded the item away elsewhere: such a listing is withdrawn, not sold.
      const [held] = await tx.platform.findAssets(tx, { assetids: [String(listing.assetid)] });
      if (!held || held.platformid !== listing.platformid) {
        await tx.db
          .updateTable("listings")
          .set({ state: "CANCELLED", updated_at: now })
          .where("listing_id", "=", listing.listing_id)
          .execute();
        return ok({ withdrawn: true as const });
      }
      const live = await tx.db
        .selectFrom("trades")
        .select("trade_id")
        .where("assetid", "=", listing.assetid)
        .where("state", "in", ["PAYING", "SELLER_TO_SEND_OFFER", "TRADING"])
        .executeTakeFirst();
      if (live) {
        // The item is already on its way to another buyer: this listing of it is withdrawn.
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
      const paidFrom = card
        ? { bankcard: listing.price }
        : await planPayment(tx, input.buyerId, listing.price, input.payMethod);
      if (!paidFrom) return fail("Insufficient Balance", "insufficient funds for the next unit");
      if (!card) {
        const payment = await postJournalEntry(tx, {
          kind: "purchase_payment",
          reference: `listing:${listing.listing_id}`,
          lines: [
            ...Object.entries(paidFrom).map(([kind, amount]) => ({
              account: { userId: input.buyerId, kind: kind as UserAccountKind },
              amount: -amount,
            })),
            { account: { userId: input.buyerId, kind: "escrow" }, amount: listing.price },
          ],
        });
        if (!payment.ok) return payment;
      }
      const { trade_id: tradeId } = await tx.db
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
        .returning("trade_id")
        .executeTakeFirstOrThrow();
      await recordAudit(tx, {
        action: "trade.create",
        subject: `trade:${tradeId}`,
        details: { listing_id: listing.listing_id, price_fen: listing.price, paid_from: paidFrom },
      });
      return ok({ withdrawn: false as const, tradeId, price: listing.price });
    },
  );
}

/** Which accounts pay how much: the chosen one alone, or balance, then margin, then wallet. */
async function planPayment(
  ctx: DomainContext,
  buyerId: number,
  price: Fen,
  payMethod: PayMethod | undefined,
) {
  const balances = await readUserBalances(ctx, buyerId);
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
