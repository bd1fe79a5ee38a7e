import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { parseReadme } from "../support/readme-blocks.ts";

const ROOT = join(import.meta.dirname, "../../../..");

/** The shell commands of a document's section, from its heading to the next of its level. */
function sectionCommands(file: string, heading: string): string[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  const start = text.indexOf(`\n${heading}\n`);
  assert.ok(start >= 0, `${file} has no "${heading}"`);
  const end = text.indexOf("\n## ", start + heading.length + 2);
  const section = text.slice(start, end < 0 ? undefined : end);
  return parseReadme(section).flatMap((block) => block.commands.map((command) => command.text));
}

test("the README and docs/sandbox.md show the same three commands to a living market and a scenario", () => {
  const readme = sectionCommands("README.md", "## A living market").slice(0, 3);
  const sandbox = sectionCommands("docs/sandbox.md", "## The living market (simulated traders)").slice(0, 3);
  assert.deepEqual(sandbox, readme);
  assert.deepEqual(
    readme.map((command) =>
      command
        .split("#")[0]!
        .trim()
        .replace(/ --[a-z].*$/, ""),
    ),
    [
      "npm start",
      "npm run -s skinmarket -- simulate start",
      "npm run -s skinmarket -- simulate scenario knife-crash",
    ],
  );
});
