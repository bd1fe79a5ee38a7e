import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { DemoMarketReport } from "./build-demo-market.ts";
import type { DemoTrader } from "./demo-world.ts";

/** Where the demo traders' passwords and tokens are written, beside the embedded database. */
export const DEMO_CREDENTIALS_FILE = "demo-traders.json";

export function demoCredentialsPath(dataDir: string): string {
  return join(dataDir, DEMO_CREDENTIALS_FILE);
}

/** Traders of a build that have no credentials of their own: consecutive user ids. */
export interface TradersWithoutCredentials {
  first_user_id: number;
  last_user_id: number;
  count: number;
  note: string;
}

interface CredentialsFile {
  traders?: TraderCredentials[];
  traders_without_credentials?: TradersWithoutCredentials[];
}

/**
 * Writes the traders' credentials (readable by the owner only). A world built beside an earlier
 * one (`--add`) adds its traders to the file instead of replacing the earlier ones. The traders
 * beyond the credentialed ones are named by their user ids and what they lack.
 */
export async function writeDemoCredentials(
  path: string,
  built: Pick<DemoMarketReport, "traders" | "traderCount">,
): Promise<void> {
  let earlier: CredentialsFile = {};
  try {
    earlier = JSON.parse(await readFile(path, "utf8")) as CredentialsFile;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT" && !(error instanceof SyntaxError)) throw error;
  }
  const { traders } = built;
  const ids = new Set(traders.map((trader) => trader.userId));
  const all = [
    ...(earlier.traders ?? []).filter((trader) => !ids.has(trader.user_id)),
    ...traders.map(credentialsOf),
  ];
  const without = [...(earlier.traders_without_credentials ?? [])];
  const others = built.traderCount - traders.length;
  if (others > 0 && traders.length > 0) {
    const first = traders[traders.length - 1]!.userId + 1;
    without.push({
      first_user_id: first,
      last_user_id: first + others - 1,
      count: others,
      note: `only the first ${traders.length} traders of this build got a password and an API token; these share a locked password nobody knows and have no token`,
    });
  }
  const file: CredentialsFile = {
    traders: all,
    ...(without.length > 0 ? { traders_without_credentials: without } : {}),
  };
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  await chmod(path, 0o600);
}

/** One trader in the credentials file. */
export type TraderCredentials = ReturnType<typeof credentialsOf>;

function credentialsOf(trader: DemoTrader) {
  return {
    user_id: trader.userId,
    nickname: trader.nickname,
    password: trader.password,
    token: trader.token,
    access_level: trader.accessLevel,
    platformid: trader.platformid,
    trade_url: trader.tradeUrl,
  };
}

/** The trader a new user tries first: one with enterprise access, so that every operation answers. */
export function showcaseTrader(report: DemoMarketReport): DemoTrader | undefined {
  return report.traders.find((trader) => trader.accessLevel === "enterprise") ?? report.traders[0];
}

/** What was built, for people: one paragraph and a command to try. */
export function describeDemoMarket(
  report: DemoMarketReport,
  credentialsPath: string,
  baseUrl = "http://127.0.0.1:8080",
): string {
  const count = (value: number) => value.toLocaleString("en-US");
  const trader = showcaseTrader(report);
  const busiest = report.busiestGoods[0];
  return [
    `Demo market (seed ${report.seed}) built in ${(report.milliseconds.total / 1000).toFixed(1)} s:`,
    `  ${count(report.listings)} listings of ${count(report.goodsOnSale)} goods (${count(report.preSellListings)} pre-sell),`,
    `  ${count(report.trades)} completed trades over ${report.days} days, ${count(report.buyOrders)} buy orders,`,
    report.traderCount > report.traders.length
      ? `  ${count(report.traderCount)} traders; the passwords and API tokens of the first ${count(report.traders.length)} are in ${credentialsPath}`
      : `  ${count(report.traders.length)} traders; their passwords and API tokens are in ${credentialsPath}`,
    ...(trader
      ? [
          `  ${trader.nickname} (user ${trader.userId}, ${trader.accessLevel}) has the token ${trader.token}`,
          `  try: curl -H 'Authorization: Bearer ${trader.token}' '${baseUrl}/api/market/items?game=cs2'`,
        ]
      : []),
    ...(busiest
      ? [
          `  most traded: ${busiest.marketHashName} (goods_id ${busiest.goodsId}, ${busiest.trades} trades):`,
          `  curl '${baseUrl}/api/market/goods/sell_order?game=csgo&goods_id=${busiest.goodsId}'`,
        ]
      : []),
  ].join("\n");
}

/**
 * Progress on stderr: per phase, the share done, rows done of the total, the rate and the time
 * left. On a terminal one line per phase, rewritten in place; otherwise (a log, a pipe) a line at
 * each tenth of the phase and at least every `everyMs` while it runs, and one when it ends.
 */
export function progressPrinter(
  stream: NodeJS.WritableStream & { isTTY?: boolean },
  options: { now?: () => number; everyMs?: number } = {},
) {
  const now = options.now ?? (() => performance.now());
  const everyMs = options.everyMs ?? 10_000;
  let phase = "";
  let phaseStarted = 0;
  let lastTenth = -1;
  let lastWritten = 0;
  let lastLine = "";
  return (progress: { phase: string; done: number; total: number }) => {
    const at = now();
    if (progress.phase !== phase) {
      phase = progress.phase;
      phaseStarted = at;
      lastTenth = -1;
    }
    const finished = progress.done >= progress.total;
    const percent = progress.total === 0 ? 100 : Math.floor((100 * progress.done) / progress.total);
    const seconds = (at - phaseStarted) / 1000;
    const rate = seconds > 0 ? progress.done / seconds : 0;
    const count = (value: number) => Math.round(value).toLocaleString("en-US");
    const details = [`${count(progress.done)}/${count(progress.total)}`];
    // A rate says something for phases of many rows, not for a single step (ledger, analyze).
    if (rate > 0 && progress.total > 1) details.push(`${count(rate)}/s`);
    if (finished) details.push(`${seconds.toFixed(1)} s`);
    else if (rate > 0 && progress.total > 1)
      details.push(`ETA ${durationOf((progress.total - progress.done) / rate)}`);
    const line = `demo: ${phase} ${percent}% (${details.join(", ")})`;
    if (line === lastLine) return;
    lastLine = line;
    if (stream.isTTY) {
      stream.write(`\r\x1b[K${line}${finished ? "\n" : ""}`);
      return;
    }
    const tenth = Math.floor(percent / 10);
    if (finished || tenth !== lastTenth || at - lastWritten >= everyMs) {
      stream.write(`${line}\n`);
      lastTenth = tenth;
      lastWritten = at;
    }
  };
}

/** Seconds as a person reads them: `42 s`, `7 min 5 s`, `1 h 3 min`. */
function durationOf(seconds: number): string {
  const whole = Math.ceil(seconds);
  if (whole < 60) return `${whole} s`;
  if (whole < 3600) return `${Math.floor(whole / 60)} min ${whole % 60} s`;
  return `${Math.floor(whole / 3600)} h ${Math.floor((whole % 3600) / 60)} min`;
}
