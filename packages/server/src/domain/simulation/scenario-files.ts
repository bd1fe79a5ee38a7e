import { readdir, readFile, stat } from "node:fs/promises";
import { dirname, extname, join } from "node:path";
import { ScenarioDefinition } from "@skinmarket/contract";
import { Ajv, type ValidateFunction } from "ajv";
import { Lexer, parse, Parser } from "yaml";
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
/**
 * A scenario nests 4 levels (effects, an effect, its goods list); beyond this depth a file is
 * refused before it is composed, whose work grows with the depth (10,000 levels held the event
 * loop for seconds, and deeper ones would overflow the stack).
 */
export const MAX_SCENARIO_DEPTH = 32;
/** A scenario needs no YAML aliases; a few are allowed, never an alias bomb. */
const MAX_ALIAS_COUNT = 16;

let validator: ValidateFunction<ScenarioDefinition> | undefined;

/**
 * The scenario's validator, compiled when a file is first read (a compile at import would hold
 * every start, docs/design/performance.md#no-stall-at-start-or-during-a-rebuild), with the options of the request validator
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
    const depth = nestingDepth(text);
    if (depth > MAX_SCENARIO_DEPTH)
      return {
        valid: false,
        problem: `nested deeper than ${MAX_SCENARIO_DEPTH} levels; a scenario needs only a few`,
      };
    value = parse(text, { maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    return { valid: false, problem: `not YAML or JSON (${(error as Error).message.split("\n")[0]})` };
  }
  const validate = scenarioValidator();
  if (!validate(value))
    return { valid: false, problem: describeValidation(validate.errors as ValidationIssue[], "scenario") };
  return { valid: true, definition: value };
}

/**
 * How deep the text's collections nest, read from yaml's own lexer and parser (the concrete syntax
 * tree, linear in the text and without recursion), stopping as soon as it passes the bound:
 * block and flow collections alike, and JSON, count the same as when composed.
 */
function nestingDepth(text: string): number {
  const parser = new Parser();
  let deepest = 0;
  for (const lexeme of new Lexer().lex(text)) {
    for (const _token of parser.next(lexeme)) {
      // Whole documents: their depth was seen while they were built.
    }
    deepest = Math.max(deepest, parser.stack.length);
    if (deepest > MAX_SCENARIO_DEPTH) break;
  }
  return deepest;
}

/**
 * Files already read and checked, by path, kept while their modification time and size stay:
 * a list, asked at every look at the console, reads and checks again only what changed.
 */
const checkedFiles = new Map<
  string,
  { mtimeMs: number; size: number; source: ScenarioSource; file: ScenarioFile }
>();

/** A listing of the whole folder drops the files it no longer holds, so the map stays its size. */
function forgetRemovedFiles(folder: string, present: ReadonlySet<string>): void {
  for (const path of checkedFiles.keys())
    if (dirname(path) === folder && !present.has(path)) checkedFiles.delete(path);
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
    const path = join(folder, file);
    const facts = await stat(path);
    if (!facts.isFile()) continue;
    const cached = checkedFiles.get(path);
    if (
      cached &&
      cached.mtimeMs === facts.mtimeMs &&
      cached.size === facts.size &&
      cached.source === source
    ) {
      read.push(cached.file);
      continue;
    }
    const checked = await readScenarioFile(folder, file, source, facts.size);
    checkedFiles.set(path, { mtimeMs: facts.mtimeMs, size: facts.size, source, file: checked });
    read.push(checked);
  }
  if (onlyName === undefined) forgetRemovedFiles(folder, new Set(files.map((file) => join(folder, file))));
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
