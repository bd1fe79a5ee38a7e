import { sql } from "kysely";
import { sha256Hex, generateSecret, tokenDisplayPrefix } from "../domain/secrets.ts";
import type { SecretBox } from "../domain/secret-box.ts";
import { USER_ACCOUNT_KINDS } from "../domain/wallet/ledger.ts";
import { LOGIN_COOKIE } from "../platform/sandbox/platform-sessions.ts";
import { tradeUrlOf } from "../domain/platform/trade-url.ts";
import type { AccessLevel } from "../storage/schema.ts";
import { insertRows, reserveIds } from "./bulk-rows.ts";
import { DemoRandom, STREAM } from "../domain/simulation/demo-random.ts";
import { DAY_MS, type DemoTrader, type DemoWorld, type TraderPlan } from "./demo-world.ts";

const COOKIE_LIFETIME_MS = 30 * DAY_MS;
/** Not an argon2id hash: verifying any password against it fails. */
const PENDING_HASH = "!pending";

/**
 * The traders, a batch at a time: the first `CREDENTIALED_TRADERS` with their own password and
 * API token (answered, for the credentials file), the rest with the shared locked password.
 */
export async function writeDemoTraders(
  world: DemoWorld,
  secretBox: SecretBox | undefined,
): Promise<DemoTrader[]> {
  const { traders: count, seed } = world.settings;
  const secrets = world.secrets;
  world.progress("traders", 0, count);
  const firstUser = await reserveIds(world.tx, { table: "users", column: "user_id" }, count);
  const firstAccount = await reserveIds(
    world.tx,
    { table: "ledger_accounts", column: "account_id" },
    count * USER_ACCOUNT_KINDS.length,
  );
  const system = await world.tx
    .selectFrom("ledger_accounts")
    .select(["account_id", "kind"])
    .where("user_id", "is", null)
    .execute();
  world.systemAccounts = {
    fees: system.find((row) => row.kind === "fees")!.account_id,
    external: system.find((row) => row.kind === "external")!.account_id,
  };
  const createdAt = new Date(world.start.getTime() - DAY_MS);
  const platformids = new Set<string>();
  const credentialed: DemoTrader[] = [];
  for (let start = 0; start < count; start += world.batch) {
    const batch: Array<DemoTrader & { passwordHash: string; credentialed: boolean }> = [];
    for (let index = start; index < Math.min(count, start + world.batch); index++) {
      const random = new DemoRandom(seed, STREAM.trader, index);
      let platformid: string;
      do platformid = `7656119${random.int(7_960_265_729, 9_999_999_999)}`;
      while (platformids.has(platformid));
      platformids.add(platformid);
      const tradeToken = Array.from({ length: 8 }, () => random.pick(TOKEN_ALPHABET)).join("");
      const userId = firstUser + index;
      const accounts = Object.fromEntries(
        USER_ACCOUNT_KINDS.map((kind, k) => [kind, firstAccount + index * USER_ACCOUNT_KINDS.length + k]),
      ) as TraderPlan["accounts"];
      world.traders.push({
        userId,
        platformid,
        tradeUrl: tradeUrlOf(platformid, tradeToken),
        accounts,
        deposit: 0,
        balance: 0,
        createdAt: new Date(createdAt.getTime() + index * 1000),
      });
      const own = secrets.credentialed[index];
      const trader = {
        userId,
        nickname: nicknameOf(seed, index, random),
        password: own?.password ?? "",
        token: own?.token ?? "",
        // Hashed beside the build and written at its end (writeDemoPasswordHashes), in the same
        // transaction: no one ever sees this placeholder, which matches no password anyway.
        passwordHash: PENDING_HASH,
        credentialed: own !== undefined,
        // Every fifth trader has enterprise access, so that the enterprise operations can be tried.
        accessLevel: (index % 5 === 0 ? "enterprise" : "developer") as AccessLevel,
        platformid,
        tradeUrl: tradeUrlOf(platformid, tradeToken),
      };
      batch.push(trader);
      if (trader.credentialed) {
        const { passwordHash: _hash, credentialed: _own, ...shown } = trader;
        credentialed.push(shown);
      }
    }
    await writeTraderRows(world, batch, start, secretBox);
    world.progress("traders", start + batch.length, count);
  }
  return credentialed;
}

/**
 * The traders' password hashes, once the worker threads have made them: the credentialed traders'
 * own, the shared locked one for the rest. One statement, before the build commits.
 */
