import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "node:test";

/**
 * The most lines a source file may have (issue 35: a file past it holds more than one concern and
 * is split by responsibility). No file is exempt.
 */
const MAX_LINES = 500;

/** The repository's root: this file is packages/contract/test/source-size.test.ts. */
const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** TypeScript and style sheets under a package's src, scripts or bench folder. */
const SOURCE = /^packages\/[^/]+\/(src|scripts|bench)\/.+\.(tsx?|css)$/;

/** The committed source files, as git lists them (a file the repository does not hold is not read). */
function sourceFiles(): string[] {
  const listed = execFileSync("git", ["ls-files", "-z", "--", "packages"], { cwd: ROOT, encoding: "utf8" });
  return listed.split("\0").filter((path) => SOURCE.test(path));
}

/** Lines as `wc -l` counts them, and a last line without its newline too. */
function lineCount(text: string): number {
  const newlines = text.split("\n").length - 1;
  return text.endsWith("\n") || text.length === 0 ? newlines : newlines + 1;
}

test(`no source file or style sheet under packages/*/src, scripts or bench is over ${MAX_LINES} lines`, () => {
  const files = sourceFiles();
  // The listing itself must have found the sources: an empty one would pass for nothing.
  assert.ok(files.length > 100, `git ls-files found ${files.length} source files under packages/`);
  assert.ok(
    files.includes("packages/contract/src/index.ts"),
    "the listing misses packages/contract/src/index.ts",
  );
  assert.ok(
    files.some((path) => path.endsWith(".css")),
    "the listing misses the website's style sheets",
  );
  const offenders = files
    .map((path) => ({ path, lines: lineCount(readFileSync(join(ROOT, path), "utf8")) }))
    .filter((file) => file.lines > MAX_LINES)
    .sort((a, b) => b.lines - a.lines);
  assert.deepEqual(
    offenders.map((file) => `${file.path}: ${file.lines} lines`),
    [],
    `split these by responsibility (one concern a file), each to ${MAX_LINES} lines or fewer`,
  );
});

test("the line count is the one wc -l gives, a last line without its newline counted", () => {
  assert.equal(lineCount(""), 0);
  assert.equal(lineCount("a\n"), 1);
  assert.equal(lineCount("a\nb"), 2);
  assert.equal(lineCount("a\nb\n"), 2);
  assert.equal(lineCount(`${"x\n".repeat(MAX_LINES + 1)}`), MAX_LINES + 1);
});
