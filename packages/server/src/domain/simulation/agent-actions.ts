import { formatMoney } from "@skinmarket/contract";
import { sql } from "kysely";
import type { OffsetClock } from "../clock.ts";
import type { DomainContext } from "../context.ts";
import type { Result } from "../result.ts";
import { fundAccount } from "../wallet/fund-account.ts";
import { readUserBalances } from "../wallet/ledger.ts";
import type { AgentVerbs } from "./agent-verbs.ts";
import type { SandboxHands } from "./sandbox-hands.ts";
import type { SimulatedGoods, SimulationAgent, SimulationState } from "./simulation-state.ts";

/** What a step needs besides its state: an admin context, the sandbox's clock and its verbs. */
export interface SimulationEnvironment {
  /** A context whose actor is the sandbox admin; agents act with copies whose actor is themselves. */
  ctx: DomainContext;
  clock: OffsetClock;
  hands: SandboxHands;
  /** How agents act; the domain verbs directly unless given (the benchmark sends them over HTTP). */
  verbs?: AgentVerbs;
}

export type Env = SimulationEnvironment & { verbs: AgentVerbs };

/** One thing an agent did, as tests compare and `status` counts it (no ids: they differ between worlds). */
export interface SimulationAction {
  type: string;
  agent: string;
  goodsId?: number;
  /** The price asked, bid or paid at most, in fen. */
  price?: number;
  /** "OK" or why the verb refused. */
  outcome: string;
}

/** A quote moves when it is this far from where the maker wants it. */
const REQUOTE_TOLERANCE = 0.01;
/** A quote within the tolerance of where the maker wants it stays, and says so. */
function holds(
  agent: SimulationAgent,
  goods: SimulatedGoods,
  quoted: number,
  wanted: number,
  actions: SimulationAction[],
): boolean {
  if (Math.abs(quoted - wanted) > wanted * REQUOTE_TOLERANCE) return false;
  actions.push({ type: "hold", agent: agent.name, goodsId: goods.goodsId, price: quoted, outcome: "OK" });
  return true;
}

/** A maker quotes both sides of one goods around its fair value. */
export async function quoteGoods(
  env: Env,
  state: SimulationState,
  agent: SimulationAgent,
  goods: SimulatedGoods,
  actions: SimulationAction[],
): Promise<void> {
  const half = state.behaviour.spread / 2;
  await quoteAsk(env, agent, goods, Math.round(goods.fair * (1 + half)), actions);
  await quoteBid(env, agent, goods, Math.max(3, Math.round(goods.fair * (1 - half))), actions);
}

async function quoteAsk(
  env: Env,
  agent: SimulationAgent,
  goods: SimulatedGoods,
  price: number,
  actions: SimulationAction[],
): Promise<void> {
  const listing = await env.ctx.db
    .selectFrom("listings")
    .select(["listing_id", "price"])
    .where("user_id", "=", agent.userId)
    .where("goods_id", "=", goods.goodsId)
    .where("state", "=", sql.lit("ON_SALE"))
    .orderBy("listing_id")
    .executeTakeFirst();
  if (listing) {
    if (holds(agent, goods, listing.price, price, actions)) return;
    const outcome = await env.verbs.reprice(agent, listing.listing_id, price);
    actions.push({ type: "reprice", agent: agent.name, goodsId: goods.goodsId, price, outcome });
    return;
  }
  let [asset] = await env.hands.listableAssets(env.ctx, {
    platformid: agent.platformid,
    goodsIds: [goods.goodsId],
    limit: 1,
  });
  if (!asset) {
    // A maker's stock comes from outside the market (drops, cases opened): the sandbox grants it.
    const granted = await env.hands.grantItems(env.ctx, {
      platformid: agent.platformid,
      goodsId: goods.goodsId,
      count: 3,
    });
    actions.push({ type: "restock", agent: agent.name, goodsId: goods.goodsId, outcome: outcomeOf(granted) });
    [asset] = await env.hands.listableAssets(env.ctx, {
      platformid: agent.platformid,
      goodsIds: [goods.goodsId],
      limit: 1,
    });
    if (!asset) return;
  }
  await list(env, agent, asset, price, actions);
}

export async function list(
  env: Env,
  agent: SimulationAgent,
  asset: { assetid: string; goodsId: number },
  price: number,
  actions: SimulationAction[],
): Promise<void> {
  const outcome = await env.verbs.list(agent, asset.assetid, price);
  actions.push({ type: "list", agent: agent.name, goodsId: asset.goodsId, price, outcome });
}

async function quoteBid(
  env: Env,
  agent: SimulationAgent,
  goods: SimulatedGoods,
  price: number,
  actions: SimulationAction[],
): Promise<void> {
  const order = await env.ctx.db
    .selectFrom("buy_orders")
    .select(["buy_order_id", "price"])
    .where("user_id", "=", agent.userId)
    .where("goods_id", "=", goods.goodsId)
    .where("state", "=", sql.lit("progressing"))
    .orderBy("buy_order_id")
    .executeTakeFirst();
  if (order) {
    if (holds(agent, goods, order.price, price, actions)) return;
    actions.push({
      type: "cancel_bid",
      agent: agent.name,
      goodsId: goods.goodsId,
      price: order.price,
      outcome: await env.verbs.cancelBid(agent, order.buy_order_id),
    });
  }
  await bid(env, agent, goods.goodsId, price, 1, actions);
}

export async function bid(
  env: Env,
  agent: SimulationAgent,
  goodsId: number,
  price: number,
  num: number,
  actions: SimulationAction[],
): Promise<void> {
  await ensureFunds(env, agent, price * num, actions);
  const outcome = await env.verbs.bid(agent, goodsId, price, num);
  actions.push({ type: "bid", agent: agent.name, goodsId, price, outcome });
}

/** An agent short of money is topped up from outside (the sandbox's deposit), as a trader would. */
export async function ensureFunds(
  env: Env,
  agent: SimulationAgent,
  needed: number,
  actions: SimulationAction[],
): Promise<void> {
  const balances = await readUserBalances(env.ctx, agent.userId);
  if (balances.balance >= needed * 2) return;
  const amount = Math.max(100_000, needed * 10);
  const funded = await fundAccount(env.ctx, {
    userId: agent.userId,
    account: "balance",
    amount: formatMoney(amount),
  });
  actions.push({ type: "deposit", agent: agent.name, price: amount, outcome: outcomeOf(funded) });
}

export async function buy(
  env: Env,
  agent: SimulationAgent,
  type: string,
  goodsId: number,
  maxPrice: number,
  actions: SimulationAction[],
): Promise<void> {
  await ensureFunds(env, agent, maxPrice, actions);
  const outcome = await env.verbs.buy(agent, goodsId, maxPrice);
  actions.push({ type, agent: agent.name, goodsId, price: maxPrice, outcome });
}
export function outcomeOf(result: Result<unknown>): string {
  return result.ok ? "OK" : result.failure.message;
}
