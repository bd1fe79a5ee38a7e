import { addMoney, type Fen } from "@skinmarket/contract";
import type { PayMethod, UserAccountKind } from "../../storage/schema.ts";
import { sql } from "kysely";
import { auditRow } from "../audit.ts";
import type { DomainContext } from "../context.ts";
import { fail, ok, type Result } from "../result.ts";
import { inOneStatement, noteChangedGoods } from "../transaction.ts";
import { readUserBalances } from "../wallet/ledger.ts";
import { DELIVERY_WINDOW_MS } from "../market/delivery-window.ts";
import { noTradeUrl, notBound, resolveTradeUrl } from "./resolve-trade-url.ts";
import {
  NO_SUCH_GOODS,
  NOT_STANDARD,
  resolvePurchaseItems,
  type PurchaseItem,
} from "./resolve-purchase-items.ts";
import { refuseIfFrozen } from "../users/refuse-if-frozen.ts";

export interface PurchaseInput {
  items: PurchaseItem[];
  payMethod?: PayMethod;
  tradeUrl?: string;
  platformid?: string;
}

/** One entry's outcome; money in fen, turned into the reference's numbers at the route. */
export interface PurchaseGoodsResult {
  success_num: number;
  total_cost: Fen;
  bill_order_ids: string[];
  msg?: string;
}

/** Without `pay_method` funds are used in this order (reference: purchase/orders). */
const FALLBACK: UserAccountKind[] = ["balance", "margin", "wallet"];

const UNIT_FAILED = "the next unit failed inside the service; the units above were bought";
const NOT_TRIED = "not tried: an earlier unit failed inside the service";

/**
 * Immediate-or-cancel purchase of standard goods (reference: purchase/orders): per goods, the
 * cheapest tradable listings at or below `max_price` that are not the buyer's own and whose offer the
 * seller sends, up to `quantity`. Each unit is bought in its own transaction, one statement: the
 * listing is taken with `FOR UPDATE SKIP LOCKED`, the buyer pays into escrow, and a trade waits
 * for the seller's offer.
 *
 * The buyer's trade URL (unless `trade_url` is given) and each goods named by id are looked up by
 * the first unit's statement itself, so that a purchase of one unit is one round trip; a request
 * whose trade URL cannot be found still fails before anything is bought (the first unit writes
 * nothing then), and one that tries no unit looks the trade URL up on its own.
 *
 * No answer hides a unit bought (docs/design/purchases-and-trades.md#purchases-and-trades): the whole request is resolved before
 * the first unit, and a unit that fails unexpectedly after others were bought ends the purchase
 * with an answer naming them; only a failure before any unit was bought is thrown (a 500 that
 * frees the request's idempotency key).
 */
export async function purchaseGoods(
  ctx: DomainContext,
  input: PurchaseInput,
): Promise<Result<{ result: Record<string, PurchaseGoodsResult>; market_balance: Fen }>> {
  if (ctx.actor.kind !== "user") return fail("Unauthorized", "a user token is required");
  const buyerId = ctx.actor.userId;
  const frozen = await refuseIfFrozen(ctx, buyerId, "trading");
  if (!frozen.ok) return frozen;
  // A given trade URL is checked here; without one, the first unit finds the buyer's.
  let destination: Destination | undefined;
  if (input.tradeUrl !== undefined) {
    const given = await resolveTradeUrl(ctx, { userId: buyerId, ...pick(input) });
    if (!given.ok) return given;
    destination = given.value;
  }
  const entries = await resolvePurchaseItems(ctx, input.items);
  if (!entries.ok) {
    // A missing trade URL is answered before a bad entry, as when it was looked up first.
    const found = destination ? undefined : await resolveTradeUrl(ctx, { userId: buyerId, ...pick(input) });
    return found && !found.ok ? found : entries;
  }
  // A card payment leaves the balance as it was: read now, it answers even if the service fails.
  const balanceBefore =
    input.payMethod === "bankcard" ? (await readUserBalances(ctx, buyerId)).balance : undefined;
  const result: Record<string, PurchaseGoodsResult> = {};
  // The buyer's balance as the last payment left it; read afresh when nothing was paid from it.
  let marketBalance: Fen | undefined;
  let unitsBought = 0;
  let failedInside = false;
  for (const item of entries.value) {
    const entry: PurchaseGoodsResult = result[item.key] ?? {
      success_num: 0,
      total_cost: 0,
      bill_order_ids: [],
    };
    result[item.key] = entry;
    if (failedInside) {
      entry.msg ??= NOT_TRIED;
      continue;
    }
    if ("refusal" in item.goods) {
      entry.msg = item.goods.refusal;
      continue;
    }
    let spent: Fen = 0;
    for (let unit = 0; unit < item.quantity; unit++) {
      let bought: UnitAnswer;
      try {
        bought = await buyOne(ctx, {
          buyerId,
          goodsId: item.goods.goodsId,
          maxPrice: item.maxPrice,
          payMethod: input.payMethod,
          destination,
          platformid: input.platformid,
        });
      } catch (error) {
        if (unitsBought === 0) throw error;
        ctx.log.error({ err: error }, "a purchase's unit failed after others were bought");
        entry.msg = UNIT_FAILED;
        failedInside = true;
        break;
      }
      // Without a trade URL the first unit wrote nothing, and no unit came before it.
      if (bought.kind === "no destination") return bought.failure;
      destination = bought.destination;
      if (bought.kind === "refused") {
        entry.msg = bought.msg;
        break;
      }
      unitsBought += 1;
      spent = addMoney(spent, bought.value.price);
      entry.success_num += 1;
      entry.bill_order_ids.push(String(bought.value.tradeId));
      if (bought.value.balanceAfter !== undefined) marketBalance = bought.value.balanceAfter;
    }
    entry.total_cost = addMoney(entry.total_cost, spent);
  }
  // No unit ran (every entry refused before one): the trade URL is still checked.
  if (!destination) {
    const found = await resolveTradeUrl(ctx, { userId: buyerId, ...pick(input) });
    if (!found.ok) return found;
  }
  // After a failure inside the service, the last payment's balance (or, for card payments, the
  // balance they left untouched) answers: nothing more is asked of a service that just failed.
  marketBalance ??=
    (failedInside ? balanceBefore : undefined) ?? (await readUserBalances(ctx, buyerId)).balance;
  return ok({ result, market_balance: marketBalance });
}

