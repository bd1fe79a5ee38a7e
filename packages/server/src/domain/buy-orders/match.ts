import type { Fen } from "@skinmarket/contract";
import type { Selectable } from "kysely";
import type { BuyOrdersTable, Database, UserAccountKind } from "../../storage/schema.ts";
import { recordAudit } from "../audit.ts";
import { listingMeets } from "../market/listing-meets.ts";
import type { DomainContext } from "../context.ts";
import { sellerFee } from "../market/seller-fee.ts";
import { fail, ok, type Result } from "../result.ts";
import { inTransaction, noteChangedGoods } from "../transaction.ts";
import { openTrade, payIntoEscrow, type SoldListing } from "../trades/open-trade.ts";
import { takeableByBuyOrder } from "../market/listing-takeable.ts";
import { takeCheapestListing } from "../market/take-cheapest-listing.ts";
import { findOrderGoods, noteBuyerOrdersChanged, publicBook } from "../market/public-book.ts";
import { meetsFilter, specificFilter } from "../market/specific.ts";

export type BuyOrderRow = Selectable<BuyOrdersTable>;

/** Buy orders pay from marketplace balance, then buy-order funds (docs/design/buy-orders.md#placing-supplying-and-cancelling). */
const BUY_ORDER_FUNDS: readonly UserAccountKind[] = ["balance", "margin"];

/** Units an order still wants: neither delivered nor on their way. */
export function remainingUnits(order: Pick<BuyOrderRow, "num" | "real_num" | "frozen_num">): number {
  return order.num - order.real_num - order.frozen_num;
}

/** An order's goods: it exists, as the order's foreign key holds. */
async function goodsOf(ctx: DomainContext, goodsId: number) {
  return (await findOrderGoods(ctx, goodsId))!;
}

type FillOutcome =
  | { kind: "filled"; tradeId: number; listingId: number }
  | { kind: "nothing" }
  | { kind: "withdrawn" }
  | { kind: "cannot pay"; orderId: number; reason: string }
  | { kind: "order closed" };

/**
 * The buy order takes eligible listings, cheapest first, at each listing's price, until it wants
 * no more units, none is left, or its owner cannot pay (which cancels the order). Each unit is
 * its own transaction. Answers the trades opened.
 */
export async function crossBuyOrder(ctx: DomainContext, orderId: number): Promise<number[]> {
  const trades: number[] = [];
  for (;;) {
    const outcome = await guarded(
      () =>
        inTransaction<FillOutcome>(ctx, async (tx) => {
          const order = await lockOrder(tx, orderId);
          noteChangedGoods(tx, order ? [order.goods_id] : []);
          if (!order || !(await canFill(tx, order))) return ok({ kind: "order closed" as const });
          const goods = await goodsOf(tx, order.goods_id);
          const filter = specificFilter(order.specific, goods);
          const listing = await takeCheapestListing(tx, {
            goodsId: order.goods_id,
            maxPrice: order.price,
            buyerId: order.user_id,
            allowCooldown: order.allow_tradable_cooldown,
            also: (eb) => listingMeets(eb, filter, "open"),
          });
          if (!listing) return ok({ kind: "nothing" as const });
          return fill(tx, order, listing, listing.price);
        }),
      () => orderId,
    );
    if (outcome.kind === "filled") trades.push(outcome.tradeId);
    else if (outcome.kind === "cannot pay") await cancelForFunds(ctx, outcome.orderId, outcome.reason);
    else if (outcome.kind !== "withdrawn") return trades;
  }
}

/**
 * A listing just put on sale (or repriced) fills the best eligible buy order at the buy order's
 * price: highest price first, then the oldest. An order whose owner cannot pay is cancelled and
 * the next one tried. Answers the trade opened, if any.
 */
