import { sql } from "kysely";
import { DemoRandom, hash32 } from "./demo-random.ts";
import type { DomainContext } from "../context.ts";
import { readGoodsPrices } from "../market/read-goods-prices.ts";
import { checkStoredCookies, COOKIE_CHECKS_PER_ROUND } from "../platform-accounts/check-stored-cookies.ts";
import { CANCEL_AFTER_MS } from "../trades/cancel-purchase-orders.ts";
import {
  bid,
  buy,
  ensureFunds,
  outcomeOf,
  quoteGoods,
  type Env,
  type SimulationAction,
} from "./agent-actions.ts";
import type { EffectRun, SimulatedGoods, SimulationAgent, SimulationState } from "./simulation-state.ts";
import { MIN_FAIR_FEN, orderByWear, readGoodsTraits } from "./fair-values.ts";
import { durationSeconds } from "./scenario-timeline.ts";
import { createAgent, pickDistinct, typicalPriceOf } from "./start-simulation.ts";

/**
 * Scenarios (docs/design/simulation.md#scenarios): a timeline of effects in sandbox time. Each
 * step, after the fair values walked, `advanceScenario` begins the effects whose time has come,
 * applies the active ones for their progress and ends those whose time is over. Effects act
 * through the state the agents read (fair values, behaviour), through agents calling the user
 * verbs, and through the sandbox's own verbs (the platform's fault switch, cookie expiry, a
 * trade's rollback): never through rows written behind the domain's back.
 */

/** One step of the scenario: effects begin, act for their progress, and end, in the file's order. */
export async function advanceScenario(
  env: Env,
  state: SimulationState,
  actions: SimulationAction[],
): Promise<void> {
  const run = state.scenario;
  if (!run || run.finished) return;
  const now = env.ctx.clock.now().getTime();
  run.seenAtMs = now;
  const elapsed = (now - run.startedAtMs) / 1000;
  for (const [index, item] of run.effects.entries()) {
    const { atSeconds, forSeconds } = item.effect;
    const effect = new EffectContext(env, state, item, index, actions);
    if (item.state === "pending" && elapsed >= atSeconds) {
      item.state = "active";
      await EFFECTS[item.effect.type]!.begin(effect);
    }
    if (item.state !== "active") continue;
    const progress = forSeconds === 0 ? 1 : Math.min(1, (elapsed - atSeconds) / forSeconds);
    await EFFECTS[item.effect.type]!.apply?.(effect, progress);
    if (elapsed >= atSeconds + forSeconds) {
      await EFFECTS[item.effect.type]!.end?.(effect);
      item.state = "done";
    }
  }
  run.finished = run.effects.every((item) => item.state === "done");
}

/** Ends a scenario now: active effects end (undoing what they hold), pending ones never begin. */
export async function finishScenario(
  env: Env,
  state: SimulationState,
  actions: SimulationAction[],
): Promise<void> {
  const run = state.scenario;
  if (!run || run.finished) return;
  for (const [index, item] of run.effects.entries()) {
    if (item.state === "active")
      await EFFECTS[item.effect.type]!.end?.(new EffectContext(env, state, item, index, actions));
    item.state = "done";
  }
  run.finished = true;
}

/** What an effect's hooks get: the step's world, the effect and its memory, and a seeded random. */
class EffectContext {
  readonly env: Env;
  readonly state: SimulationState;
  readonly item: EffectRun;
  readonly index: number;
  readonly actions: SimulationAction[];
  constructor(env: Env, state: SimulationState, item: EffectRun, index: number, actions: SimulationAction[]) {
    this.env = env;
    this.state = state;
    this.item = item;
    this.index = index;
    this.actions = actions;
  }
  get fields(): Record<string, unknown> {
    return this.item.effect.fields;
  }
  get memory(): Record<string, unknown> {
    return this.item.memory;
  }
  get ctx(): DomainContext {
    return this.env.ctx;
  }
  /** Draws of this effect at this step: stream 10 + its index, positioned at the step. */
  random(): DemoRandom {
    return new DemoRandom(this.state.settings.seed, 10 + this.index, this.state.step);
  }
  /** Whether a thing (a trade, an account) is chosen with this share, the same however often asked. */
  chosen(key: number, share: number): boolean {
    return hash32(this.state.settings.seed, 20 + this.index, key) / 4_294_967_296 < share;
  }
  act(type: string, outcome: string, extra: { goodsId?: number; price?: number; agent?: string } = {}): void {
    this.actions.push({ type, agent: extra.agent ?? `scenario:${this.item.effect.type}`, outcome, ...extra });
  }
  agents(kind?: SimulationAgent["kind"]): SimulationAgent[] {
    return this.state.agents.filter((agent) => (kind ? agent.kind === kind : agent.kind !== "whale"));
  }
}

