import { readdir, readFile, stat } from "node:fs/promises";
import { extname, join } from "node:path";
import { ScenarioDefinition } from "@skinmarket/contract";
import { Ajv, type ValidateFunction } from "ajv";
import { parse } from "yaml";
import { describeValidation, type ValidationIssue } from "../describe-validation.ts";

/**
 * Scenario files (docs/sandbox.md, "Scenarios"): YAML or JSON checked against the contract's
 * `ScenarioDefinition`, the schema a run's body is checked against, with the same options, and
 * their mistakes said the same way (`effects.0.share: must be <= 1`).
 */

/** Where a scenario that runs by name comes from: the repository, or the user's scenarios folder. */
export type ScenarioSource = "builtin" | "user";

/** A scenario file: the definition it holds, or what is wrong with it. */
export type ScenarioFile = { name: string; file: string; source: ScenarioSource } & (
  { valid: true; definition: ScenarioDefinition } | { valid: false; problem: string }
);

export const SCENARIO_EXTENSIONS = [".yaml", ".yml", ".json"] as const;
const SCENARIO_NAME = /^[a-z0-9][a-z0-9-]{0,47}$/;
/** A scenario is a few lines; anything this large is not one (and is not read whole). */
const MAX_FILE_BYTES = 1024 * 1024;

let validator: ValidateFunction<ScenarioDefinition> | undefined;

/**
 * The scenario's validator, compiled when a file is first read (a compile at import would hold
 * every start, docs/design.md section 12), with the options of the request validator
 * (http/plugins/validation.ts) that bear on a JSON value.
 */
function scenarioValidator(): ValidateFunction<ScenarioDefinition> {
  validator ??= new Ajv({
    strict: false,
    allErrors: false,
    verbose: true,
    strictNumbers: true,
    coerceTypes: false,
    removeAdditional: false,
  }).compile<ScenarioDefinition>(ScenarioDefinition);
  return validator;
}

/** A scenario file's text read and checked: the definition, or its first mistake naming the field. */
export function checkScenarioText(
  text: string,
): { valid: true; definition: ScenarioDefinition } | { valid: false; problem: string } {
  let value: unknown;
  try {
    value = parse(text);
  } catch (error) {
    return { valid: false, problem: `not YAML or JSON (${(error as Error).message.split("\n")[0]})` };
  }
  const validate = scenarioValidator();
  if (!validate(value))
    return { valid: false, problem: describeValidation(validate.errors as ValidationIssue[], "scenario") };
  return { valid: true, definition: value };
}

/**
 * The scenario files of a folder (`.yaml`, `.yml`, `.json`), by file name; `onlyName` reads only
 * the files of that name. A file is named after its scenario (`my-day.yaml` holds `name: my-day`),
 * so a name finds one file without reading the others. A folder that does not exist holds none.
 */
export async function readScenarioFolder(
  folder: string,
  source: ScenarioSource,
  onlyName?: string,
): Promise<ScenarioFile[]> {
  let entries: string[];
  try {
    entries = await readdir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const files = entries
    .filter((file) => (SCENARIO_EXTENSIONS as readonly string[]).includes(extname(file).toLowerCase()))
    .filter((file) => onlyName === undefined || stem(file) === onlyName)
    .sort();
  const read: ScenarioFile[] = [];
  for (const file of files) {
    const facts = await stat(join(folder, file));
    if (!facts.isFile()) continue;
    read.push(await readScenarioFile(folder, file, source, facts.size));
  }
  // Two files of one name (`x.yaml` and `x.json`): neither is the scenario `x` until one goes.
  return read.map((entry) => {
    const twins = read.filter((other) => other.name === entry.name).map((other) => other.file);
    if (twins.length < 2) return entry;
    return {
      name: entry.name,
      file: entry.file,
      source,
      valid: false,
      problem: `${twins.join(" and ")} both name the scenario ${entry.name}; keep one`,
    };
  });
}

async function readScenarioFile(
  folder: string,
  file: string,
  source: ScenarioSource,
  size: number,
): Promise<ScenarioFile> {
  const name = stem(file);
  const refused = (problem: string): ScenarioFile => ({ name, file, source, valid: false, problem });
  if (!SCENARIO_NAME.test(name))
    return refused(
      "the file's name must be the scenario's name: lowercase letters, digits and dashes (1-48), e.g. my-day.yaml",
    );
  if (size > MAX_FILE_BYTES) return refused("larger than 1 MiB");
  const checked = checkScenarioText(await readFile(join(folder, file), "utf8"));
  if (!checked.valid) return refused(checked.problem);
  if (checked.definition.name !== name) return refused(`name: must be ${name}, the file's name`);
  return { name, file, source, valid: true, definition: checked.definition };
}

function stem(file: string): string {
  return file.slice(0, file.length - extname(file).length);
}
