import assert from "node:assert/strict";
import { existsSync, globSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { test } from "node:test";

/**
 * CI runs every suite on the embedded database (`npm test`) and then only the server's suites
 * that reach a database on PostgreSQL (`npm run test:pg`: `packages/server/test/` except `unit/`
 * and `cli/`; docs/design/architecture.md#what-ci-runs-where). The rule holds only while the
 * folders say the truth: nothing the PostgreSQL pass leaves out may open a database, unless it
 * starts `skinmarket` on the embedded database only (`EMBEDDED_ONLY`), which the PostgreSQL pass
 * would skip anyway.
 */
const ROOT = join(import.meta.dirname, "../../../..");
/** Modules through which a suite opens a database or starts a server that opens one. */
const DATABASE_MODULES = [
  "packages/server/src/storage/database.ts",
  "packages/server/test/support/test-database.ts",
  "packages/server/test/support/skinmarket-process.ts",
];

/** The relative modules a file loads when it runs: type-only imports are erased, so not followed. */
function relativeImports(file: string): string[] {
  const text = readFileSync(file, "utf8").replace(/(?:import|export)\s+type\s[^;]*;/g, "");
  return [...text.matchAll(/(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)].flatMap((match) => {
    const path = resolve(dirname(file), match[1]!);
    return existsSync(path) ? [path] : [];
  });
}

/** Every module the file reaches through relative imports, the file included. */
function reached(file: string): Set<string> {
  const seen = new Set<string>();
  const pending = [resolve(file)];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (seen.has(next)) continue;
    seen.add(next);
    pending.push(...relativeImports(next));
  }
  return seen;
}

test("the suites the PostgreSQL pass leaves out open no database, or run on the embedded one only", () => {
  const leftOut = globSync(
    ["packages/server/test/{unit,cli}/**/*.test.ts", "packages/{contract,client,web}/test/**/*.test.ts"],
    { cwd: ROOT },
  );
  assert.ok(leftOut.length > 30, `found ${leftOut.length} suites`);
  const databaseModules = DATABASE_MODULES.map((path) => join(ROOT, path));
  const wrong = leftOut.filter((file) => {
    const modules = reached(join(ROOT, file));
    const opensDatabase = databaseModules.some((module) => modules.has(module));
    const embeddedOnly = /\{ skip: [^}]*EMBEDDED_ONLY \}/.test(readFileSync(join(ROOT, file), "utf8"));
    return opensDatabase && !embeddedOnly;
  });
  assert.deepEqual(wrong, [], "suites that open a database but are left out of the PostgreSQL pass");
});

test("the check sees a suite's database: a suite built on the test app reaches it", () => {
  const modules = reached(join(ROOT, "packages/server/test/http/balance.test.ts"));
  assert.ok(modules.has(join(ROOT, DATABASE_MODULES[0]!)));
});
