import { formatMoney } from "@skinmarket/contract";
import { sql } from "kysely";
import { DemoRandom } from "./demo-random.ts";
import { typicalPrice } from "./demo-prices.ts";
import { createUser } from "../accounts/create-user.ts";
import { recordAudit } from "../audit.ts";
import type { DomainContext } from "../context.ts";
import { readGoodsPrices } from "../market/read-goods-prices.ts";
import { fail, invalidArgument, ok, type Result } from "../result.ts";
import { fundAccount } from "../wallet/fund-account.ts";
import { MIN_FAIR_FEN, orderByWear, readGoodsTraits } from "./fair-values.ts";
import type { SandboxHands } from "./sandbox-hands.ts";
import type { SimulationSettings } from "./simulation-settings.ts";
import {
  loadSimulationState,
  saveSimulationState,
  type AgentBehaviour,
  type AgentKind,
  type SimulatedGoods,
  type SimulationAgent,
  type SimulationState,
} from "./simulation-state.ts";

/** Draws that set the world up use stream 0; step n uses `new DemoRandom(seed, 1, n)`. */
const SETUP_STREAM = 0;

/** Goods chosen from the catalog (when the market has too few priced) cost between these, in fen. */
const FALLBACK_PRICE_RANGE = { min: 100, max: 500_000 };
export const DEFAULT_BEHAVIOUR: Omit<AgentBehaviour, "neverDeliver"> = {
  spread: 0.04,
  sniperDiscount: 0.06,
  volatility: 0.01,
  jumpChance: 0.002,
  jumpSize: 0.15,
};

/** Items each agent starts with: makers per goods, noise traders of a few goods. */
const MAKER_ITEMS_PER_GOODS = 3;
const NOISE_GOODS = 3;
const NOISE_ITEMS_PER_GOODS = 2;

/**
 * Starts a simulation: chooses the goods and their fair values, creates the agents (sandbox users
 * with ready platform accounts, funds and items, through the sandbox's own verbs) and saves the
 * state with `running`. Started again with the seed of a stopped simulation, it resumes that one
 * (its agents, goods and step) with the new rate and clock speed.
 */
export async function startSimulation(
  ctx: DomainContext,
  hands: SandboxHands,
  settings: SimulationSettings,
): Promise<Result<SimulationState>> {
  if (ctx.actor.kind !== "admin")
    return fail("Access Denied", "only the sandbox admin starts the simulation");
  const existing = await loadSimulationState(ctx);
  if (existing?.running) return fail("Invalid State", "the simulation is already running; stop it first");
  if (existing && existing.settings.seed === settings.seed) {
    // The same seed again resumes the stopped simulation where it stood, at the new pace.
    const resumed: SimulationState = {
      ...existing,
      running: true,
      settings: { ...existing.settings, rate: settings.rate, clockSpeed: settings.clockSpeed },
    };
    await saveSimulationState(ctx, resumed);
    await recordAudit(ctx, {
      action: "sandbox.simulation.resume",
      details: { seed: settings.seed, step: existing.step },
    });
    return ok(resumed);
  }
  const random = new DemoRandom(settings.seed, SETUP_STREAM);
  const goods = await chooseGoods(ctx, settings, random);
  if (!goods.ok) return goods;
  const agents: SimulationAgent[] = [];
  const kinds: Array<[AgentKind, number]> = [
    ["maker", settings.makers],
    ["noise", settings.noise],
    ["sniper", settings.snipers],
  ];
  const priceSum = goods.value.reduce((sum, item) => sum + item.fair, 0);
  for (const [kind, count] of kinds) {
    for (let index = 0; index < count; index++) {
      const stock: Array<[number, number]> =
        kind === "maker"
          ? goods.value.map((item) => [item.goodsId, MAKER_ITEMS_PER_GOODS])
          : kind === "noise"
            ? pickDistinct(random, goods.value, Math.min(NOISE_GOODS, goods.value.length)).map((item) => [
                item.goodsId,
                NOISE_ITEMS_PER_GOODS,
              ])
            : [];
      const budget = Math.max(100_000, Math.round(priceSum * (kind === "maker" ? 12 : 5)));
      const agent = await createAgent(ctx, hands, { seed: settings.seed, kind, index, budget, stock });
      if (!agent.ok) return agent;
      agents.push(agent.value);
    }
  }
  const state: SimulationState = {
    settings,
    running: true,
    step: 0,
    goods: goods.value,
    agents,
    behaviour: { ...DEFAULT_BEHAVIOUR, neverDeliver: settings.neverDeliver },
    actions: {},
    clockCarryMs: 0,
    startedAt: ctx.clock.now().toISOString(),
  };
  await saveSimulationState(ctx, state, { create: true });
  await recordAudit(ctx, {
    action: "sandbox.simulation.start",
    details: { seed: settings.seed, goods: state.goods.map((item) => item.goodsId), agents: agents.length },
  });
  return ok(state);
}

/** Marks the simulation stopped (the runner stops at its next step); its state stays for `status`. */
export async function stopSimulation(ctx: DomainContext): Promise<Result<SimulationState>> {
  if (ctx.actor.kind !== "admin") return fail("Access Denied", "only the sandbox admin stops the simulation");
  const state = await loadSimulationState(ctx);
  if (!state) return fail("Invalid State", "no simulation was started");
  const stopped = { ...state, running: false };
  await saveSimulationState(ctx, stopped);
  await recordAudit(ctx, { action: "sandbox.simulation.stop", details: { steps: state.step } });
  return ok(stopped);
}

