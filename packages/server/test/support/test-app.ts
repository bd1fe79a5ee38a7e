import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";
import type { LimiterStore } from "../../src/http/limits/limiter-store.ts";
import type { LimitSettings } from "../../src/http/plugins/limits.ts";
import { buildApp } from "../../src/app.ts";
import { loadCatalog } from "../../src/domain/catalog/load-catalog.ts";
import { OffsetClock } from "../../src/domain/clock.ts";
import type { DomainContext } from "../../src/domain/context.ts";
import { assertLedgerInvariants } from "../../src/domain/wallet/check-ledger-invariants.ts";
import type { DatabaseHandle } from "../../src/storage/database.ts";
import { silentLog, testPlatform } from "./test-context.ts";
import { openTestDatabase } from "./test-database.ts";

export const ADMIN_TOKEN = "sma_test-admin-token-0123456789";

export interface TestApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  clock: OffsetClock;
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
  assertLedger(): Promise<void>;
  close(): Promise<void>;
}

/** The app on a fresh test database with the sandbox on, as a bot developer would run it. */
export async function createTestApp(
  options: {
    sandbox?: boolean;
    secureCookies?: boolean;
    catalog?: boolean;
    /** The reference's limits (off unless asked: most suites send more than they allow). */
    limits?: { store: LimiterStore; settings?: Partial<LimitSettings> };
  } = {},
): Promise<TestApp> {
  const database = await openTestDatabase();
  const clock = new OffsetClock();
  const services = testPlatform();
  const app = await buildApp({
    database,
    clock,
    ...services,
    ...(options.sandbox === false ? {} : { sandbox: { clock, adminToken: ADMIN_TOKEN } }),
    secureCookies: options.secureCookies ?? false,
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
    ctx: { db: database.db, clock, actor: { kind: "system" }, log: silentLog, ...services },
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
    assertLedger: () => assertLedgerInvariants(database.db),
    async close() {
      await app.close();
      await database.close();
    },
  };
  if (options.catalog) {
    const loaded = await loadCatalog(testApp.ctx);
    if (!loaded.ok) throw new Error(loaded.failure.message);
  }
  return testApp;
}
