import { formatMoney } from "@skinmarket/contract";
import type { FastifyInstance, InjectOptions } from "fastify";
import { buildApp } from "../src/app.ts";
import { loadCatalog } from "../src/domain/catalog/load-catalog.ts";
import { OffsetClock } from "../src/domain/clock.ts";
import { DEFAULT_MARKET_RULES, type DomainContext } from "../src/domain/context.ts";
import { SecretBox } from "../src/domain/secret-box.ts";
import type { AgentVerbs } from "../src/domain/simulation/agent-verbs.ts";
import { parseSimulationSettings } from "../src/domain/simulation/simulation-settings.ts";
import type { SimulationAgent, SimulationState } from "../src/domain/simulation/simulation-state.ts";
import type { SimulationEnvironment } from "../src/domain/simulation/agent-actions.ts";
import { simulationStep } from "../src/domain/simulation/simulation-step.ts";
import { startSimulation } from "../src/domain/simulation/start-simulation.ts";
import { sandboxHands } from "../src/platform/sandbox/simulation-hands.ts";
import { SandboxPlatform } from "../src/platform/sandbox/sandbox-platform.ts";
import { openDatabase, type DatabaseHandle } from "../src/storage/database.ts";
import { migrateToLatest } from "../src/storage/migrator.ts";
import type { Figure } from "./market.ts";

/** The sandbox clock on a fixed epoch: both worlds see the same moments, so they take the same actions. */
class SteppedClock extends OffsetClock {
  override now(): Date {
    return new Date(Date.UTC(2026, 0, 5, 12) + this.offsetMs);
  }
}

const ADMIN_TOKEN = "sma_bench_simulate_admin_token_000000";
const SETTINGS = { seed: 11, goods: 6, makers: 2, noise: 4, snipers: 1, clock_speed: 61, rate: 1 };
const log = { info() {}, warn() {}, error() {} };

interface World {
  database: DatabaseHandle;
  env: SimulationEnvironment;
  state: SimulationState;
  app: FastifyInstance;
}

async function openWorld(): Promise<World> {
  const database = await openDatabase({ kind: "pglite" });
  await migrateToLatest(database.db);
  const clock = new SteppedClock();
  const services = {
    platform: new SandboxPlatform(),
    secretBox: new SecretBox(SecretBox.generateKey()),
    rules: DEFAULT_MARKET_RULES,
  };
  const ctx: DomainContext = { db: database.db, clock, actor: { kind: "admin" }, log, ...services };
  const loaded = await loadCatalog(ctx);
  if (!loaded.ok) throw new Error(loaded.failure.message);
  const settings = parseSimulationSettings(SETTINGS);
  if (!settings.ok) throw new Error(settings.failure.message);
  const started = await startSimulation(ctx, sandboxHands, settings.value);
  if (!started.ok) throw new Error(started.failure.message);
  const app = await buildApp({ database, clock, ...services, sandbox: { clock, adminToken: ADMIN_TOKEN } });
  return { database, env: { ctx, clock, hands: sandboxHands }, state: started.value, app };
}

