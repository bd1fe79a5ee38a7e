import { Command, Option } from "commander";
import { execute, positiveInteger, UsageError } from "./command-helpers.ts";

interface OrderRecord {
  id: string;
  goods_id: number;
  price: string;
  num: number;
  real_num: number;
  frozen_num: number;
  state: string;
  specific: Array<{ type: string; values: string[] }>;
}

function describeOrder(order: OrderRecord): string {
  const specific = order.specific.map((row) => ` ${row.type}=${row.values.join(",")}`).join("");
  return (
    `buy order ${order.id}: goods ${order.goods_id} at ${order.price} x ${order.num}` +
    ` (${order.real_num} delivered, ${order.frozen_num} in flight) ${order.state}${specific}`
  );
}

/** `--specific type=v1,v2`, repeatable: paintwear=0.15,0.2 paintseed=661,670 fade=95,100 phase=Ruby. */
function collectSpecific(value: string, previous: Array<{ type: string; values: string[] }> = []) {
  const match = /^(paintwear|paintseed|fade|phase)=(.+)$/.exec(value);
  if (!match)
    throw new UsageError(
      `--specific "${value}": use type=value[,value...] (paintwear, paintseed, fade, phase)`,
    );
  return [...previous, { type: match[1]!, values: match[2]!.split(",").map((part) => part.trim()) }];
}

/** `skinmarket admin buy-orders create|list|cancel`: buy orders of any user, for test worlds. */
export function addBuyOrderCommands(admin: Command): void {
  const orders = admin.command("buy-orders").description("buy orders of any user");
  orders
    .command("create <user_id>")
    .description("create a buy order for a user, as the user would; it buys crossing listings at once")
    .requiredOption("--goods-id <id>", "goods id", (value) => positiveInteger("--goods-id", value))
    .requiredOption("--price <yuan>", "price per unit, at most 2 decimals")
    .option("--num <n>", "units wanted (default 1)", (value) => positiveInteger("--num", value))
    .addOption(
      new Option("--pay-method <account>", "pay only from this account").choices(["balance", "margin"]),
    )
    .option("--specific <type=values>", "a constraint, repeatable (e.g. paintwear=0.15,0.2)", collectSpecific)
    .option("--allow-cooldown", "accept items still in trade cooldown")
    .option("--trade-url <url>", "deliver here (default: the user's account that ran platform setup)")
    .action(async function (this: Command, userId: string) {
      const options = this.opts<{
        goodsId: number;
        price: string;
        num?: number;
        payMethod?: "balance" | "margin";
        specific?: Array<{ type: "paintwear" | "paintseed" | "fade" | "phase"; values: string[] }>;
        allowCooldown?: boolean;
        tradeUrl?: string;
      }>();
      await execute(
        this,
        (client) =>
          client.createBuyOrder(userId, {
            goods_id: options.goodsId,
            price: options.price,
            num: options.num ?? 1,
            ...(options.payMethod ? { pay_method: options.payMethod } : {}),
            ...(options.specific ? { specific: options.specific } : {}),
            ...(options.allowCooldown ? { allow_tradable_cooldown: true } : {}),
            ...(options.tradeUrl ? { trade_url: options.tradeUrl } : {}),
          }),
        describeOrder,
      );
    });
  orders
    .command("list <user_id>")
    .description("a user's buy orders, newest first")
    .addOption(new Option("--state <state>").choices(["progressing", "success", "failed", "waiting"]))
    .option("--page <n>", "page number (default 1)", (value) => positiveInteger("--page", value))
    .option("--page-size <n>", "orders per page, 1-500 (default 10)", (value) =>
      positiveInteger("--page-size", value),
    )
    .action(async function (this: Command, userId: string) {
      const options = this.opts<{
        state?: "progressing" | "success" | "failed" | "waiting";
        page?: number;
        pageSize?: number;
      }>();
      await execute(
        this,
        (client) =>
          client.listBuyOrders(userId, {
            ...(options.state ? { order_state: options.state } : {}),
            ...(options.page ? { page_num: options.page } : {}),
            ...(options.pageSize ? { page_size: options.pageSize } : {}),
          }),
        (answer) =>
          [
            ...answer.items.map(describeOrder),
            `page ${answer.page_num} of ${answer.total_page}, ${answer.total_count} order(s)`,
          ].join("\n"),
      );
    });
  orders
    .command("cancel <user_id> <buy_order_id...>")
    .description("cancel buy orders of a user; units already matched finish their trades")
    .action(async function (this: Command, userId: string, ids: string[]) {
      await execute(
        this,
        (client) => client.cancelBuyOrders(userId, ids),
        (answer) =>
          Object.entries(answer)
            .map(([id, outcome]) => `${id}: ${outcome}`)
            .join("\n"),
      );
    });
}