interface EffectHooks {
  begin(effect: EffectContext): Promise<void>;
  apply?(effect: EffectContext, progress: number): Promise<void>;
  end?(effect: EffectContext): Promise<void>;
}

/** Brings a goods into the simulation (if it is not there), starting at its lowest ask or usual price. */
async function addGoods(effect: EffectContext, goodsId: number, fair?: number): Promise<SimulatedGoods> {
  const known = effect.state.goods.find((goods) => goods.goodsId === goodsId);
  if (known) return known;
  let start = fair;
  if (start === undefined) {
    const price = (await readGoodsPrices(effect.ctx, [goodsId])).get(goodsId);
    start =
      price && price.sellMin > 0
        ? price.sellMin
        : await typicalPriceOf(effect.ctx, goodsId, effect.state.settings.seed);
  }
  const traits = (await readGoodsTraits(effect.ctx, [goodsId])).get(goodsId);
  const goods: SimulatedGoods = {
    goodsId,
    anchor: Math.max(MIN_FAIR_FEN, start),
    fair: Math.max(MIN_FAIR_FEN, start),
    ...traits,
  };
  effect.state.goods.push(goods);
  orderByWear(effect.state.goods, "anchor", "fair");
  return goods;
}

/** Moves a goods' fair value and the level its walk returns to by a factor (in log terms). */
function shift(goods: SimulatedGoods, factor: number): void {
  goods.anchor = Math.max(MIN_FAIR_FEN, goods.anchor * factor);
  goods.fair = Math.max(MIN_FAIR_FEN, goods.fair * factor);
}

const priceShift: EffectHooks = {
  async begin(effect) {
    const ids = (effect.fields.goods_ids as number[] | undefined) ?? [];
    const category = effect.fields.category as string | undefined;
    const wanted = (effect.fields.add_goods as number | undefined) ?? 2;
    const targets = new Set<number>();
    const known = new Set(effect.state.goods.map((goods) => goods.goodsId));
    for (const goodsId of ids) {
      const exists = await effect.ctx.db
        .selectFrom("goods")
        .select("goods_id")
        .where("goods_id", "=", goodsId)
        .executeTakeFirst();
      if (exists) targets.add((await addGoods(effect, goodsId)).goodsId);
    }
    if (category) {
      const simulated = effect.state.goods.map((goods) => goods.goodsId);
      const ofType = await effect.ctx.db
        .selectFrom("goods")
        .select("goods_id")
        .where("type", "=", category)
        .where("goods_id", "in", simulated.length > 0 ? simulated : [0])
        .orderBy("goods_id")
        .execute();
      for (const row of ofType) targets.add(row.goods_id);
      if (targets.size < wanted) {
        // Goods of the category join the simulation (drawn from the seed, at a typical price of
        // 1-5,000 yuan), so that the makers quote them and the move shows in a market.
        const catalog = await effect.ctx.db
          .selectFrom("goods")
          .select("goods_id")
          .where("type", "=", category)
          .orderBy("goods_id")
          .execute();
        const random = effect.random();
        const candidates = pickDistinct(
          random,
          catalog.map((row) => row.goods_id).filter((id) => !targets.has(id)),
          Math.min(catalog.length, 50),
        );
        for (const goodsId of candidates) {
          if (targets.size >= wanted) break;
          const price = await typicalPriceOf(effect.ctx, goodsId, effect.state.settings.seed);
          if (price < 100 || price > 500_000) continue;
          targets.add((await addGoods(effect, goodsId)).goodsId);
        }
      }
    }
    const goods = [...targets];
    // The makers come to goods new to the simulation at once: asks and bids from the start.
    for (const goodsId of goods) {
      if (known.has(goodsId)) continue;
      const added = effect.state.goods.find((item) => item.goodsId === goodsId)!;
      for (const maker of effect.agents("maker"))
        await quoteGoods(effect.env, effect.state, maker, added, effect.actions);
    }
    effect.memory.goods = goods;
    effect.memory.applied = 0;
    const change = effect.fields.change as number;
    effect.item.note = `${goods.length > 0 ? `goods ${goods.join(", ")}` : "no goods"}: ${change > 0 ? "+" : ""}${Math.round(change * 100)} %`;
    effect.act("price_shift", goods.length > 0 ? "OK" : "no goods of the category");
  },
  async apply(effect, progress) {
    const target = Math.log(1 + (effect.fields.change as number)) * progress;
    const delta = target - (effect.memory.applied as number);
    effect.memory.applied = target;
    const ids = new Set(effect.memory.goods as number[]);
    for (const goods of effect.state.goods) if (ids.has(goods.goodsId)) shift(goods, Math.exp(delta));
  },
};