export async function crossListing(ctx: DomainContext, listingId: number): Promise<number | undefined> {
  const tried = new Set<number>();
  let attempted = 0;
  for (;;) {
    const outcome = await guarded(
      () =>
        inTransaction<FillOutcome>(ctx, async (tx) => {
          const now = tx.clock.now();
          const listing = await tx.db
            .selectFrom("listings")
            .selectAll()
            .where("listing_id", "=", listingId)
            .where("state", "=", "ON_SALE")
            .forUpdate()
            .executeTakeFirst();
          noteChangedGoods(tx, listing ? [listing.goods_id] : []);
          if (!listing) return ok({ kind: "nothing" as const });
          const chosen = await bestEligibleOrder(tx, listing, tried);
          if (!chosen) return ok({ kind: "nothing" as const });
          attempted = chosen.buy_order_id;
          const order = await lockOrder(tx, chosen.buy_order_id);
          if (!order || !(await canFill(tx, order))) return ok({ kind: "withdrawn" as const });
          await tx.db
            .updateTable("listings")
            .set({ state: "SOLD", updated_at: now })
            .where("listing_id", "=", listing.listing_id)
            .execute();
          return fill(tx, order, listing, order.price);
        }),
      () => attempted,
    );
    if (outcome.kind === "filled") return outcome.tradeId;
    // Only a settled attempt rules its order out: a transaction run again after a lost race
    // (40001, 40P01) must consider the same order again.
    tried.add(attempted);
    if (outcome.kind === "cannot pay") await cancelForFunds(ctx, outcome.orderId, outcome.reason);
    else if (outcome.kind !== "withdrawn") return undefined;
  }
}

/**
 * The best order a listed item can fill, in price-time order, reading the book a page at a time:
 * an order whose owner may take the listing (`listingTakeable`, the order's price its cap and its
 * cooldown allowance), and the `specific` constraints checked on each order, so the best eligible
 * one may sit behind any number of better-priced orders that want other items. The price range
 * narrows the book's read by its index; the rule itself is the function's.
 */
async function bestEligibleOrder(
  tx: DomainContext,
  listing: Selectable<Database["listings"]>,
  tried: ReadonlySet<number>,
): Promise<BuyOrderRow | undefined> {
  const goods = await goodsOf(tx, listing.goods_id);
  const now = tx.clock.now();
  let after: { price: number; id: number } | undefined;
  for (;;) {
    const page = await publicBook(tx.db)
      .innerJoin("listings", (join) => join.on("listings.listing_id", "=", listing.listing_id))
      .selectAll("buy_orders")
      .where("buy_orders.goods_id", "=", listing.goods_id)
      .where("buy_orders.price", ">=", listing.price)
      .where(takeableByBuyOrder(now))
      .$if(after !== undefined, (query) =>
        query.where((eb) =>
          eb.or([
            eb("buy_orders.price", "<", after!.price),
            eb.and([
              eb("buy_orders.price", "=", after!.price),
              eb("buy_orders.buy_order_id", ">", after!.id),
            ]),
          ]),
        ),
      )
      .orderBy("buy_orders.price", "desc")
      .orderBy("buy_orders.buy_order_id")
      .limit(BOOK_PAGE)
      .execute();
    const chosen = page.find(
      (order) =>
        !tried.has(order.buy_order_id) && meetsFilter(specificFilter(order.specific, goods), listing),
    );
    if (chosen || page.length < BOOK_PAGE) return chosen;
    const last = page[page.length - 1]!;
    after = { price: last.price, id: last.buy_order_id };
  }
}

const BOOK_PAGE = 100;

/**
 * Fills one unit of a locked buy order with a listing already marked sold in this transaction:
 * the listing commits the seller's item, so the item is in no other trade (docs/design/domain-model.md#the-commitment-rule-for-items), and an item that left the seller's account has had its listing withdrawn by the platform
 * already. The buyer pays the price into escrow, and a trade waits for the seller's offer.
 */