function pick(input: PurchaseInput) {
  return {
    ...(input.tradeUrl !== undefined ? { tradeUrl: input.tradeUrl } : {}),
    ...(input.platformid !== undefined ? { platformid: input.platformid } : {}),
  };
}

interface Destination {
  tradeUrl: string;
  platformid: string;
}

interface UnitBought {
  tradeId: number;
  price: Fen;
  balanceAfter: Fen | undefined;
}

/**
 * A unit's answer: bought, or refused (the entry's `msg`: no listing, no money, no such goods), both
 * with the trade URL it used; or no trade URL to deliver to, which fails the request.
 */
type UnitAnswer =
  | { kind: "bought"; value: UnitBought; destination: Destination }
  | { kind: "refused"; msg: string; destination: Destination }
  | { kind: "no destination"; failure: Result<never> };

interface UnitRow {
  outcome: "bought" | "none" | "insufficient" | "no_goods" | "not_standard" | "no_account" | "no_trade_url";
  trade_id: number | null;
  price: Fen | null;
  balance_after: Fen | null;
  trade_url: string | null;
  platformid: string | null;
}

/**
 * One unit, as one statement: the database's `purchase_goods_unit` finds the buyer's trade URL
 * when none is known yet and checks the goods, takes the cheapest eligible listing, pays for it
 * from the buyer's accounts into escrow (or leaves a card payment waiting), and opens its trade,
 * or writes nothing (docs/design/performance.md#the-purchase-path says why it is a function).
 */
async function buyOne(
  ctx: DomainContext,
  input: {
    buyerId: number;
    goodsId: number;
    maxPrice: Fen;
    payMethod: PayMethod | undefined;
    destination: Destination | undefined;
    platformid: string | undefined;
  },
): Promise<UnitAnswer> {
  // A card payment is confirmed later by the card network (the trade waits in PAYING); any
  // other payment moves into escrow now, from the chosen account or in the fallback order.
  const payOrder = input.payMethod === "bankcard" ? null : input.payMethod ? [input.payMethod] : FALLBACK;
  const unit = await inOneStatement(
    ctx,
    async (tx) => {
      const audit = auditRow(tx, { action: "trade.create" });
      const { rows } = await sql<UnitRow>`
        SELECT o_outcome AS outcome, o_trade_id AS trade_id, o_price AS price,
          o_balance_after AS balance_after, o_trade_url AS trade_url, o_platformid AS platformid
        FROM purchase_goods_unit(${input.buyerId}, ${input.goodsId}, ${input.maxPrice}, ${payOrder}::text[],
          ${input.destination?.tradeUrl ?? null}::text,
          ${input.destination?.platformid ?? input.platformid ?? null}::text, ${audit.created_at},
          ${DELIVERY_WINDOW_MS}, ${audit.actor}, ${audit.request_id}::text)
      `.execute(tx.db);
      // A sale changes this goods' figures alone: the snapshots re-read it, not the whole market.
      noteChangedGoods(tx, [input.goodsId]);
      return rows[0]!;
    },
    (row) => row.outcome === "bought",
  );
  if (unit.outcome === "no_account") return { kind: "no destination", failure: notBound(input.platformid) };
  if (unit.outcome === "no_trade_url") return { kind: "no destination", failure: noTradeUrl() };
  const destination = { tradeUrl: unit.trade_url!, platformid: unit.platformid! };
  if (unit.outcome === "bought")
    return {
      kind: "bought",
      value: { tradeId: unit.trade_id!, price: unit.price!, balanceAfter: unit.balance_after ?? undefined },
      destination,
    };
  const msg = {
    none: "no more listings at or below max_price",
    insufficient: "insufficient funds for the next unit",
    no_goods: NO_SUCH_GOODS,
    not_standard: NOT_STANDARD,
  }[unit.outcome];
  return { kind: "refused", msg, destination };
}
