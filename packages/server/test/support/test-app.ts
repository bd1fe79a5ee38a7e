import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";
import type { LimiterStore } from "../../src/http/limits/limiter-store.ts";
import type { LimitSettings } from "../../src/http/plugins/limits.ts";
import { buildApp } from "../../src/app.ts";
import { OffsetClock } from "../../src/domain/clock.ts";
import { MarketChanges } from "../../src/domain/market/market-changes.ts";
import { PriceSnapshots, type SnapshotBuild } from "../../src/domain/market/price-snapshots.ts";
import type { DomainContext } from "../../src/domain/context.ts";
import type { SavedReads } from "../../src/domain/saved-reads.ts";
import { assertLedgerInvariants } from "../../src/domain/wallet/check-ledger-invariants.ts";
import type { DatabaseHandle } from "../../src/storage/database.ts";
import type { StreamSettings } from "../../src/http/stream/stream-settings.ts";
import type { SteamOpenIdSettings } from "../../src/http/steam-openid/check-authentication.ts";
import { csrfTokenOf } from "../../src/domain/secrets.ts";
import type { MailSender } from "../../src/domain/mail-sender.ts";
import { silentLog, testPlatform } from "./test-context.ts";
import { openTestDatabase } from "./test-database.ts";
import { templates } from "./test-templates.ts";
import { savedReadFiles } from "../../src/storage/saved-read-files.ts";

export const ADMIN_TOKEN = "sma_test-admin-token-0123456789";

export interface TestApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  clock: OffsetClock;
  /** The price snapshots, when made as the server makes them (`serverSnapshots`) or observed (`snapshots`). */
  snapshots?: PriceSnapshots;
  /** The market changes the app's commits count (its snapshots' source). */
  marketChanges: MarketChanges;
  /** A system context on the same database and clock, for checks made behind the API. */
  ctx: DomainContext;
  /** A request with the sandbox admin token. */
  admin(method: InjectOptions["method"], url: string, body?: unknown): Promise<LightMyRequestResponse>;
  /** A request with a user's bearer token. */
  as(
    token: string,
    method: InjectOptions["method"],
    url: string,
    body?: unknown,
  ): Promise<LightMyRequestResponse>;
  /** Creates a user through the sandbox API and answers its id, token and password. */
  createUser(
    body?: Record<string, unknown>,
  ): Promise<{ userId: string; token: string; tokenId: string; password: string; nickname: string }>;
  /** Deposits through the sandbox API. */
  fund(userId: string, account: "balance" | "margin" | "wallet", amount: string | number): Promise<void>;
  /** Signs in on the website (`/account/api/login`) and answers the cookies a browser would keep. */
  signIn(nickname: string, password: string): Promise<WebSession>;
  /**
   * A website request with a signed-in session: its cookies, and on writes the `X-CSRFToken`
   * header a browser page (and every real tool) echoes from the `csrf_token` cookie.
   */
  web(
    session: WebSession,
    method: InjectOptions["method"],
    url: string,
    body?: unknown,
  ): Promise<LightMyRequestResponse>;
  assertLedger(): Promise<void>;
  close(): Promise<void>;
}

/** The cookies of a signed-in website session. */
export interface WebSession {
  /** The `Cookie` header: `session=...` and, when the server set one, `csrf_token=...`. */
  cookie: string;
  /** The `csrf_token` cookie's value ("" when the server set none). */
  csrfToken: string;
}

/**
 * The headers of a website write made with a `Cookie` header holding `session=...`: the cookie
 * and the `X-CSRFToken` the session's `csrf_token` cookie carries.
 */
export function withCsrf(cookie: string): Record<string, string> {
  const session = /(?:^|;\s*)session=([^;]*)/.exec(cookie)?.[1] ?? "";
  return { cookie, "x-csrftoken": csrfTokenOf(session) };
}

/** The value of one cookie among `Set-Cookie` headers, or undefined. */
export function setCookieValue(setCookie: string | string[] | undefined, name: string): string | undefined {
  const header = [setCookie ?? []].flat().find((value) => value.startsWith(`${name}=`));
  return header?.split(";", 1)[0]!.slice(name.length + 1);
}

