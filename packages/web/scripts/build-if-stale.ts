/**
 * Builds the website when its build is missing or older than any of its sources, so that
 * `npm start` and `npm run dev` on a fresh clone serve the pages (docs/design/website.md#the-website).
 * Run before both (`prestart`, `predev`); a build up to date costs a directory walk.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const WEB = join(import.meta.dirname, "..");
const BUILT = join(WEB, "dist", "index.html");
const SOURCES = ["src", "index.html", "vite.config.ts", "package.json"];

function newest(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((latest, name) => Math.max(latest, newest(join(path, name))), stat.mtimeMs);
}

const builtAt = existsSync(BUILT) ? statSync(BUILT).mtimeMs : -1;
const sourcesAt = Math.max(...SOURCES.map((source) => newest(join(WEB, source))));
if (builtAt >= sourcesAt) process.exit(0);

console.error(existsSync(BUILT) ? "website: sources changed, building" : "website: not built yet, building");
const vite = join(WEB, "../../node_modules/vite/bin/vite.js");
const result = spawnSync(process.execPath, [vite, "build", "--logLevel", "warn"], {
  cwd: WEB,
  stdio: "inherit",
});
process.exit(result.status ?? 1);