const newCase: EffectHooks = {
  async begin(effect) {
    let goodsId = effect.fields.goods_id as number | undefined;
    if (goodsId === undefined) {
      // A case the market has never seen: a container with no listing and no buy order.
      const unseen = await effect.ctx.db
        .selectFrom("goods as g")
        .select("g.goods_id")
        .where("g.type", "=", "container")
        .where("g.is_standard", "=", true)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom("listings as l").select("l.listing_id").whereRef("l.goods_id", "=", "g.goods_id"),
            ),
          ),
        )
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom("buy_orders as o")
                .select("o.buy_order_id")
                .whereRef("o.goods_id", "=", "g.goods_id"),
            ),
          ),
        )
        .orderBy("g.goods_id")
        .execute();
      const fresh = unseen
        .map((row) => row.goods_id)
        .filter((id) => !effect.state.goods.some((goods) => goods.goodsId === id));
      if (fresh.length === 0) {
        effect.item.note = "no case without a market is left in the catalog";
        effect.act("new_case", effect.item.note);
        return;
      }
      goodsId = effect.random().pick(fresh);
    }
    const usual = await typicalPriceOf(effect.ctx, goodsId, effect.state.settings.seed);
    const premium = (effect.fields.premium as number | undefined) ?? 4;
    const goods = await addGoods(effect, goodsId, Math.round(usual * premium));
    effect.memory.goodsId = goods.goodsId;
    effect.memory.usual = usual;
    effect.memory.level = goods.anchor;
    effect.item.note = `case ${goods.goodsId} released at ${(goods.fair / 100).toFixed(2)} (usual ${(usual / 100).toFixed(2)})`;
    effect.act("new_case", "OK", { goodsId: goods.goodsId, price: Math.round(goods.fair) });
    // The makers list and bid on it at once.
    for (const maker of effect.agents("maker"))
      await quoteGoods(effect.env, effect.state, maker, goods, effect.actions);
  },
  async apply(effect, progress) {
    const goodsId = effect.memory.goodsId as number | undefined;
    if (goodsId === undefined) return;
    const goods = effect.state.goods.find((item) => item.goodsId === goodsId);
    if (!goods) return;
    // The release premium decays to the usual price over the effect's time.
    const premium = (effect.fields.premium as number | undefined) ?? 4;
    const level = (effect.memory.usual as number) * premium ** (1 - progress);
    shift(goods, level / (effect.memory.level as number));
    effect.memory.level = level;
    // Heavy volume at release, fading: extra purchases by the noise traders (anyone, without them).
    const volume = (effect.fields.volume as number | undefined) ?? 3;
    const extra = Math.round(volume * (1 - progress));
    const buyers = effect.agents("noise").length > 0 ? effect.agents("noise") : effect.agents();
    const random = effect.random();
    for (let index = 0; index < extra && buyers.length > 0; index++) {
      const buyer = random.pick(buyers);
      await buy(effect.env, buyer, "rush_buy", goodsId, Math.round(goods.fair * 1.05), effect.actions);
    }
  },
};

