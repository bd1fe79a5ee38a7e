import { formatMoney } from "@skinmarket/contract";
import type { BuyOrderPayMethod } from "../../storage/schema.ts";
import { recordAudit } from "../audit.ts";
import type { DomainContext } from "../context.ts";
import { parseListingPrice } from "../market/parse-listing-price.ts";
import { fail, invalidArgument, ok, type Result } from "../result.ts";
import { inTransaction, noteChangedGoods } from "../transaction.ts";
import { resolveTradeUrl } from "../trades/resolve-trade-url.ts";
import { readUserBalances } from "../wallet/ledger.ts";
import { toBuyOrderRecords } from "./buy-order-record.ts";
import { crossBuyOrder, type BuyOrderRow } from "./match.ts";
import { findOrderGoods } from "../market/public-book.ts";
import { parseSpecific } from "../market/specific.ts";
import { refuseIfFrozen } from "../users/refuse-if-frozen.ts";

export interface CreateBuyOrderInput {
  goodsId: number;
  price: unknown;
  num: number;
  payMethod?: BuyOrderPayMethod;
  specific?: Array<{ type: string; values: string[] }>;
  allowTradableCooldown?: boolean;
  platformid?: string;
  tradeUrl?: string;
}

/**
 * Creates a buy order (docs/design/buy-orders.md#ask-first-pay-later: ask first, pay later): the funds it may use must
 * cover `price × num` now, nothing is reserved, and the order at once buys eligible listings at or
 * below its price, cheapest first. Answers the own buy order record after that.
 */
export async function createBuyOrder(
  ctx: DomainContext,
  input: CreateBuyOrderInput,
): Promise<Result<Awaited<ReturnType<typeof toBuyOrderRecords>>[number]>> {
  if (ctx.actor.kind !== "user") return fail("Unauthorized", "a user token is required");
  const userId = ctx.actor.userId;
  const frozen = await refuseIfFrozen(ctx, userId, "trading");
  if (!frozen.ok) return frozen;
  const price = parseListingPrice(input.price, ctx.rules);
  if (!price.ok) return invalidArgument("price", price.reason);
  const goods = await findOrderGoods(ctx, input.goodsId);
  if (!goods) return invalidArgument("goods_id", "no such goods in the catalog");
  const specific = parseSpecific(input.specific ?? [], goods);
  if (!specific.ok) return specific;
  const destination = await resolveTradeUrl(ctx, {
    userId,
    ...(input.tradeUrl !== undefined ? { tradeUrl: input.tradeUrl } : {}),
    ...(input.platformid !== undefined ? { platformid: input.platformid } : {}),
  });
  if (!destination.ok) return destination;

  const created = await inTransaction(ctx, async (tx) => {
    noteChangedGoods(tx, [goods.goods_id]);
    const balances = await readUserBalances(tx, userId);
    const available = input.payMethod ? balances[input.payMethod] : balances.balance + balances.margin;
    const total = price.price * input.num;
    if (available < total)
      return fail(
        "Insufficient Balance",
        `the buy order needs ${formatMoney(total)}; ${input.payMethod ?? "balance and buy-order funds"} hold ${formatMoney(available)}`,
      );
    const now = tx.clock.now();
    const order = await tx.db
      .insertInto("buy_orders")
      .values({
        user_id: userId,
        goods_id: goods.goods_id,
        price: price.price,
        num: input.num,
        pay_method: input.payMethod ?? null,
        specific: JSON.stringify(specific.value),
        allow_tradable_cooldown: input.allowTradableCooldown ?? false,
        platformid: destination.value.platformid,
        trade_url: destination.value.tradeUrl,
        state: "progressing",
        created_at: now,
        updated_at: now,
      })
      .returning("buy_order_id")
      .executeTakeFirstOrThrow();
    await recordAudit(tx, {
      action: "buy_order.create",
      subject: `buy_order:${order.buy_order_id}`,
      details: { goods_id: goods.goods_id, price_fen: price.price, num: input.num },
    });
    return ok(order.buy_order_id);
  });
  if (!created.ok) return created;
  await crossBuyOrder(ctx, created.value);
  const row = await ctx.db
    .selectFrom("buy_orders")
    .selectAll()
    .where("buy_order_id", "=", created.value)
    .executeTakeFirstOrThrow();
  return ok((await toBuyOrderRecords(ctx, [row as BuyOrderRow]))[0]!);
}