export async function writeDemoPasswordHashes(world: DemoWorld): Promise<void> {
  const first = world.traders[0]?.userId;
  if (first === undefined) return;
  const { credentialed, lockedHash } = await world.secrets.hashes;
  await sql`
    UPDATE users AS u SET password_hash = coalesce(h.hash, ${lockedHash})
    FROM generate_series(${first}::bigint, ${first + world.traders.length - 1}::bigint) AS ids(user_id)
      LEFT JOIN unnest(${credentialed}::text[]) WITH ORDINALITY AS h(hash, n)
        ON h.n = ids.user_id - ${first}::bigint + 1
    WHERE u.user_id = ids.user_id
  `.execute(world.tx);
}

/** One batch of traders: users, tokens, platform accounts bound and set up, and their sessions. */
async function writeTraderRows(
  world: DemoWorld,
  batch: Array<DemoTrader & { passwordHash: string; credentialed: boolean }>,
  first: number,
  secretBox: SecretBox | undefined,
): Promise<void> {
  const at = (offset: number) => world.traders[first + offset]!.createdAt.toISOString();
  await insertRows(
    world.tx,
    "users",
    {
      user_id: "bigint",
      nickname: "text",
      password_hash: "text",
      access_level: "text",
      created_at: "timestamptz",
      updated_at: "timestamptz",
    },
    batch.map((trader, offset) => ({
      user_id: trader.userId,
      nickname: trader.nickname,
      password_hash: trader.passwordHash,
      access_level: trader.accessLevel,
      created_at: at(offset),
      updated_at: at(offset),
    })),
  );
  await insertRows(
    world.tx,
    "api_tokens",
    { user_id: "bigint", token_hash: "text", prefix: "text", created_at: "timestamptz" },
    batch.flatMap((trader, offset) =>
      trader.credentialed
        ? [
            {
              user_id: trader.userId,
              token_hash: sha256Hex(trader.token),
              prefix: tokenDisplayPrefix(trader.token),
              created_at: at(offset),
            },
          ]
        : [],
    ),
  );
  await insertRows(
    world.tx,
    "sandbox_platform_accounts",
    { platformid: "text", trade_token: "text", inventory_public: "boolean", created_at: "timestamptz" },
    batch.map((trader, offset) => ({
      platformid: trader.platformid,
      trade_token: trader.tradeUrl.slice(-8),
      inventory_public: true,
      created_at: at(offset),
    })),
  );
  // Bound and set up (public inventory, trade URL known), inventories refreshed as the world
  // stands now, and with the server's key a live platform session whose cookies are stored.
  const sessions = batch.map((trader) => {
    const secret = generateSecret();
    return {
      platformid: trader.platformid,
      secret,
      cookies: [
        { domain: "steamcommunity.com", key: LOGIN_COOKIE, value: `${trader.platformid}%7C%7C${secret}` },
        { domain: "steamcommunity.com", key: "sessionid", value: generateSecret().slice(0, 24) },
      ],
    };
  });
  if (secretBox) {
    await insertRows(
      world.tx,
      "sandbox_platform_sessions",
      { platformid: "text", secret_hash: "text", issued_at: "timestamptz", expires_at: "timestamptz" },
      sessions.map((session) => ({
        platformid: session.platformid,
        secret_hash: sha256Hex(session.secret),
        issued_at: world.now.toISOString(),
        expires_at: new Date(world.now.getTime() + COOKIE_LIFETIME_MS).toISOString(),
      })),
    );
  }
  await insertRows(
    world.tx,
    "bound_platform_accounts",
    {
      platformid: "text",
      user_id: "bigint",
      bound_at: "timestamptz",
      trade_url: "text",
      cookies_sealed: "text",
      cookie_state: "text",
      cookies_checked_at: "timestamptz",
      inventory_refreshed_at: "timestamptz",
    },
    batch.map((trader, offset) => ({
      platformid: trader.platformid,
      user_id: trader.userId,
      bound_at: at(offset),
      trade_url: trader.tradeUrl,
      cookies_sealed: secretBox
        ? secretBox.seal(JSON.stringify(sessions[offset]!.cookies), trader.platformid)
        : null,
      cookie_state: secretBox ? "valid" : null,
      cookies_checked_at: secretBox ? world.now.toISOString() : null,
      inventory_refreshed_at: world.now.toISOString(),
    })),
  );
}

const TOKEN_ALPHABET = [..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"];
const NICK_FIRST = ["Silver", "Quick", "Lucky", "Night", "Iron", "Red", "Frost", "Golden", "Shadow", "Wild"];
const NICK_SECOND = ["Fox", "Hawk", "Trader", "Wolf", "Falcon", "Tiger", "Viper", "Dealer", "Raven", "Skins"];

/** A trader's nickname: readable, unique within the build (the index), and telling the seed. */
function nicknameOf(seed: number, index: number, random: DemoRandom): string {
  return `${random.pick(NICK_FIRST)}${random.pick(NICK_SECOND)}-${seed}-${index + 1}`.slice(0, 32);
}