/** The same verbs as requests: each agent's action is the HTTP request a bot would send. */
async function httpVerbs(world: World): Promise<AgentVerbs> {
  const tokens = new Map<number, string>();
  for (const agent of world.state.agents) {
    const issued = await world.app.inject({
      method: "POST",
      url: `/sandbox/users/${agent.userId}/tokens`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    tokens.set(agent.userId, issued.json<{ token: string }>().token);
  }
  const send = async (token: string, method: InjectOptions["method"], url: string, payload: object) => {
    const response = await world.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      payload,
    });
    const body = response.json<Record<string, unknown>>();
    return { ok: response.statusCode === 200, body, failure: String(body.error ?? body.msg ?? "") };
  };
  const as = (agent: SimulationAgent) => tokens.get(agent.userId)!;
  const api = "/api/market/developer";
  return {
    async list(agent, assetid, price) {
      const answer = await send(as(agent), "POST", `${api}/sell_order/items`, {
        game: "cs2",
        assets: [{ assetid, price: formatMoney(price) }],
      });
      return answer.ok ? String(answer.body[assetid]) : answer.failure;
    },
    async reprice(agent, listingId, price) {
      const answer = await send(as(agent), "PUT", `${api}/sell_order/items`, {
        game: "cs2",
        sell_orders: [{ sell_order_id: String(listingId), price: formatMoney(price) }],
      });
      return answer.ok ? String(answer.body[String(listingId)]) : answer.failure;
    },
    async buy(agent, goodsId, maxPrice) {
      const answer = await send(as(agent), "POST", `${api}/purchase/orders`, {
        game: "cs2",
        items: [{ goods_id: goodsId, max_price: formatMoney(maxPrice), quantity: 1 }],
        pay_method: "balance",
      });
      if (!answer.ok) return answer.failure;
      const entry = (answer.body.result as Record<string, { success_num: number; msg?: string }>)[
        String(goodsId)
      ];
      return entry && entry.success_num > 0 ? "OK" : (entry?.msg ?? "nothing at or below the price");
    },
    async bid(agent, goodsId, price, num) {
      const answer = await send(as(agent), "POST", `${api}/buy_order`, {
        game: "cs2",
        goods_id: goodsId,
        price: formatMoney(price),
        num,
      });
      return answer.ok ? "OK" : answer.failure;
    },
    async cancelBid(agent, buyOrderId) {
      const answer = await send(as(agent), "DELETE", `${api}/buy_order`, {
        game: "cs2",
        buy_order_ids: [String(buyOrderId)],
      });
      return answer.ok ? String(answer.body[String(buyOrderId)]) : answer.failure;
    },
    async deliver(agent, tradeId) {
      const answer = await send(as(agent), "POST", `${api}/sell_order/send_offer`, {
        order_id: String(tradeId),
      });
      return answer.ok ? "OK" : answer.failure;
    },
    async cancelPurchase(agent, tradeId) {
      const answer = await send(as(agent), "DELETE", `${api}/purchase/orders`, {
        game: "cs2",
        order_ids: [String(tradeId)],
      });
      if (!answer.ok) return answer.failure;
      const done = (answer.body.success_list as string[] | undefined) ?? [];
      const errors = (answer.body.error_list as Record<string, string> | undefined) ?? {};
      return done.includes(String(tradeId)) ? "OK" : (errors[String(tradeId)] ?? "not cancelled");
    },
    async accept(_agent, tradeofferid) {
      const answer = await send(ADMIN_TOKEN, "POST", `/sandbox/platform/offers/${tradeofferid}/accept`, {});
      return answer.ok ? "OK" : answer.failure;
    },
  };
}

async function run(world: World, steps: number): Promise<{ seconds: number; actions: string[] }> {
  const actions: string[] = [];
  const began = performance.now();
  for (let step = 0; step < steps; step++) {
    const report = await simulationStep(world.env, world.state);
    for (const action of report.actions)
      actions.push(
        `${report.step} ${action.type} ${action.agent} ${action.goodsId ?? "-"} ${action.outcome}`,
      );
  }
  return { seconds: (performance.now() - began) / 1000, actions };
}

/**
 * `npm run bench -- simulate`: the simulator's steps against the same steps with every agent
 * action sent as an HTTP request (Fastify's inject: routing, auth, validation, serialization;
 * no socket), each on its own fresh embedded database with the same seed, so both take the same
 * actions (checked). The figure is actions per second; the ratio is direct over HTTP. The HTTP
 * world's requests also run the event log's rounds after their commits, as a server's do; the
 * direct world writes the same outbox rows and leaves them unsequenced.
 */
export async function benchSimulate(steps: number, progress: (message: string) => void): Promise<Figure[]> {
  progress("simulate: two worlds (catalog, agents)");
  const direct = await openWorld();
  const overHttp = await openWorld();
  try {
    overHttp.env.verbs = await httpVerbs(overHttp);
    progress(`simulate: ${steps} steps calling the verbs`);
    const directRun = await run(direct, steps);
    progress(`simulate: ${steps} steps sending the actions over HTTP`);
    const httpRun = await run(overHttp, steps);
    const same = directRun.actions.join("\n") === httpRun.actions.join("\n");
    const directRate = directRun.actions.length / directRun.seconds;
    const httpRate = httpRun.actions.length / httpRun.seconds;
    return [
      {
        name: "simulated actions (PGlite)",
        value: directRate,
        baseline: httpRate,
        unit: "act/s",
        ratio: directRate / httpRate,
        note:
          `${directRun.actions.length} actions in ${steps} steps (${(steps / directRun.seconds).toFixed(1)} steps/s) ` +
          `calling the verbs, vs the same actions over HTTP (${(steps / httpRun.seconds).toFixed(1)} steps/s)` +
          (same ? "; both took the same actions" : "; the two runs' actions DIFFERED") +
          "; HTTP includes the event log's rounds",
      },
    ];
  } finally {
    await direct.app.close();
    await overHttp.app.close();
    await direct.database.close();
    await overHttp.database.close();
  }
}
