import { Type } from "typebox";
import { GoodsId, MoneyString, StrictObject } from "../common.ts";
import { defineOperation } from "../operation.ts";

/** The living sandbox (docs/design.md section 15): simulated traders, started and stopped here. */
const sandbox = { access: "sandbox_admin", envelope: "sandbox", tags: ["Sandbox"] } as const;

const SimulationSettingsFields = {
  seed: Type.Integer({
    minimum: 0,
    maximum: 4_294_967_295,
    description: "Every draw comes from it (default 1)",
  }),
  rate: Type.Number({ minimum: 0.01, maximum: 100, description: "Actions per second (default 2)" }),
  goods: Type.Union(
    [Type.Integer({ minimum: 1, maximum: 200 }), Type.Array(GoodsId, { minItems: 1, maxItems: 200 })],
    {
      description:
        "How many goods trade, drawn from the seed among goods with prices (default 8), or their ids",
    },
  ),
  makers: Type.Integer({ minimum: 0, maximum: 50, description: "Market makers (default 2)" }),
  noise: Type.Integer({ minimum: 0, maximum: 50, description: "Noise traders (default 4)" }),
  snipers: Type.Integer({ minimum: 0, maximum: 50, description: "Snipers (default 1)" }),
  clock_speed: Type.Number({
    minimum: 1,
    maximum: 3600,
    description: "Sandbox seconds per real second while it runs (default 60)",
  }),
  never_deliver: Type.Number({
    minimum: 0,
    maximum: 1,
    description: "The share of sales whose seller never sends the offer (default 0.05)",
  }),
};

export const SimulationSettingsBody = StrictObject({
  seed: Type.Optional(SimulationSettingsFields.seed),
  rate: Type.Optional(SimulationSettingsFields.rate),
  goods: Type.Optional(SimulationSettingsFields.goods),
  makers: Type.Optional(SimulationSettingsFields.makers),
  noise: Type.Optional(SimulationSettingsFields.noise),
  snipers: Type.Optional(SimulationSettingsFields.snipers),
  clock_speed: Type.Optional(SimulationSettingsFields.clock_speed),
  never_deliver: Type.Optional(SimulationSettingsFields.never_deliver),
});

export const SimulationStatus = Type.Object({
  running: Type.Boolean({ description: "Started and not stopped (a restart resumes it)" }),
  stepping: Type.Boolean({ description: "This server instance is taking its steps now" }),
  steps: Type.Integer({ minimum: 0 }),
  actions: Type.Record(Type.String(), Type.Integer({ minimum: 0 }), {
    description: "Actions taken, per type (list, reprice, bid, cancel_bid, buy, snipe, deliver, accept, ...)",
  }),
  settings: Type.Union([Type.Object(SimulationSettingsFields), Type.Null()]),
  goods: Type.Array(Type.Object({ goods_id: GoodsId, fair_value: MoneyString })),
  agents: Type.Array(
    Type.Object({
      name: Type.String(),
      kind: Type.Union([Type.Literal("maker"), Type.Literal("noise"), Type.Literal("sniper")]),
      user_id: Type.String(),
    }),
  ),
});

export const sandboxStartSimulation = defineOperation({
  ...sandbox,
  id: "sandboxStartSimulation",
  method: "POST",
  path: "/sandbox/simulation/start",
  summary: "Starts simulated traders (or resumes the stopped simulation of the same seed)",
  body: SimulationSettingsBody,
  response: SimulationStatus,
});

export const sandboxStopSimulation = defineOperation({
  ...sandbox,
  id: "sandboxStopSimulation",
  method: "POST",
  path: "/sandbox/simulation/stop",
  summary: "Stops the simulated traders; their world stays",
  response: SimulationStatus,
});

export const sandboxGetSimulation = defineOperation({
  ...sandbox,
  id: "sandboxGetSimulation",
  method: "GET",
  path: "/sandbox/simulation",
  summary: "The simulation's state: running, steps, actions per type, settings, goods and agents",
  response: SimulationStatus,
});
