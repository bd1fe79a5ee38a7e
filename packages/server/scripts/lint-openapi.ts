import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { appOpenApiDocument } from "./app-openapi-document.ts";

/**
 * `npm run lint:openapi` (part of `npm run check`): lints the OpenAPI document the app serves, built
 * in this process, with Redocly's rules and the repository's `redocly.yaml` (docs/design/wire-conventions.md#the-openapi-document). Redocly fails on errors only; here a warning fails too.
 */
const ROOT = resolve(import.meta.dirname, "../../..");
const REDOCLY = join(ROOT, "node_modules/@redocly/cli/bin/cli.js");

const document = await appOpenApiDocument();

const directory = mkdtempSync(join(tmpdir(), "skinmarket-openapi-"));
try {
  const file = join(directory, "openapi.json");
  writeFileSync(file, JSON.stringify(document, null, 2));
  const lint = (format: string) =>
    spawnSync(
      process.execPath,
      [REDOCLY, "lint", file, "--config", join(ROOT, "redocly.yaml"), "--format", format],
      {
        encoding: "utf8",
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
      },
    );
  // A warning fails too, and is then shown as Redocly shows it.
  const { totals } = JSON.parse(lint("json").stdout) as { totals: { errors: number; warnings: number } };
  if (totals.errors + totals.warnings > 0) {
    const shown = lint("codeframe");
    process.stderr.write(`${shown.stdout}${shown.stderr}`);
    process.stderr.write(`lint:openapi: ${totals.errors} errors and ${totals.warnings} warnings\n`);
    process.exitCode = 1;
  }
} finally {
  rmSync(directory, { recursive: true, force: true });
}
