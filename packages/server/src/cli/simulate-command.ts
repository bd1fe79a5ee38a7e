import { existsSync, readFileSync } from "node:fs";
import type { SandboxClient } from "@skinmarket/client";
import type { ScenarioDefinition } from "@skinmarket/contract";
import { Command } from "commander";
import { parse } from "yaml";
import { execute, positiveInteger, UsageError, withServerOptions } from "./command-helpers.ts";

interface SimulationStatus {
  running: boolean;
  stepping: boolean;
  steps: number;
  actions: Record<string, number>;
  settings: { seed: number; rate: number; clock_speed: number } | null;
  goods: Array<{ goods_id: number; fair_value: string }>;
  agents: Array<{ name: string; kind: string; user_id: string }>;
  scenario?: {
    name: string;
    progress: number;
    finished: boolean;
    elapsed_seconds: number;
    duration_seconds: number;
    effects: Array<{ type: string; state: string; note: string }>;
  } | null;
}

function describeScenario(scenario: NonNullable<SimulationStatus["scenario"]>): string {
  const effects = scenario.effects
    .map((effect) => `  ${effect.type} (${effect.state})${effect.note ? `: ${effect.note}` : ""}`)
    .join("\n");
  const where = scenario.finished
    ? "finished"
    : `${Math.round(scenario.progress * 100)} % (${Math.round(scenario.elapsed_seconds / 60)} of ${Math.round(scenario.duration_seconds / 60)} min)`;
  return `scenario ${scenario.name}: ${where}\n${effects}`;
}

type ScenarioList = Awaited<ReturnType<SandboxClient["listScenarios"]>>;

/** One line a scenario (name, where it comes from, length, description or problem), then the folder. */
function describeScenarios(answer: ScenarioList): string {
  const lines = answer.items.map((item) => {
    const source = item.source === "user" ? "yours" : "built-in";
    const what = item.valid
      ? `${String(Math.round(item.duration_seconds / 60)).padStart(4)} min  ${item.description}`
      : `invalid  ${item.file}: ${item.problem}`;
    const replaces = item.overrides_builtin ? " (replaces the built-in)" : "";
    return `${item.name.padEnd(16)} ${source.padEnd(8)} ${what}${replaces}`;
  });
  const folder = answer.scenarios_folder
    ? `your scenarios: ${answer.scenarios_folder}/<name>.yaml (.yml, .json)`
    : "this server reads no scenarios folder";
  return [...lines, folder].join("\n");
}

function describeStatus(status: SimulationStatus): string {
  if (!status.settings) return "no simulation was started";
  const kinds = ["maker", "noise", "sniper"]
    .map((kind) => `${status.agents.filter((agent) => agent.kind === kind).length} ${kind}`)
    .join(", ");
  const actions = Object.entries(status.actions)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([type, count]) => `${type} ${count}`)
    .join(", ");
  const goods = status.goods.map((item) => `${item.goods_id} at ${item.fair_value}`).join(", ");
  return [
    `simulation seed ${status.settings.seed}: ${status.running ? "running" : "stopped"}, ${status.steps} steps` +
      ` at ${status.settings.rate}/s, clock x${status.settings.clock_speed}`,
    `agents: ${kinds}`,
    `goods (fair value): ${goods}`,
    `actions: ${actions || "none yet"}`,
    ...(status.scenario ? [describeScenario(status.scenario)] : []),
  ].join("\n");
}

function decimal(flag: string, value: string): number {
  if (!/^\d+(\.\d+)?$/.test(value)) throw new UsageError(`${flag} must be a number`);
  return Number(value);
}

/** `--goods 8` (how many) or `--goods 123,456` (which). */
function goodsOption(value: string): number | number[] {
  if (/^\d+$/.test(value)) return positiveInteger("--goods", value);
  const ids = value.split(",").map((part) => part.trim());
  if (!ids.every((id) => /^\d+$/.test(id)))
    throw new UsageError("--goods must be a number of goods or a comma-separated list of goods ids");
  return ids.map(Number);
}