/**
 * One agent: a sandbox user `sim-<seed>-<kind>-<n>` created by the sandbox's own verbs, with a
 * ready platform account, `budget` fen deposited and `stock` (goods id, count) granted.
 */
export async function createAgent(
  ctx: DomainContext,
  hands: SandboxHands,
  input: { seed: number; kind: AgentKind; index: number; budget: number; stock: Array<[number, number]> },
): Promise<Result<SimulationAgent>> {
  const name = `${input.kind}-${input.index}`;
  const user = await createUser(ctx, { nickname: `sim-${input.seed}-${name}` });
  if (!user.ok) return user;
  const userId = user.value.userId;
  const userCtx: DomainContext = { ...ctx, actor: { kind: "user", userId } };
  const account = await hands.createReadyAccount(ctx, userCtx, userId);
  if (!account.ok) return account;
  const funded = await fundAccount(ctx, { userId, account: "balance", amount: formatMoney(input.budget) });
  if (!funded.ok) return funded;
  for (const [goodsId, count] of input.stock) {
    const granted = await hands.grantItems(ctx, { platformid: account.value.platformid, goodsId, count });
    if (!granted.ok) return granted;
  }
  return ok({ kind: input.kind, name, userId, platformid: account.value.platformid });
}

/**
 * The goods universe: the given ids, or a number of goods drawn from the seed among those with a
 * price on the market (listings or bids), topped up from the catalog's standard goods when the
 * market has too few. Each starts at its lowest ask, else just above its best bid, else the demo
 * market's typical price for it.
 */
async function chooseGoods(
  ctx: DomainContext,
  settings: SimulationSettings,
  random: DemoRandom,
): Promise<Result<SimulatedGoods[]>> {
  let ids: number[];
  if (Array.isArray(settings.goods)) {
    const found = await ctx.db
      .selectFrom("goods")
      .select("goods_id")
      .where("goods_id", "in", settings.goods)
      .where("is_standard", "=", true)
      .execute();
    const known = new Set(found.map((row) => row.goods_id));
    const missing = settings.goods.find((id) => !known.has(id));
    if (missing !== undefined)
      return invalidArgument("goods", `${missing} is no standard goods of the catalog`);
    ids = settings.goods;
  } else {
    const wanted = settings.goods;
    const priced = await sql<{ goods_id: number }>`
      SELECT goods_id FROM listings WHERE state = 'ON_SALE'
      UNION SELECT goods_id FROM buy_orders WHERE state = 'progressing'
      ORDER BY goods_id
    `.execute(ctx.db);
    ids = pickDistinct(
      random,
      priced.rows.map((row) => row.goods_id),
      Math.min(wanted, priced.rows.length),
    );
    if (ids.length < wanted) {
      const catalog = await ctx.db
        .selectFrom("goods")
        .select("goods_id")
        .where("is_standard", "=", true)
        .orderBy("goods_id")
        .execute();
      const taken = new Set(ids);
      for (let tries = 0; ids.length < wanted && tries < wanted * 200 && catalog.length > 0; tries++) {
        const candidate = random.pick(catalog).goods_id;
        if (taken.has(candidate)) continue;
        const price = await typicalPriceOf(ctx, candidate, settings.seed);
        if (price < FALLBACK_PRICE_RANGE.min || price > FALLBACK_PRICE_RANGE.max) continue;
        taken.add(candidate);
        ids.push(candidate);
      }
      if (ids.length === 0) return fail("Invalid State", "the catalog has no goods to trade; load it first");
    }
  }
  const prices = await readGoodsPrices(ctx, ids);
  const traits = await readGoodsTraits(ctx, ids);
  const goods: SimulatedGoods[] = [];
  for (const goodsId of ids) {
    const price = prices.get(goodsId);
    const start =
      price && price.sellMin > 0
        ? price.sellMin
        : price && price.buyMax > 0
          ? Math.round(price.buyMax * 1.03)
          : await typicalPriceOf(ctx, goodsId, settings.seed);
    const fair = Math.max(MIN_FAIR_FEN, start);
    goods.push({ goodsId, anchor: fair, fair, ...traits.get(goodsId) });
  }
  // Prices on sale may put a skin's exteriors out of order; its fair values start in order.
  orderByWear(goods, "anchor", "fair");
  return ok(goods);
}

export async function typicalPriceOf(ctx: DomainContext, goodsId: number, seed: number): Promise<number> {
  const row = await ctx.db
    .selectFrom("goods")
    .select(["goods_id", "market_hash_name", "short_name", "type", "quality", "exterior", "tags"])
    .where("goods_id", "=", goodsId)
    .executeTakeFirstOrThrow();
  return typicalPrice(row, seed);
}

/** `count` distinct items drawn in order (a partial Fisher-Yates shuffle of a copy). */
export function pickDistinct<T>(random: DemoRandom, items: readonly T[], count: number): T[] {
  const pool = [...items];
  const chosen: T[] = [];
  for (let index = 0; index < count && index < pool.length; index++) {
    const swap = random.int(index, pool.length - 1);
    [pool[index], pool[swap]] = [pool[swap]!, pool[index]!];
    chosen.push(pool[index]!);
  }
  return chosen;
}
