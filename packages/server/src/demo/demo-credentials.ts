import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { DemoMarketReport, DemoTrader } from "./build-demo-market.ts";

/** Where the demo traders' passwords and tokens are written, beside the embedded database. */
export const DEMO_CREDENTIALS_FILE = "demo-traders.json";

export function demoCredentialsPath(dataDir: string): string {
  return join(dataDir, DEMO_CREDENTIALS_FILE);
}

/**
 * Writes the traders' credentials (readable by the owner only). A world built beside an earlier
 * one (`--add`) adds its traders to the file instead of replacing the earlier ones.
 */
export async function writeDemoCredentials(path: string, traders: DemoTrader[]): Promise<void> {
  let earlier: TraderCredentials[] = [];
  try {
    const parsed = JSON.parse(await readFile(path, "utf8")) as { traders?: TraderCredentials[] };
    earlier = parsed.traders ?? [];
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT" && !(error instanceof SyntaxError)) throw error;
  }
  const ids = new Set(traders.map((trader) => trader.userId));
  const all = [...earlier.filter((trader) => !ids.has(trader.user_id)), ...traders.map(credentialsOf)];
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify({ traders: all }, null, 2)}\n`, { mode: 0o600 });
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
    `  ${count(report.traders.length)} traders; their passwords and API tokens are in ${credentialsPath}`,
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

/** Progress on a terminal: one line per phase, rewritten in place. */
export function progressPrinter(stream: NodeJS.WritableStream & { isTTY?: boolean }) {
  let lastLine = "";
  return (progress: { phase: string; done: number; total: number }) => {
    const percent = progress.total === 0 ? 100 : Math.floor((100 * progress.done) / progress.total);
    const line = `demo: ${progress.phase} ${percent}%`;
    if (line === lastLine) return;
    const finished = progress.done >= progress.total;
    if (stream.isTTY) stream.write(`\r${line}${finished ? "\n" : ""}`);
    else if (finished || percent % 10 === 0) stream.write(`${line}\n`);
    lastLine = line;
  };
}