export async function fill(
  tx: DomainContext,
  order: BuyOrderRow,
  listing: SoldListing & { price: Fen },
  price: Fen,
): Promise<Result<{ kind: "filled"; tradeId: number; listingId: number }>> {
  const paid = await payIntoEscrow(tx, {
    buyerId: order.user_id,
    price,
    order: order.pay_method ? [order.pay_method] : BUY_ORDER_FUNDS,
    reference: `buy_order:${order.buy_order_id}`,
  });
  if (!paid.ok) {
    // Rolls this unit back; the order is then cancelled for want of funds.
    return paid;
  }
  // The buyer's accounts are now locked, so the buyer's fills take turns: one that turned the
  // buyer offline (automatic offline, or by hand) is seen here, and this fill rolls back.
  const owner = await tx.db
    .selectFrom("users")
    .select("buy_order_status")
    .where("user_id", "=", order.user_id)
    .executeTakeFirstOrThrow();
  if (owner.buy_order_status !== "online") return fail("Invalid State", "the buyer went offline");
  const tradeId = await openTrade(tx, {
    listing,
    buyerId: order.user_id,
    destination: { tradeUrl: order.trade_url, platformid: order.platformid },
    price,
    fee: sellerFee(price, tx.rules),
    payMethod: order.pay_method ?? (Object.keys(paid.value.paidFrom)[0] as "balance" | "margin"),
    paidFrom: paid.value.paidFrom,
    buyOrderId: order.buy_order_id,
  });
  await tx.db
    .updateTable("buy_orders")
    .set((eb) => ({
      frozen_num: eb("frozen_num", "+", 1),
      frozen_amount: eb("frozen_amount", "+", price),
      updated_at: tx.clock.now(),
    }))
    .where("buy_order_id", "=", order.buy_order_id)
    .execute();
  // With automatic offline the owner's orders stop filling after this one, and leave the book.
  const offline = await tx.db
    .updateTable("users")
    .set({ buy_order_status: "offline" })
    .where("user_id", "=", order.user_id)
    .where("buy_order_auto_offline", "=", true)
    .executeTakeFirst();
  if (Number(offline.numUpdatedRows) > 0) await noteBuyerOrdersChanged(tx, order.user_id);
  return ok({ kind: "filled" as const, tradeId, listingId: listing.listing_id });
}

export async function lockOrder(tx: DomainContext, orderId: number): Promise<BuyOrderRow | undefined> {
  return tx.db
    .selectFrom("buy_orders")
    .selectAll()
    .where("buy_order_id", "=", orderId)
    .forUpdate()
    .executeTakeFirst();
}

/** A locked order fills while it is in progress, wants units and its owner is online. */
export async function canFill(tx: DomainContext, order: BuyOrderRow): Promise<boolean> {
  if (order.state !== "progressing" || remainingUnits(order) <= 0) return false;
  const owner = await tx.db
    .selectFrom("users")
    .select("buy_order_status")
    .where("user_id", "=", order.user_id)
    .executeTakeFirstOrThrow();
  return owner.buy_order_status === "online";
}

/** An owner who cannot pay for a fill loses the order (docs/design/buy-orders.md#ask-first-pay-later). */
export async function cancelForFunds(ctx: DomainContext, orderId: number, reason: string): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const closed = await tx.db
      .updateTable("buy_orders")
      .set({ state: "failed", fail_reason: reason, updated_at: tx.clock.now() })
      .where("buy_order_id", "=", orderId)
      .where("state", "=", "progressing")
      .returning(["buy_order_id", "goods_id"])
      .executeTakeFirst();
    noteChangedGoods(tx, closed ? [closed.goods_id] : []);
    if (closed)
      await recordAudit(tx, {
        action: "buy_order.cancel",
        subject: `buy_order:${orderId}`,
        details: { reason },
      });
    return ok(undefined);
  });
}

/**
 * A unit's transaction that failed for want of funds (rolled back) is answered as "cannot pay" for
 * the order it tried.
 */
async function guarded(run: () => Promise<Result<FillOutcome>>, orderId: () => number): Promise<FillOutcome> {
  const result = await run();
  if (result.ok) return result.value;
  if (result.failure.code === "Insufficient Balance")
    return { kind: "cannot pay", orderId: orderId(), reason: "insufficient funds to pay for a fill" };
  // The buyer went offline while this fill waited its turn: the next order may fill.
  if (result.failure.code === "Invalid State") return { kind: "withdrawn" };
  throw new Error(`unexpected fill failure: ${result.failure.message}`);
}
