import { Type } from "typebox";
import { GoodsId, MoneyString, needingOneOf, StrictObject } from "../common.ts";
import { defineOperation } from "../operation.ts";
import { ScenarioDefinition } from "../scenario.ts";

/** The living sandbox (docs/design/simulation.md#the-living-sandbox): simulated traders, started and stopped here. */
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

const ScenarioName = Type.String({
  pattern: "^[a-z0-9][a-z0-9-]{0,47}$",
  description:
    "A scenario's name: a built-in one or a file of the scenarios folder (GET /sandbox/simulation/scenarios)",
});

const EffectState = Type.Union([Type.Literal("pending"), Type.Literal("active"), Type.Literal("done")]);

/** A scenario as it runs: its effects and how far it got (sandbox time). */
export const ScenarioProgress = Type.Object({
  name: Type.String(),
  description: Type.String(),
  started_at: Type.Integer({ description: "Sandbox time it started (Unix seconds)" }),
  elapsed_seconds: Type.Integer({ minimum: 0 }),
  duration_seconds: Type.Integer({ minimum: 0 }),
  progress: Type.Number({ minimum: 0, maximum: 1, description: "Elapsed share of its duration" }),
  finished: Type.Boolean(),
  effects: Type.Array(
    Type.Object({
      type: Type.String(),
      at_seconds: Type.Integer({ minimum: 0 }),
      for_seconds: Type.Integer({ minimum: 0 }),
      state: EffectState,
      note: Type.String({ description: "What the effect did or acts on (goods, accounts, orders)" }),
    }),
  ),
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
      kind: Type.Union([
        Type.Literal("maker"),
        Type.Literal("noise"),
        Type.Literal("sniper"),
        Type.Literal("whale"),
      ]),
      user_id: Type.String(),
    }),
  ),
  scenario: Type.Union([ScenarioProgress, Type.Null()], { description: "The scenario run last, if any" }),
  recent: Type.Array(
    Type.Object({
      step: Type.Integer({ minimum: 0 }),
      type: Type.String(),
      agent: Type.String(),
      goods_id: Type.Union([GoodsId, Type.Null()]),
      price: Type.Union([MoneyString, Type.Null()]),
      outcome: Type.String(),
    }),
    { description: "The last actions taken, newest last (at most 20)" },
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

export const ScenarioSummary = Type.Object({
  name: Type.String({ description: "What runs it: `POST /sandbox/simulation/scenario {name}`" }),
  source: Type.Union([Type.Literal("builtin"), Type.Literal("user")], {
    description: "`builtin`: a file of the repository; `user`: a file of the server's scenarios folder",
  }),
  file: Type.String({ description: "The file it is read from (`knife-crash.yaml`)" }),
  overrides_builtin: Type.Boolean({
    description: "A file of the scenarios folder with a built-in scenario's name, which it replaces",
  }),
  valid: Type.Boolean({ description: "The file holds a scenario; an invalid one does not run" }),
  problem: Type.Union([Type.String(), Type.Null()], {
    description: "What is wrong with an invalid file, naming the field (`effects.0.share: must be <= 1`)",
  }),
  description: Type.String(),
  duration_seconds: Type.Integer({ minimum: 0 }),
  effects: Type.Array(Type.String(), { description: "The effects' types, in order" }),
  definition: Type.Unknown({
    description: "The scenario as its file says it (the body of a custom run); null for an invalid file",
  }),
});

export const sandboxListScenarios = defineOperation({
  ...sandbox,
  id: "sandboxListScenarios",
  method: "GET",
  path: "/sandbox/simulation/scenarios",
  summary: "The scenarios that run by name: the built-in ones and the files of the server's scenarios folder",
  description:
    "The built-in scenarios (crash, spike, case release, outage, cookie storm, non-delivery, rollbacks, " +
    "buy-order wall) and the YAML or JSON files of the scenarios folder (`SCENARIOS_DIR`, default " +
    "`DATA_DIR/scenarios`), read at each ask, by name; a file of a built-in's name replaces it. A file that " +
    "does not hold a valid scenario is listed with `valid: false` and its `problem`.",
  response: Type.Object({
    items: Type.Array(ScenarioSummary),
    scenarios_folder: Type.Union([Type.String(), Type.Null()], {
      description: "Where the server reads your scenario files from (null: it reads none)",
    }),
  }),
});

export const sandboxRunScenario = defineOperation({
  ...sandbox,
  id: "sandboxRunScenario",
  method: "POST",
  path: "/sandbox/simulation/scenario",
  summary:
    "Runs a scenario in the simulation by name (built-in or a file of the scenarios folder), or one given whole",
  description:
    "Give `name` (a built-in scenario, or a file of the server's scenarios folder, which wins over a built-in " +
    "of its name; a file that is not a valid scenario is refused naming the file and the field) or `scenario` (the format of docs/sandbox.md, as a scenario file holds it). " +
    "Its effects start at the simulation's next steps, timed by the sandbox clock. A simulation must have been " +
    "started; a scenario that has not finished must be ended first (`Invalid State`).",
  body: StrictObject(
    { name: Type.Optional(ScenarioName), scenario: Type.Optional(ScenarioDefinition) },
    needingOneOf("name", "scenario"),
  ),
  response: SimulationStatus,
});

export const sandboxEndScenario = defineOperation({
  ...sandbox,
  id: "sandboxEndScenario",
  method: "DELETE",
  path: "/sandbox/simulation/scenario",
  summary: "Ends the running scenario now: its active effects end (the platform back up, the wall cancelled)",
  response: SimulationStatus,
});
