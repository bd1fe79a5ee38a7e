import { sql } from "kysely";
import { DemoRandom, hash32 } from "./demo-random.ts";
import { readGoodsPrices } from "../market/read-goods-prices.ts";
import { advanceClock } from "../sandbox/advance-clock.ts";
import { syncTrades } from "../trades/sync-trades.ts";
import { directVerbs } from "./agent-verbs.ts";
import { walkFairValues } from "./fair-values.ts";
import { STEAM_STEP_STREAM, walkSteamPrices } from "./steam-market-walk.ts";
import { advanceScenario } from "./scenario-effects.ts";
import {
  bid,
  buy,
  list,
  quoteGoods,
  type Env,
  type SimulationAction,
  type SimulationEnvironment,
} from "./agent-actions.ts";
import {
  RECENT_ACTIONS,
  saveSimulationState,
  type SimulatedGoods,
  type SimulationAgent,
  type SimulationState,
} from "./simulation-state.ts";

export interface StepReport {
  step: number;
  actions: SimulationAction[];
}

/**
 * A scenario's hold on a step (docs/design/simulation.md#the-step): called after the fair values moved and
 * before any agent acts, it may change fair values and `state.behaviour` (kept in the state).
 */
export type StepHook = (state: SimulationState, random: DemoRandom) => void;

/** Deliveries and acceptances handled per step at most (the rest wait for the next step). */
const MAX_DELIVERIES_PER_STEP = 5;
/** A seller's delay before sending the offer: at least a minute, 15 minutes on average, at most 6 hours. */
const DELIVERY_DELAY = { minMs: 60_000, meanMs: 15 * 60_000, maxMs: 6 * 3600_000 };
/** A noise trader keeps at most this many buy orders; the oldest goes first. */
const NOISE_MAX_ORDERS = 3;

/**
 * One step of the simulation: the clock moves, the market's trades job settles what the platform
 * answered, the fair values walk and the sandbox's Steam market with them, due sellers deliver and buyers accept, then one agent drawn from
 * the seed acts. Every draw comes from `new DemoRandom(seed, 1, step)`, every list the agents
 * choose from is read in a fixed order, so the same seed, settings and world give the same
 * actions. The state (step, fair values, counts) is saved before the step answers.
 */
export async function simulationStep(
  given: SimulationEnvironment,
  state: SimulationState,
  hook?: StepHook,
): Promise<StepReport> {
  const env: Env = { ...given, verbs: given.verbs ?? directVerbs(given.ctx, given.hands) };
  const random = new DemoRandom(state.settings.seed, 1, state.step);
  const actions: SimulationAction[] = [];
  await moveClock(env, state);
  await syncTrades({ ...env.ctx, actor: { kind: "system" } });
  walkFairValues(state.goods, state.behaviour, random);
  hook?.(state, random);
  await moveSteamMarket(env, state);
  await advanceScenario(env, state, actions);
  await deliverDueSales(env, state, actions);
  await acceptOffers(env, state, actions);
  // Whales act only for scenarios; the step's agent is drawn from the others.
  const actors = state.agents.filter((agent) => agent.kind !== "whale");
  if (actors.length > 0) {
    const agent = actors[random.int(0, actors.length - 1)]!;
    if (agent.kind === "maker") await makeMarket(env, state, agent, random, actions);
    else if (agent.kind === "noise") await tradeAtRandom(env, state, agent, random, actions);
    else await snipe(env, state, agent, actions);
  }
  for (const action of actions) state.actions[action.type] = (state.actions[action.type] ?? 0) + 1;
  state.recent = [
    ...(state.recent ?? []),
    ...actions.map((action) => ({ step: state.step, ...action })),
  ].slice(-RECENT_ACTIONS);
  const report = { step: state.step, actions };
  state.step += 1;
  await saveSimulationState(env.ctx, state);
  return report;
}

/**
 * The sandbox's Steam market follows ours: each simulated goods' Steam price takes a step of its
 * walk around the new fair value (`walkSteamPrices`), from its own stream of the seed.
 */
async function moveSteamMarket(env: Env, state: SimulationState): Promise<void> {
  if (state.goods.length === 0) return;
  const current = await env.hands.steamMarketPrices(
    env.ctx,
    state.goods.map((goods) => goods.goodsId),
  );
  const random = new DemoRandom(state.settings.seed, STEAM_STEP_STREAM, state.step);
  await env.hands.recordSteamMarketPrices(
    env.ctx,
    walkSteamPrices(state.goods, current, state.settings.seed, random),
  );
}

/** Moves the sandbox clock so that it runs `clockSpeed` times real time at the settings' rate. */
async function moveClock(env: Env, state: SimulationState): Promise<void> {
  const { clockSpeed, rate } = state.settings;
  const owedMs = state.clockCarryMs + ((clockSpeed - 1) / rate) * 1000;
  const seconds = Math.floor(owedMs / 1000);
  state.clockCarryMs = owedMs - seconds * 1000;
  if (seconds >= 1) {
    const moved = await advanceClock(env.ctx, { clock: env.clock, seconds });
    if (!moved.ok) throw new Error(`the simulation could not move the clock: ${moved.failure.message}`);
  }
}

/** Seeded per trade, not per step: whether and when its seller delivers does not depend on when we look. */
function deliveryPlan(state: SimulationState, tradeId: number): { never: boolean; delayMs: number } {
  const never = hash32(state.settings.seed, 2, tradeId) / 4_294_967_296 < state.behaviour.neverDeliver;
  const uniform = (hash32(state.settings.seed, 3, tradeId) + 1) / 4_294_967_297;
  const delayMs = Math.min(
    DELIVERY_DELAY.maxMs,
    DELIVERY_DELAY.minMs - Math.log(uniform) * (DELIVERY_DELAY.meanMs - DELIVERY_DELAY.minMs),
  );
  return { never, delayMs };
}