const platformOutage: EffectHooks = {
  async begin(effect) {
    const down = await effect.env.hands.setPlatformDown(effect.ctx, true);
    effect.item.note = "the platform is down: inventories and trade offers fail";
    effect.act("platform_down", outcomeOf(down));
  },
  async end(effect) {
    const up = await effect.env.hands.setPlatformDown(effect.ctx, false);
    effect.item.note = "the platform was down; it is back";
    effect.act("platform_up", outcomeOf(up));
  },
};

const cookieStorm: EffectHooks = {
  async begin(effect) {
    const share = (effect.fields.share as number | undefined) ?? 1;
    const accounts = await effect.ctx.db
      .selectFrom("bound_platform_accounts")
      .select(["platformid", "user_id"])
      .where("cookie_state", "=", "valid")
      .orderBy("platformid")
      .execute();
    const expired: string[] = [];
    for (const account of accounts) {
      if (!effect.chosen(Number(account.platformid.slice(-9)), share)) continue;
      const done = await effect.env.hands.expireCookies(effect.ctx, account.platformid);
      if (done.ok) expired.push(account.platformid);
    }
    // The marketplace's cookie check runs now, so the owners hear of it (`platform.cookie_expired`).
    const system: DomainContext = { ...effect.ctx, actor: { kind: "system" } };
    for (let round = 0; round < Math.ceil(expired.length / COOKIE_CHECKS_PER_ROUND) + 1; round++)
      await checkStoredCookies(system);
    effect.memory.expired = expired;
    effect.item.note = `cookies of ${expired.length} of ${accounts.length} bound accounts expired`;
    effect.act("cookies_expired", `${expired.length} accounts`);
  },
  async end(effect) {
    // The simulated traders sign in again; everyone else uploads fresh cookies themselves.
    const expired = new Set(effect.memory.expired as string[]);
    for (const agent of effect.state.agents) {
      if (!expired.has(agent.platformid)) continue;
      const user: DomainContext = { ...effect.ctx, actor: { kind: "user", userId: agent.userId } };
      const signed = await effect.env.hands.signInAgain(effect.ctx, user, agent.platformid);
      effect.act("sign_in", outcomeOf(signed), { agent: agent.name });
    }
  },
};

const nonDelivery: EffectHooks = {
  async begin(effect) {
    const share = (effect.fields.share as number | undefined) ?? 1;
    effect.memory.previous = effect.state.behaviour.neverDeliver;
    effect.state.behaviour.neverDeliver = share;
    effect.item.note = `${Math.round(share * 100)} % of sellers do not deliver; buyers cancel after 30 minutes`;
    effect.act("non_delivery", "OK");
  },
  async apply(effect) {
    // Simulated buyers cancel purchases the seller has not delivered 30 minutes after the sale.
    const buyers = new Map(effect.state.agents.map((agent) => [agent.userId, agent]));
    if (buyers.size === 0) return;
    const waiting = await effect.ctx.db
      .selectFrom("trades")
      .select(["trade_id", "buyer_id", "goods_id", "price"])
      .where("state", "=", sql.lit("SELLER_TO_SEND_OFFER"))
      .where("buyer_id", "in", [...buyers.keys()])
      .where("created_at", "<=", new Date(effect.ctx.clock.now().getTime() - CANCEL_AFTER_MS))
      .orderBy("trade_id")
      .limit(5)
      .execute();
    for (const trade of waiting) {
      const buyer = buyers.get(trade.buyer_id)!;
      const outcome = await effect.env.verbs.cancelPurchase(buyer, trade.trade_id);
      effect.act("cancel_purchase", outcome, {
        agent: buyer.name,
        goodsId: trade.goods_id,
        price: trade.price,
      });
    }
  },
  async end(effect) {
    effect.state.behaviour.neverDeliver = effect.memory.previous as number;
  },
};

const MAX_ROLLBACKS_PER_STEP = 3;

