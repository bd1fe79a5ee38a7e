import { readdirSync, readFileSync } from "node:fs";
import type { ScenarioDefinition } from "@skinmarket/contract";
import { checkScenarioText } from "./scenario-files.ts";

/** The built-in scenarios: one YAML file each in `packages/server/scenarios` (docs/sandbox.md). */
const SCENARIO_DIR = new URL("../../../scenarios/", import.meta.url);

let cache: ScenarioDefinition[] | undefined;

/** Every built-in scenario, by name order; read once. A broken one is a bug of the repository. */
export function builtinScenarios(): ScenarioDefinition[] {
  cache ??= readdirSync(SCENARIO_DIR)
    .filter((file) => file.endsWith(".yaml"))
    .sort()
    .map((file) => {
      const checked = checkScenarioText(readFileSync(new URL(file, SCENARIO_DIR), "utf8"));
      if (!checked.valid) throw new Error(`${file}: ${checked.problem}`);
      if (`${checked.definition.name}.yaml` !== file)
        throw new Error(`${file}: its name is ${checked.definition.name}`);
      return checked.definition;
    });
  return cache;
}

export function findBuiltinScenario(name: string): ScenarioDefinition | undefined {
  return builtinScenarios().find((scenario) => scenario.name === name);
}