/** A scenario file (YAML or JSON), read here and checked by the server, which names a bad field. */
function readScenarioFile(path: string): ScenarioDefinition {
  let value: unknown;
  try {
    value = parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new UsageError(
      `${path}: not a YAML or JSON scenario file (${(error as Error).message.split("\n")[0]})`,
    );
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new UsageError(`${path}: a scenario file holds an object with name, description and effects`);
  return value as ScenarioDefinition;
}

/** A name of a built-in scenario, or a path to a scenario file. */
function looksLikeFile(argument: string): boolean {
  return existsSync(argument) || /[/\\]|\.(ya?ml|json)$/i.test(argument);
}

/**
 * `skinmarket simulate start|stop|status`: the living sandbox of a running server (simulated
 * traders; docs/design/simulation.md#the-living-sandbox), over its sandbox API.
 */
export function simulateCommand(): Command {
  const simulate = withServerOptions(
    new Command("simulate").description(
      "simulated traders in a running server's sandbox: market makers, noise traders, snipers",
    ),
  );
  simulate
    .command("start")
    .description("start simulated traders (the seed of a stopped simulation resumes it)")
    .option("--seed <n>", "every draw comes from it (default 1)", (value) =>
      positiveInteger("--seed", value, 0),
    )
    .option("--rate <n>", "actions per second (default 2)", (value) => decimal("--rate", value))
    .option("--goods <n|ids>", "how many goods trade (default 8), or their ids, comma-separated", goodsOption)
    .option("--makers <n>", "market makers (default 2)", (value) => positiveInteger("--makers", value, 0))
    .option("--noise <n>", "noise traders (default 4)", (value) => positiveInteger("--noise", value, 0))
    .option("--snipers <n>", "snipers (default 1)", (value) => positiveInteger("--snipers", value, 0))
    .option("--clock-speed <n>", "sandbox seconds per real second (default 60)", (value) =>
      decimal("--clock-speed", value),
    )
    .option("--never-deliver <share>", "share of sales never delivered, 0-1 (default 0.05)", (value) =>
      decimal("--never-deliver", value),
    )
    .action(async function (this: Command) {
      const options = this.opts<{
        seed?: number;
        rate?: number;
        goods?: number | number[];
        makers?: number;
        noise?: number;
        snipers?: number;
        clockSpeed?: number;
        neverDeliver?: number;
      }>();
      await execute(
        this,
        (client) =>
          client.startSimulation({
            ...(options.seed !== undefined ? { seed: options.seed } : {}),
            ...(options.rate !== undefined ? { rate: options.rate } : {}),
            ...(options.goods !== undefined ? { goods: options.goods } : {}),
            ...(options.makers !== undefined ? { makers: options.makers } : {}),
            ...(options.noise !== undefined ? { noise: options.noise } : {}),
            ...(options.snipers !== undefined ? { snipers: options.snipers } : {}),
            ...(options.clockSpeed !== undefined ? { clock_speed: options.clockSpeed } : {}),
            ...(options.neverDeliver !== undefined ? { never_deliver: options.neverDeliver } : {}),
          }),
        describeStatus,
      );
    });
  simulate
    .command("stop")
    .description("stop the simulated traders; their world stays")
    .action(async function (this: Command) {
      await execute(this, (client) => client.stopSimulation(), describeStatus);
    });
  simulate
    .command("status")
    .description("whether it runs, its steps, actions per type, settings, goods and agents")
    .action(async function (this: Command) {
      await execute(this, (client) => client.getSimulation(), describeStatus);
    });
  simulate
    .command("scenarios")
    .description(
      "list the scenarios that run by name: the built-in ones and the files of the server's scenarios folder",
    )
    .action(async function (this: Command) {
      await execute(this, (client) => client.listScenarios(), describeScenarios);
    });
  simulate
    .command("scenario")
    .description(
      "run a scenario in the running simulation by name (built-in or a file of the server's scenarios folder), or a YAML or JSON file",
    )
    .argument(
      "<name|file>",
      "a scenario's name (see `simulate scenarios`: built-in, or yours in the server's scenarios folder) or a scenario file's path",
    )
    .addHelpText(
      "after",
      "\nExamples:\n  skinmarket simulate scenario knife-crash\n  skinmarket simulate scenario my-day            # DATA_DIR/scenarios/my-day.yaml on the server\n  skinmarket simulate scenario ./my-scenario.yaml --json\n\nThe format is in docs/sandbox.md (Scenarios). `simulate end-scenario` ends it early.",
    )
    .action(async function (this: Command, argument: string) {
      const scenario = looksLikeFile(argument) ? readScenarioFile(argument) : undefined;
      if (!scenario && !/^[a-z0-9][a-z0-9-]{0,47}$/.test(argument))
        throw new UsageError(`${argument}: neither a scenario file nor a scenario's name`);
      await execute(this, (client) => client.runScenario(scenario ?? argument), describeStatus);
    });
  simulate
    .command("end-scenario")
    .description("end the running scenario now (the platform back up, a buy-order wall cancelled)")
    .action(async function (this: Command) {
      await execute(this, (client) => client.endScenario(), describeStatus);
    });
  return simulate;
}