const rollback: EffectHooks = {
  async begin(effect) {
    effect.memory.since = effect.ctx.clock.now().getTime();
    effect.memory.seen = [];
    effect.memory.rolledBack = 0;
    const share = (effect.fields.share as number | undefined) ?? 0.5;
    effect.item.note = `${Math.round(share * 100)} % of trades delivered now are rolled back`;
    effect.act("rollback_watch", "OK");
  },
  async apply(effect) {
    const share = (effect.fields.share as number | undefined) ?? 0.5;
    const delayMs = durationSeconds(effect.fields.delay as number | string | undefined, 600) * 1000;
    const seen = effect.memory.seen as number[];
    const due = await effect.ctx.db
      .selectFrom("trades")
      .select(["trade_id", "goods_id", "price"])
      .where("state", "=", sql.lit("SUCCESS"))
      .where("updated_at", ">=", new Date(effect.memory.since as number))
      .where("updated_at", "<=", new Date(effect.ctx.clock.now().getTime() - delayMs))
      .where("trade_id", "not in", seen.length > 0 ? seen : [0])
      .orderBy("trade_id")
      .limit(20)
      .execute();
    let done = 0;
    for (const trade of due) {
      if (done >= MAX_ROLLBACKS_PER_STEP) break;
      seen.push(trade.trade_id);
      if (!effect.chosen(trade.trade_id, share)) continue;
      const reversed = await effect.env.hands.rollbackTrade(effect.ctx, trade.trade_id);
      if (reversed.ok) effect.memory.rolledBack = (effect.memory.rolledBack as number) + 1;
      effect.act("rollback", outcomeOf(reversed), { goodsId: trade.goods_id, price: trade.price });
      done += 1;
    }
    // Only trades delivered since the effect began are looked at, so the list stays short.
    if (seen.length > 5000) seen.splice(0, seen.length - 5000);
    const share100 = Math.round(share * 100);
    effect.item.note = `${share100} % of trades delivered now are rolled back; ${effect.memory.rolledBack as number} so far`;
  },
};

const buyOrderWall: EffectHooks = {
  async begin(effect) {
    const given = effect.fields.goods_id as number | undefined;
    const goods =
      given !== undefined
        ? await addGoods(effect, given)
        : effect.state.goods.length > 0
          ? effect.random().pick(effect.state.goods)
          : undefined;
    if (!goods) {
      effect.item.note = "no goods to build a wall on";
      effect.act("wall", effect.item.note);
      return;
    }
    let whale = effect.state.agents.find((agent) => agent.kind === "whale");
    if (!whale) {
      const created = await createAgent(effect.ctx, effect.env.hands, {
        seed: effect.state.settings.seed,
        kind: "whale",
        index: 0,
        budget: 100_000,
        stock: [],
      });
      if (!created.ok) {
        effect.act("wall", created.failure.message);
        return;
      }
      whale = created.value;
      effect.state.agents.push(whale);
    }
    const below = (effect.fields.below as number | undefined) ?? 0.05;
    const num = (effect.fields.num as number | undefined) ?? 200;
    const price = Math.max(3, Math.round(goods.fair * (1 - below)));
    await ensureFunds(effect.env, whale, price * num, effect.actions);
    await bid(effect.env, whale, goods.goodsId, price, num, effect.actions);
    const order = await effect.ctx.db
      .selectFrom("buy_orders")
      .select("buy_order_id")
      .where("user_id", "=", whale.userId)
      .where("goods_id", "=", goods.goodsId)
      .where("state", "=", sql.lit("progressing"))
      .orderBy("buy_order_id", "desc")
      .executeTakeFirst();
    effect.memory.buyOrderId = order?.buy_order_id ?? null;
    effect.memory.goodsId = goods.goodsId;
    effect.item.note = `a buy order for ${num} of goods ${goods.goodsId} at ${(price / 100).toFixed(2)}`;
  },
  async end(effect) {
    const orderId = effect.memory.buyOrderId as number | null | undefined;
    const whale = effect.state.agents.find((agent) => agent.kind === "whale");
    if (!orderId || !whale) return;
    const outcome = await effect.env.verbs.cancelBid(whale, orderId);
    effect.act("wall_removed", outcome, { agent: whale.name, goodsId: effect.memory.goodsId as number });
  },
};

const EFFECTS: Record<string, EffectHooks> = {
  price_shift: priceShift,
  new_case: newCase,
  platform_outage: platformOutage,
  cookie_storm: cookieStorm,
  non_delivery: nonDelivery,
  rollback,
  buy_order_wall: buyOrderWall,
};
