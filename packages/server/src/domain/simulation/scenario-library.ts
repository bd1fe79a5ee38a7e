import type { ScenarioDefinition } from "@skinmarket/contract";
import { invalidArgument, ok, type Result } from "../result.ts";
import { builtinScenarios, findBuiltinScenario } from "./builtin-scenarios.ts";
import { readScenarioFolder, type ScenarioFile } from "./scenario-files.ts";

/**
 * The scenarios that run by name (docs/design/simulation.md#scenarios): the built-in ones and
 * the files of the user's scenarios folder (`SCENARIOS_DIR`, default `DATA_DIR/scenarios`), looked
 * at each ask (a file changed since it was last checked is read again), so a file written while
 * the server runs is there at once. A user's file of a
 * built-in's name replaces it, even when the file is broken: running the built-in instead would
 * hide the mistake.
 */
export type ScenarioEntry = ScenarioFile & { overridesBuiltin: boolean };

/** Every scenario by name, each name once (the user's file where both have it), broken files too. */
export async function listScenarios(userFolder: string | undefined): Promise<ScenarioEntry[]> {
  const users = userFolder === undefined ? [] : await readScenarioFolder(userFolder, "user");
  const userNames = new Set(users.map((entry) => entry.name));
  const builtins = builtinScenarios().map(builtinEntry);
  return [
    ...builtins.filter((entry) => !userNames.has(entry.name)),
    ...users.map((entry) => ({
      ...entry,
      overridesBuiltin: builtins.some((builtin) => builtin.name === entry.name),
    })),
  ].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.file < b.file ? -1 : 1));
}

/** The scenario of that name: the user's file, else the built-in; a broken file names its mistake. */
export async function findScenario(
  name: string,
  userFolder: string | undefined,
): Promise<Result<ScenarioDefinition>> {
  const files = userFolder === undefined ? [] : await readScenarioFolder(userFolder, "user", name);
  const file = files[0];
  if (file && !file.valid)
    return invalidArgument("name", `the scenario file ${file.file} is invalid: ${file.problem}`);
  if (file?.valid) return ok(file.definition);
  const builtin = findBuiltinScenario(name);
  if (builtin) return ok(builtin);
  const builtinNames = builtinScenarios().map((definition) => definition.name);
  const userNames =
    userFolder === undefined ? [] : (await readScenarioFolder(userFolder, "user")).map((entry) => entry.name);
  // Names only: the folder's path is the server's business, not the caller's.
  return invalidArgument(
    "name",
    `no scenario ${name}: it is not among the built-in scenarios (${builtinNames.join(", ")}) ` +
      (userFolder === undefined
        ? "and this server reads no scenarios folder"
        : `nor among yours (${userNames.length > 0 ? [...new Set(userNames)].join(", ") : "none yet"})`),
  );
}

function builtinEntry(definition: ScenarioDefinition): ScenarioEntry {
  return {
    name: definition.name,
    file: `${definition.name}.yaml`,
    source: "builtin",
    valid: true,
    definition,
    overridesBuiltin: false,
  };
}