/** Agents who sold send the offer once their delay is over (or never, for some sales). */
async function deliverDueSales(env: Env, state: SimulationState, actions: SimulationAction[]): Promise<void> {
  const sellers = new Map(state.agents.map((agent) => [agent.userId, agent]));
  if (sellers.size === 0) return;
  const now = env.ctx.clock.now().getTime();
  const waiting = await env.ctx.db
    .selectFrom("trades")
    .select(["trade_id", "seller_id", "goods_id", "price", "created_at"])
    .where("state", "=", sql.lit("SELLER_TO_SEND_OFFER"))
    .where("seller_id", "in", [...sellers.keys()])
    .orderBy("trade_id")
    .limit(200)
    .execute();
  let delivered = 0;
  for (const trade of waiting) {
    if (delivered >= MAX_DELIVERIES_PER_STEP) break;
    const plan = deliveryPlan(state, trade.trade_id);
    if (plan.never || trade.created_at.getTime() + plan.delayMs > now) continue;
    const seller = sellers.get(trade.seller_id)!;
    const outcome = await env.verbs.deliver(seller, trade.trade_id);
    actions.push({
      type: "deliver",
      agent: seller.name,
      goodsId: trade.goods_id,
      price: trade.price,
      outcome,
    });
    delivered += 1;
  }
}

/** Buyers accept the offers their accounts received (the platform side of a delivery). */
async function acceptOffers(env: Env, state: SimulationState, actions: SimulationAction[]): Promise<void> {
  let accepted = 0;
  for (const agent of state.agents) {
    for (const tradeofferid of await env.hands.incomingOffers(env.ctx, agent.platformid)) {
      if (accepted >= MAX_DELIVERIES_PER_STEP) return;
      actions.push({
        type: "accept",
        agent: agent.name,
        outcome: await env.verbs.accept(agent, tradeofferid),
      });
      accepted += 1;
    }
  }
}

/**
 * A market maker quotes one goods, both sides: an ask above the fair value and a bid below it. It
 * turns first to a goods where it has no ask (sold since), else to one drawn from the seed.
 */
async function makeMarket(
  env: Env,
  state: SimulationState,
  agent: SimulationAgent,
  random: DemoRandom,
  actions: SimulationAction[],
): Promise<void> {
  const asking = await env.ctx.db
    .selectFrom("listings")
    .select("goods_id")
    .distinct()
    .where("user_id", "=", agent.userId)
    .where("state", "=", sql.lit("ON_SALE"))
    .execute();
  const quoted = new Set(asking.map((row) => row.goods_id));
  const drawn = random.pick(state.goods);
  const goods = state.goods.find((item) => !quoted.has(item.goodsId)) ?? drawn;
  await quoteGoods(env, state, agent, goods, actions);
}

/** A noise trader lists something it holds near the fair value, buys at market, or places a bid. */
async function tradeAtRandom(
  env: Env,
  state: SimulationState,
  agent: SimulationAgent,
  random: DemoRandom,
  actions: SimulationAction[],
): Promise<void> {
  const choice = random.next();
  const goods = random.pick(state.goods);
  if (choice < 0.35) {
    const assets = await env.hands.listableAssets(env.ctx, {
      platformid: agent.platformid,
      goodsIds: state.goods.map((item) => item.goodsId),
      limit: 20,
    });
    if (assets.length > 0) {
      const asset = random.pick(assets);
      const fair = state.goods.find((item) => item.goodsId === asset.goodsId)!.fair;
      const price = Math.max(3, Math.round(fair * Math.exp(0.05 * random.normal())));
      await list(env, agent, asset, price, actions);
      return;
    }
  }
  if (choice < 0.65) {
    await buy(env, agent, "buy", goods.goodsId, Math.round(goods.fair * (1 + 0.05 * random.next())), actions);
    return;
  }
  const orders = await env.ctx.db
    .selectFrom("buy_orders")
    .select("buy_order_id")
    .where("user_id", "=", agent.userId)
    .where("state", "=", sql.lit("progressing"))
    .orderBy("buy_order_id")
    .execute();
  if (orders.length >= NOISE_MAX_ORDERS) {
    const outcome = await env.verbs.cancelBid(agent, orders[0]!.buy_order_id);
    actions.push({ type: "cancel_bid", agent: agent.name, outcome });
  }
  const price = Math.max(3, Math.round(goods.fair * (1 - 0.01 - 0.07 * random.next())));
  await bid(env, agent, goods.goodsId, price, 1, actions);
}

/** A sniper takes the listing furthest under its goods' fair value, if one is far enough under. */
async function snipe(
  env: Env,
  state: SimulationState,
  agent: SimulationAgent,
  actions: SimulationAction[],
): Promise<void> {
  const prices = await readGoodsPrices(
    env.ctx,
    state.goods.map((goods) => goods.goodsId),
  );
  let best: { goods: SimulatedGoods; price: number; ratio: number } | undefined;
  for (const goods of state.goods) {
    const lowest = prices.get(goods.goodsId)?.sellMin ?? 0;
    if (lowest <= 0) continue;
    const ratio = lowest / goods.fair;
    if (ratio <= 1 - state.behaviour.sniperDiscount && (!best || ratio < best.ratio))
      best = { goods, price: lowest, ratio };
  }
  if (!best) {
    actions.push({ type: "idle", agent: agent.name, outcome: "OK" });
    return;
  }
  await buy(env, agent, "snipe", best.goods.goodsId, best.price, actions);
}