/** The app on a fresh test database with the sandbox on, as a bot developer would run it. */
export async function createTestApp(
  options: {
    sandbox?: boolean;
    /** The sandbox's folder of the user's scenario files (default: none). */
    scenariosFolder?: string;
    secureCookies?: boolean;
    catalog?: boolean;
    corsOrigins?: string[];
    /** The website's build and image base (default: `packages/web/dist`, no image base). */
    website?: { root?: string; imageBaseUrl?: string };
    /** The reference's limits (off unless asked: most suites send more than they allow). */
    limits?: { store: LimiterStore; settings?: Partial<LimitSettings> };
    /**
     * Price snapshots as the server keeps them (`serveStale`, no minutely rebuild), in
     * `TestApp.snapshots`: nobody waits for a rebuild, which runs only when asked for.
     */
    serverSnapshots?: boolean;
    /**
     * Price snapshots as the app makes them by default (answers wait for a rebuild; a recheck of
     * the catalog a minute), with these options, in `TestApp.snapshots`: `onBuild` counts builds.
     */
    snapshots?: { maxAgeMs?: number; onBuild?: (build: SnapshotBuild) => void };
    /** The event stream's heartbeat and slow-consumer limit. */
    stream?: Partial<StreamSettings>;
    /** `WEBHOOK_ALLOW_PRIVATE_URLS`: webhook receivers on this machine (default false, as the server's). */
    webhookAllowPrivateUrls?: boolean;
    /**
     * A sandbox clock that moves only when the test moves it, for rules measured in seconds (a
     * hold of 1 s must not run out while a loaded machine answers the request before).
     */
    stoppedClock?: boolean;
    /** The sandbox platform's trade protection in hours (`TRADE_PROTECTION_HOURS`; default 0 here). */
    tradeProtectionHours?: number;
    /** "Sign in through Steam": the endpoint and how Steam's names are reached (default: Steam's). */
    steamOpenId?: SteamOpenIdSettings;
    /** The mail port (default: the sandbox's mailbox with the sandbox on, none with it off). */
    mail?: MailSender;
  } = {},
): Promise<TestApp> {
  if (openApps === 0) timersBeforeApps = referencedTimers();
  const database = await openTestDatabase({ catalog: options.catalog ?? false });
  const stoppedAt = Date.now();
  const clock = options.stoppedClock ? new OffsetClock(() => stoppedAt) : new OffsetClock();
  const services = testPlatform(options.tradeProtectionHours);
  const savedReads = testSavedReads();
  const marketChanges = new MarketChanges();
  const snapshots = options.serverSnapshots
    ? new PriceSnapshots(marketChanges, 1000, { serveStale: true, maxAgeMs: Infinity })
    : options.snapshots
      ? new PriceSnapshots(marketChanges, 1000, options.snapshots)
      : undefined;
  const app = await buildApp({
    database,
    clock,
    ...services,
    marketChanges,
    ...(savedReads ? { savedReads } : {}),
    ...(snapshots ? { priceSnapshots: snapshots, snapshotServeStale: options.serverSnapshots ?? false } : {}),
    ...(options.sandbox === false
      ? {}
      : {
          sandbox: {
            clock,
            adminToken: ADMIN_TOKEN,
            ...(options.scenariosFolder ? { scenariosFolder: options.scenariosFolder } : {}),
          },
        }),
    secureCookies: options.secureCookies ?? false,
    ...(options.corsOrigins ? { corsOrigins: options.corsOrigins } : {}),
    ...(options.website ? { website: options.website } : {}),
    ...(options.stream ? { stream: options.stream } : {}),
    ...(options.webhookAllowPrivateUrls ? { webhookAllowPrivateUrls: true } : {}),
    ...(options.steamOpenId ? { steamOpenId: options.steamOpenId } : {}),
    ...(options.mail ? { mail: options.mail } : {}),
    ...(options.limits
      ? {
          limits: {
            store: options.limits.store,
            settings: { defaultRate: { points: 20, seconds: 1 }, overrides: {}, ...options.limits.settings },
          },
        }
      : {}),
  });
  const request = (
    authorization: string | undefined,
    method: InjectOptions["method"],
    url: string,
    body?: unknown,
  ) =>
    app.inject({
      method,
      url,
      headers: authorization ? { authorization: `Bearer ${authorization}` } : {},
      ...(body === undefined ? {} : { payload: body as InjectOptions["payload"] }),
    });
  const testApp: TestApp = {
    app,
    database,
    clock,
    ...(snapshots ? { snapshots } : {}),
    marketChanges,
    ctx: {
      db: database.db,
      clock,
      actor: { kind: "system" },
      log: silentLog,
      ...services,
      ...(savedReads ? { savedReads } : {}),
    },
    admin: (method, url, body) => request(ADMIN_TOKEN, method, url, body),
    as: (token, method, url, body) => request(token, method, url, body),
    async createUser(body = {}) {
      const response = await request(ADMIN_TOKEN, "POST", "/sandbox/users", body);
      if (response.statusCode !== 200) throw new Error(`createUser: ${response.statusCode} ${response.body}`);
      const created = response.json<{
        user_id: string;
        token: string;
        token_id: string;
        password: string;
        nickname: string;
      }>();
      return {
        userId: created.user_id,
        token: created.token,
        tokenId: created.token_id,
        password: created.password,
        nickname: created.nickname,
      };
    },
    async fund(userId, account, amount) {
      const response = await request(ADMIN_TOKEN, "POST", `/sandbox/users/${userId}/funds`, {
        account,
        amount,
      });
      if (response.statusCode !== 200) throw new Error(`fund: ${response.statusCode} ${response.body}`);
    },
    async signIn(nickname, password) {
      const response = await app.inject({
        method: "POST",
        url: "/account/api/login",
        payload: { nickname, password },
      });
      if (response.statusCode !== 200) throw new Error(`signIn: ${response.statusCode} ${response.body}`);
      const session = setCookieValue(response.headers["set-cookie"], "session");
      if (!session) throw new Error("signIn: no session cookie");
      const csrfToken = setCookieValue(response.headers["set-cookie"], "csrf_token") ?? "";
      return {
        cookie: csrfToken ? `session=${session}; csrf_token=${csrfToken}` : `session=${session}`,
        csrfToken,
      };
    },
    web: (session, method, url, body) =>
      app.inject({
        method,
        url,
        headers: {
          cookie: session.cookie,
          ...(method === "GET" || method === "HEAD" ? {} : { "x-csrftoken": session.csrfToken }),
        },
        ...(body === undefined ? {} : { payload: body as InjectOptions["payload"] }),
      }),
    assertLedger: () => assertLedgerInvariants(database.db),
    async close() {
      try {
        await app.close();
      } finally {
        await database.close();
        openApps -= 1;
      }
      if (openApps === 0) await checkNoTimerLeft();
    },
  };
  openApps += 1;
  return testApp;
}

