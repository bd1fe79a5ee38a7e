import { readdirSync, readFileSync } from "node:fs";
import { ScenarioDefinition } from "@skinmarket/contract";
import { Ajv } from "ajv";
import { parse } from "yaml";

/** The built-in scenarios: one YAML file each in `packages/server/scenarios` (docs/sandbox.md). */
const SCENARIO_DIR = new URL("../../../scenarios/", import.meta.url);

const validate = new Ajv({ strict: false, allErrors: false }).compile(ScenarioDefinition);

/** A scenario file's text (YAML, of which JSON is a part) checked against the contract's schema. */
export function parseScenarioText(text: string, source: string): ScenarioDefinition {
  const value: unknown = parse(text);
  if (!validate(value)) {
    const issue = validate.errors?.[0];
    throw new Error(`${source}: ${issue?.instancePath || "/"} ${issue?.message ?? "is not a scenario"}`);
  }
  return value;
}

let cache: ScenarioDefinition[] | undefined;

/** Every built-in scenario, by name order; read once. */
export function builtinScenarios(): ScenarioDefinition[] {
  cache ??= readdirSync(SCENARIO_DIR)
    .filter((file) => file.endsWith(".yaml"))
    .sort()
    .map((file) => {
      const scenario = parseScenarioText(readFileSync(new URL(file, SCENARIO_DIR), "utf8"), file);
      if (`${scenario.name}.yaml` !== file) throw new Error(`${file}: its name is ${scenario.name}`);
      return scenario;
    });
  return cache;
}

export function findBuiltinScenario(name: string): ScenarioDefinition | undefined {
  return builtinScenarios().find((scenario) => scenario.name === name);
}