/**
 * The run's saved reads, which the global setup primed with the catalog template's goods
 * (docs/design/architecture.md#the-catalogs-read-is-saved); none for a file run on its own.
 */
function testSavedReads(): SavedReads | undefined {
  const folder = templates().savedReads;
  return folder ? savedReadFiles(folder) : undefined;
}

/** Test apps open in this process, and the referenced timers there were before the first opened. */
let openApps = 0;
let timersBeforeApps = 0;

function referencedTimers(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;
}

/**
 * Once the last app and its database are closed, nothing they started may keep the process
 * alive: a referenced timer left behind holds the test process open after its tests passed.
 * Sockets destroyed by the close finish closing (and clear their timers) over the next turns of
 * the event loop, and a client of an unreachable Redis ends its last attempt within a second or
 * two, so the count has up to 3 s to settle; a timer left behind stays. Unreferenced
 * timers are not counted, as they hold nothing. The count is measured against the one when the
 * first of the open apps opened: fewer than then is no leak (timers of what ran before, such as an
 * earlier file's where files share a process, ran out meanwhile). A timer found fails the run
 * through the exit code rather than by throwing here, so that the test's own cleanup after the
 * close still runs.
 */
async function checkNoTimerLeft(): Promise<void> {
  for (let turn = 0; turn < SETTLE_TURNS && referencedTimers() > timersBeforeApps; turn++)
    await new Promise((resolve) => setTimeout(resolve, SETTLE_TURN_MS));
  const left = referencedTimers() - timersBeforeApps;
  if (left <= 0) return;
  process.exitCode = 1;
  process.stderr.write(
    `test-app: ${left} referenced timer(s) still active after the test app and its database closed: ${process.getActiveResourcesInfo().join(", ")}\n`,
  );
}

const SETTLE_TURNS = 60;
const SETTLE_TURN_MS = 50;
