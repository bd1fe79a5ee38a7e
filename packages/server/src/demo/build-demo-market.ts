import { Kysely, sql, type Transaction } from "kysely";
import { DEFAULT_MARKET_RULES, type MarketRules } from "../domain/context.ts";
import { sellerFee } from "../domain/market/seller-fee.ts";
import { toAssetInfo } from "../domain/platform-accounts/asset-info.ts";
import { recomputeLiquidityRanks } from "../domain/liquidity/recompute-liquidity-ranks.ts";
import { hashPassword } from "../domain/password-hash.ts";
import { SecretBox } from "../domain/secret-box.ts";
import { SandboxPlatform } from "../platform/sandbox/sandbox-platform.ts";
import { generateApiToken, generateSecret, sha256Hex, tokenDisplayPrefix } from "../domain/secrets.ts";
import { DELIVERY_WINDOW_MS } from "../domain/market/delivery-window.ts";
import { offerMessage } from "../domain/trades/send-trade-offer.ts";
import { USER_ACCOUNT_KINDS } from "../domain/wallet/ledger.ts";
import { toPlatformAsset, type SandboxAssetRow } from "../platform/sandbox/asset-rows.ts";
import { LOGIN_COOKIE } from "../platform/sandbox/platform-sessions.ts";
import { OFFER_LIFETIME_MS, TRADE_COOLDOWN_MS } from "../platform/sandbox/trade-offers.ts";
import { tradeUrlOf } from "../domain/platform/trade-url.ts";
import type { DatabaseHandle } from "../storage/database.ts";
import type { AccessLevel, Database, GoodsTagRow } from "../storage/schema.ts";
import { insertRows, reserveIds, suspendForeignKeys } from "./bulk-rows.ts";
import { mintDemoItem, type DemoGoods, type DemoItem, type Extra } from "./demo-items.ts";
import { askingPrice, coverageWeight, popularity, typicalPrice } from "../domain/simulation/demo-prices.ts";
import { DemoRandom, WeightedPicker } from "../domain/simulation/demo-random.ts";

/**
 * The demo market (docs/design.md section 10, "Decided for the demo market"): a world of traders
 * with platform accounts and inventories, listings across the catalog, buy orders in the public
 * book and weeks of completed trades, fixed by a seed. It is written set-based, a batch of rows per
 * statement, in one transaction, and leaves exactly the rows the verbs would have left: a
 * completed trade is a sold listing, a trade in SUCCESS, an accepted trade offer that moved the
 * item to the buyer under a new assetid, and the purchase and payout journal entries; every
 * trader's money came in by a deposit. Secrets (passwords, API tokens, platform cookies) are
 * random, not drawn from the seed: knowing the seed never lets anyone act as a demo trader.
 */

export interface DemoMarketOptions {
  /** Same seed, same world (default 1). */
  seed?: number;
  /** Listings on sale (default 40,000: more than 20,000 goods get one). */
  listings?: number;
  traders?: number;
  /** Traders with a password and an API token of their own (default `CREDENTIALED_TRADERS`). */
  credentialedTraders?: number;
  /** How far back the completed trades go. */
  days?: number;
  /** Completed trades (default: 30 % of the listings). */
  trades?: number;
  /** Buy orders in the public book (default: 10 % of the listings). */
  buyOrders?: number;
  /** The moment the world is built at (default: now). */
  now?: Date;
  rules?: MarketRules;
  /** With the server's key, the traders' platform cookies are stored so that they can send offers. */
  secretBox?: SecretBox;
  /** Build beside existing users instead of refusing. */
  add?: boolean;
  /** Rows per statement. */
  batchSize?: number;
  /**
   * More listings, beyond `listings`, on the most popular standard goods in turn: a market where
   * many buyers want the same few goods (the purchase benchmark's hot rows).
   */
  popularListings?: { goods: number; listings: number };
}

/**
 * Traders with a password and an API token of their own, written to the credentials file: every
 * trader of the default demo. The others (a demo of a million users) share one argon2id hash of a
 * password nobody was told, and have no API token: a hash costs 30-100 ms of CPU. The hashes run
 * in the password-hashing worker threads (`domain/password-hash.ts`, one or two at a time) while
 * the build goes on (before, Node 24's `crypto.argon2` held the event loop: 1,000 hashes held the
 * build for 113 s), but a million would still take the pool the better part of a day. They trade in
 * the world's history, sell and bid; nobody signs in as them.
 */
export const CREDENTIALED_TRADERS = 100;

export const DEMO_DEFAULTS = {
  seed: 1,
  listings: 40_000,
  traders: 100,
  days: 30,
} as const;

export type DemoPhase =
  "traders" | "trades" | "listings" | "buy orders" | "ledger" | "foreign keys" | "liquidity" | "analyze";

export interface DemoProgress {
  /**
   * A phase, the credentialed traders' passwords (hashed in worker threads while the build
   * starts), or the first pass over the trades (drawn to be numbered oldest first).
   */
  phase: DemoPhase | "passwords" | "trade plans";
  done: number;
  total: number;
}

export interface DemoTrader {
  userId: number;
  nickname: string;
  password: string;
  token: string;
  accessLevel: AccessLevel;
  platformid: string;
  tradeUrl: string;
}

export interface DemoMarketReport {
  seed: number;
  listings: number;
  preSellListings: number;
  goodsOnSale: number;
  trades: number;
  buyOrders: number;
  days: number;
  /** The traders with credentials of their own (the first `CREDENTIALED_TRADERS`). */
  traders: DemoTrader[];
  /** Every trader built, with credentials or not. */
  traderCount: number;
  /** The goods with the most completed trades, most first (item pages worth a look). */
  busiestGoods: Array<{ goodsId: number; marketHashName: string; trades: number }>;
  /** Milliseconds per phase and in all. */
  milliseconds: Record<DemoPhase | "total", number>;
}

/** The market already holds users and `add` was not given. */
export class DemoMarketRefused extends Error {}

const DAY_MS = 24 * 3600 * 1000;
const HOUR_MS = 3600 * 1000;
const MINUTE_MS = 60 * 1000;
const PRE_SELL_SHARE = 0.05;
/** Each trader's money beyond what their purchases cost: buy orders must be covered. */
const CUSHION_FEN = 20_000_000;
const COOKIE_LIFETIME_MS = 30 * DAY_MS;
/** The tables a build writes (their foreign keys are checked at its end). */
const DEMO_TABLES = [
  "users",
  "api_tokens",
  "web_sessions",
  "ledger_accounts",
  "journal_entries",
  "journal_lines",
  "sandbox_platform_accounts",
  "sandbox_platform_sessions",
  "sandbox_assets",
  "sandbox_trade_offers",
  "bound_platform_accounts",
  "platform_inventory_items",
  "listings",
  "trades",
  "buy_orders",
];
/** Any constant shared by every instance: one demo build at a time. */
const DEMO_LOCK_KEY = 730_002;

/** Streams of the generator: each kind of thing draws from its own. */
const STREAM = { trader: 1, coverage: 2, trade: 3, listing: 4, buyOrder: 5 } as const;

type Db = Kysely<Database>;

export async function buildDemoMarket(
  db: Db | DatabaseHandle,
  options: DemoMarketOptions = {},
  onProgress: (progress: DemoProgress) => void = () => {},
): Promise<DemoMarketReport> {
  const kysely = db instanceof Kysely ? db : db.db;
  const settings = {
    seed: options.seed ?? DEMO_DEFAULTS.seed,
    listings: options.listings ?? DEMO_DEFAULTS.listings,
    traders: options.traders ?? DEMO_DEFAULTS.traders,
    days: options.days ?? DEMO_DEFAULTS.days,
    popularListings: options.popularListings ?? { goods: 0, listings: 0 },
  };
  const trades = options.trades ?? Math.round((settings.listings * 3) / 10);
  const buyOrders = options.buyOrders ?? Math.round(settings.listings / 10);
  if (!Number.isSafeInteger(settings.seed)) throw new RangeError("seed must be a whole number");
  if (settings.traders < 2) throw new RangeError("traders: at least 2 (a trade needs a buyer and a seller)");
  if (settings.listings < 0 || trades < 0 || buyOrders < 0) throw new RangeError("counts cannot be negative");
  if (settings.popularListings.listings > 0 && settings.popularListings.goods < 1)
    throw new RangeError("popularListings.goods: at least 1 when popularListings.listings is given");
  if (settings.days < 1) throw new RangeError("days: at least 1");
  const now = options.now ?? new Date();
  const rules = options.rules ?? DEFAULT_MARKET_RULES;
  const batch = options.batchSize ?? 2000;
  const started = performance.now();
  const milliseconds = {} as DemoMarketReport["milliseconds"];
  let phaseStarted = started;
  const finishPhase = (phase: DemoPhase) => {
    const at = performance.now();
    milliseconds[phase] = Math.round(at - phaseStarted);
    phaseStarted = at;
  };

  if (!options.add) await refuseUnlessEmpty(kysely);
  // Secrets: argon2id is slow and runs in the password-hashing worker threads, beside the first
  // reads of the build, which the event loop is free to run.
  const credentialed = options.credentialedTraders ?? CREDENTIALED_TRADERS;
  if (!Number.isSafeInteger(credentialed) || credentialed < 1)
    throw new RangeError("credentialedTraders: at least 1 (the trader a new user tries first)");
  const secrets = credentialsFor(settings.traders, credentialed, (done, total) =>
    onProgress({ phase: "passwords", done, total }),
  );

  const report = await kysely.transaction().execute(async (tx) => {
    // A starting picture, not history: the build writes no events (docs/design.md section 14).
    await sql`SELECT set_config('skinmarket.events', 'off', true)`.execute(tx);
    const world = new DemoWorld(tx, settings, { trades, buyOrders, now, rules, batch, onProgress, secrets });
    await world.check(options.add ?? false);
    await world.loadCatalog();
    // Into an empty market, each foreign key is checked once at the end rather than per row. A
    // build added to a market in use keeps them: its tables stay free for the requests.
    const keys = options.add ? undefined : await suspendForeignKeys(tx, DEMO_TABLES);
    const traders = await world.writeTraders(options.secretBox);
    finishPhase("traders");
    const busiest = await world.writeTrades();
    finishPhase("trades");
    const listed = await world.writeListings();
    finishPhase("listings");
    const orders = await world.writeBuyOrders();
    finishPhase("buy orders");
    await world.writeLedger();
    finishPhase("ledger");
    if (keys) {
      onProgress({ phase: "foreign keys", done: 0, total: keys.count });
      await keys.restore((done) => onProgress({ phase: "foreign keys", done, total: keys.count }));
    }
    finishPhase("foreign keys");
    return { traders, listed, orders, busiest };
  });
  // Liquidity ranks from the weeks of trades now, not at the daily job's next run.
  onProgress({ phase: "liquidity", done: 0, total: 1 });
  const ranks = await recomputeLiquidityRanks({
    db: kysely,
    clock: { now: () => now },
    actor: { kind: "system" },
    log: { info() {}, warn() {}, error() {} },
    platform: new SandboxPlatform(),
    secretBox: options.secretBox ?? new SecretBox(SecretBox.generateKey()),
    rules,
  });
  if (!ranks.ok) throw new Error(`liquidity ranks: ${ranks.failure.message}`);
  onProgress({ phase: "liquidity", done: 1, total: 1 });
  finishPhase("liquidity");
  onProgress({ phase: "analyze", done: 0, total: 1 });
  // Fresh statistics, so that the planner uses the market's indexes from the first query on.
  await sql`ANALYZE listings, trades, buy_orders, sandbox_assets`.execute(kysely);
  onProgress({ phase: "analyze", done: 1, total: 1 });
  finishPhase("analyze");
  milliseconds.total = Math.round(performance.now() - started);
  return {
    seed: settings.seed,
    listings: settings.listings + settings.popularListings.listings,
    preSellListings: report.listed.preSell,
    goodsOnSale: report.listed.goods,
    trades,
    buyOrders: report.orders,
    days: settings.days,
    traders: report.traders,
    traderCount: settings.traders,
    busiestGoods: report.busiest,
    milliseconds,
  };
}

interface TraderSecrets {
  /** Passwords, their hashes and API tokens of the credentialed traders, by index. */
  credentialed: Array<{ password: string; passwordHash: string; token: string }>;
  /** The hash every other trader shares, of a password thrown away ("" when there are none). */
  lockedHash: string;
}

async function credentialsFor(
  traders: number,
  credentialed: number,
  onHashed: (done: number, total: number) => void,
): Promise<TraderSecrets> {
  const total = Math.min(traders, credentialed);
  let done = 0;
  onHashed(done, total);
  // Every hash is asked for at once: the pool runs them as fast as its threads allow, and the
  // answers keep the traders' order (trader i gets the i-th password, whichever hash ends first).
  const [hashed, lockedHash] = await Promise.all([
    Promise.all(
      Array.from({ length: total }, async () => {
        const password = generateSecret().slice(0, 20);
        const passwordHash = await hashPassword(password);
        onHashed((done += 1), total);
        return { password, passwordHash, token: generateApiToken() };
      }),
    ),
    traders > total ? hashPassword(generateSecret()) : "",
  ]);
  return { credentialed: hashed, lockedHash };
}

interface Settings {
  seed: number;
  listings: number;
  traders: number;
  days: number;
  popularListings: { goods: number; listings: number };
}

interface TraderPlan {
  userId: number;
  platformid: string;
  tradeUrl: string;
  /** Account ids by kind. */
  accounts: Record<(typeof USER_ACCOUNT_KINDS)[number], number>;
  deposit: number;
  balance: number;
  createdAt: Date;
}

interface TradePlan {
  goods: DemoGoods;
  item: DemoItem;
  seller: number;
  buyer: number;
  listedAt: Date;
  acquiredAt: Date;
  boughtAt: Date;
  offeredAt: Date;
  completedAt: Date;
  price: number;
  fee: number;
}

const ASSET_COLUMNS = {
  assetid: "bigint",
  platformid: "text",
  goods_id: "integer",
  classid: "text",
  instanceid: "text",
  paintwear: "text",
  paintseed: "integer",
  paintindex: "integer",
  stickers: "jsonb",
  keychains: "jsonb",
  nametag: "text",
  tradable_after: "timestamptz",
  acquired_at: "timestamptz",
  traded_to_assetid: "bigint",
  traded_from_assetid: "bigint",
} as const;

const INVENTORY_COLUMNS = {
  platformid: "text",
  assetid: "bigint",
  goods_id: "integer",
  paintwear: "numeric",
  has_nametag: "boolean",
  tradable_after: "timestamptz",
  acquired_at: "timestamptz",
  asset: "jsonb",
} as const;

const LISTING_COLUMNS = {
  listing_id: "bigint",
  user_id: "bigint",
  platformid: "text",
  assetid: "bigint",
  goods_id: "integer",
  price: "bigint",
  fee: "bigint",
  state: "text",
  allow_bargain: "boolean",
  allow_wallet_zft: "boolean",
  allow_epay: "boolean",
  allow_pending_divide_balance: "boolean",
  force_buyer_send_offer: "boolean",
  description: "text",
  paintwear: "numeric",
  paintseed: "integer",
  paintindex: "integer",
  tradable_after: "timestamptz",
  trade_ended: "boolean",
  created_at: "timestamptz",
  updated_at: "timestamptz",
} as const;

class DemoWorld {
  readonly #tx: Transaction<Database>;
  readonly #settings: Settings;
  readonly #trades: number;
  readonly #buyOrders: number;
  readonly #now: Date;
  readonly #rules: MarketRules;
  readonly #batch: number;
  readonly #onProgress: (progress: DemoProgress) => void;
  readonly #secrets: Promise<TraderSecrets>;
  /** When the world begins: accounts open and money comes in a day before the first trade. */
  readonly #start: Date;

  #goods: DemoGoods[] = [];
  #typical = new Map<number, number>();
  #covered: DemoGoods[] = [];
  #popular!: WeightedPicker;
  /** The most popular standard goods on sale, most first (`popularListings`). */
  #mostPopular: DemoGoods[] = [];
  #extras: { stickers: Extra[]; charms: Extra[] } = { stickers: [], charms: [] };
  #traders: TraderPlan[] = [];
  #systemAccounts = { fees: 0, external: 0 };
  #entries: Array<Record<string, unknown>> = [];
  #lines: Array<Record<string, unknown>> = [];
  #feesTotal = 0;
  /** The cheapest listing on sale per goods: buy orders bid below it. */
  #cheapest = new Map<number, number>();

  constructor(
    tx: Transaction<Database>,
    settings: Settings,
    extra: {
      trades: number;
      buyOrders: number;
      now: Date;
      rules: MarketRules;
      batch: number;
      onProgress: (progress: DemoProgress) => void;
      secrets: Promise<TraderSecrets>;
    },
  ) {
    this.#tx = tx;
    this.#settings = settings;
    this.#trades = extra.trades;
    this.#buyOrders = extra.buyOrders;
    this.#now = extra.now;
    this.#rules = extra.rules;
    this.#batch = extra.batch;
    this.#onProgress = extra.onProgress;
    this.#secrets = extra.secrets;
    this.#start = new Date(extra.now.getTime() - (settings.days + 1) * DAY_MS);
  }

  async check(add: boolean): Promise<void> {
    // Two instances starting together with DEMO=on: the second waits, then finds the first's world.
    await sql`SELECT pg_advisory_xact_lock(${DEMO_LOCK_KEY})`.execute(this.#tx);
    const goods = await sql<{ count: string }>`SELECT count(*)::text AS count FROM goods`.execute(this.#tx);
    if (goods.rows[0]?.count === "0")
      throw new Error("the catalog is not loaded: start the server once first");
    if (!add) await refuseUnlessEmpty(this.#tx);
  }

  async loadCatalog(): Promise<void> {
    const rows = await this.#tx
      .selectFrom("goods")
      .select([
        "goods_id",
        "market_hash_name",
        "short_name",
        "type",
        "quality",
        "exterior",
        "tags",
        "paintwear_min",
        "paintwear_max",
        "paint_index",
        "is_standard",
        "icon_url",
        "game_index",
      ])
      .orderBy("goods_id")
      .execute();
    this.#goods = rows.map((row) => ({ ...row, tags: parseTags(row.tags) }));
    this.#extras = {
      stickers: kitsOf(rows, "sticker"),
      charms: kitsOf(rows, "charm"),
    };
    const seed = this.#settings.seed;
    for (const goods of this.#goods) this.#typical.set(goods.goods_id, typicalPrice(goods, seed));
    // Which goods are on sale: a weighted sample without replacement (Efraimidis-Spirakis keys),
    // at least one listing each; more than half the listings' count, up to the whole catalog.
    const coverage = Math.min(this.#goods.length, Math.ceil((this.#settings.listings * 55) / 100));
    const keyed = this.#goods.map((goods) => {
      const random = new DemoRandom(seed, STREAM.coverage, goods.goods_id);
      return { goods, key: -Math.log(1 - random.next()) / coverageWeight(goods) };
    });
    keyed.sort((a, b) => a.key - b.key || a.goods.goods_id - b.goods.goods_id);
    this.#covered = keyed.slice(0, coverage).map((entry) => entry.goods);
    const weights = this.#covered.map((goods) => popularity(goods, this.#typical.get(goods.goods_id)!, seed));
    this.#popular = new WeightedPicker(weights);
    this.#mostPopular = this.#covered
      .map((goods, index) => ({ goods, weight: weights[index]! }))
      .filter((entry) => entry.goods.is_standard)
      .sort((a, b) => b.weight - a.weight || a.goods.goods_id - b.goods.goods_id)
      .slice(0, this.#settings.popularListings.goods)
      .map((entry) => entry.goods);
  }

  /**
   * The traders, a batch at a time: the first `CREDENTIALED_TRADERS` with their own password and
   * API token (answered, for the credentials file), the rest with the shared locked password.
   */
  async writeTraders(secretBox: SecretBox | undefined): Promise<DemoTrader[]> {
    const { traders: count, seed } = this.#settings;
    const secrets = await this.#secrets;
    this.#progress("traders", 0, count);
    const firstUser = await reserveIds(this.#tx, { table: "users", column: "user_id" }, count);
    const firstAccount = await reserveIds(
      this.#tx,
      { table: "ledger_accounts", column: "account_id" },
      count * USER_ACCOUNT_KINDS.length,
    );
    const system = await this.#tx
      .selectFrom("ledger_accounts")
      .select(["account_id", "kind"])
      .where("user_id", "is", null)
      .execute();
    this.#systemAccounts = {
      fees: system.find((row) => row.kind === "fees")!.account_id,
      external: system.find((row) => row.kind === "external")!.account_id,
    };
    const createdAt = new Date(this.#start.getTime() - DAY_MS);
    const platformids = new Set<string>();
    const credentialed: DemoTrader[] = [];
    for (let start = 0; start < count; start += this.#batch) {
      const batch: Array<DemoTrader & { passwordHash: string; credentialed: boolean }> = [];
      for (let index = start; index < Math.min(count, start + this.#batch); index++) {
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
        this.#traders.push({
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
          passwordHash: own?.passwordHash ?? secrets.lockedHash,
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
      await this.#writeTraderRows(batch, start, secretBox);
      this.#progress("traders", start + batch.length, count);
    }
    return credentialed;
  }

  /** One batch of traders: users, tokens, platform accounts bound and set up, and their sessions. */
  async #writeTraderRows(
    batch: Array<DemoTrader & { passwordHash: string; credentialed: boolean }>,
    first: number,
    secretBox: SecretBox | undefined,
  ): Promise<void> {
    const at = (offset: number) => this.#traders[first + offset]!.createdAt.toISOString();
    await insertRows(
      this.#tx,
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
      this.#tx,
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
      this.#tx,
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
        this.#tx,
        "sandbox_platform_sessions",
        { platformid: "text", secret_hash: "text", issued_at: "timestamptz", expires_at: "timestamptz" },
        sessions.map((session) => ({
          platformid: session.platformid,
          secret_hash: sha256Hex(session.secret),
          issued_at: this.#now.toISOString(),
          expires_at: new Date(this.#now.getTime() + COOKIE_LIFETIME_MS).toISOString(),
        })),
      );
    }
    await insertRows(
      this.#tx,
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
        cookies_checked_at: secretBox ? this.#now.toISOString() : null,
        inventory_refreshed_at: this.#now.toISOString(),
      })),
    );
  }

  /**
   * Weeks of completed trades, oldest first; answers the goods traded most. A trade is drawn
   * from its index alone, so the plans are not kept: a first pass keeps only each trade's time
   * (to number them oldest first) and what it tells the deposits and the busiest goods, and the
   * writing pass draws each trade again, in time order, a batch at a time.
   */
  async writeTrades(): Promise<DemoMarketReport["busiestGoods"]> {
    const count = this.#trades;
    const boughtAt = new Float64Array(count);
    const tradesOf = new Map<DemoGoods, number>();
    // The money each trader brings: what their purchases cost, and a cushion for buy orders.
    for (const trader of this.#traders) trader.deposit = CUSHION_FEN;
    this.#progress("trade plans", 0, count);
    for (let index = 0; index < count; index++) {
      if (index % this.#batch === 0 && index > 0) this.#progress("trade plans", index, count);
      const plan = this.#planTrade(index);
      boughtAt[index] = plan.boughtAt.getTime();
      tradesOf.set(plan.goods, (tradesOf.get(plan.goods) ?? 0) + 1);
      this.#traders[plan.buyer]!.deposit += plan.price;
    }
    this.#progress("trade plans", count, count);
    // Oldest first; trades at the same moment in the order they were drawn.
    const order = new Uint32Array(count);
    for (let index = 0; index < count; index++) order[index] = index;
    order.sort((a, b) => boughtAt[a]! - boughtAt[b]! || a - b);
    const busiest = [...tradesOf]
      .sort(([a, countA], [b, countB]) => countB - countA || a.goods_id - b.goods_id)
      .slice(0, 5)
      .map(([goods, trades]) => ({
        goodsId: goods.goods_id,
        marketHashName: goods.market_hash_name,
        trades,
      }));
    await this.#writeDeposits();
    this.#progress("trades", 0, count);

    const firstAsset = count > 0 ? await reserveIds(this.#tx, { name: "sandbox_assetid_seq" }, 2 * count) : 0;
    const firstListing =
      count > 0 ? await reserveIds(this.#tx, { table: "listings", column: "listing_id" }, count) : 0;
    const firstTrade =
      count > 0 ? await reserveIds(this.#tx, { table: "trades", column: "trade_id" }, count) : 0;
    const firstOffer =
      count > 0 ? await reserveIds(this.#tx, { name: "sandbox_tradeofferid_seq" }, count) : 0;
    for (let start = 0; start < count; start += this.#batch) {
      const slice = Array.from(order.subarray(start, start + this.#batch), (index) => this.#planTrade(index));
      const assets: SandboxAssetRow[] = [];
      const inventory: object[] = [];
      const listings: object[] = [];
      const tradeRows: object[] = [];
      const offers: object[] = [];
      slice.forEach((plan, offset) => {
        const index = start + offset;
        const seller = this.#traders[plan.seller]!;
        const buyer = this.#traders[plan.buyer]!;
        const sold = firstAsset + 2 * index;
        const received = sold + 1;
        const listingId = firstListing + index;
        const tradeId = firstTrade + index;
        const offerId = firstOffer + index;
        const soldRow = assetRow(plan.goods, plan.item, {
          assetid: sold,
          platformid: seller.platformid,
          acquiredAt: plan.acquiredAt,
          tradableAfter: null,
          tradedTo: received,
          tradedFrom: null,
        });
        const receivedRow = assetRow(plan.goods, plan.item, {
          assetid: received,
          platformid: buyer.platformid,
          acquiredAt: plan.completedAt,
          tradableAfter: new Date(plan.completedAt.getTime() + TRADE_COOLDOWN_MS),
          tradedTo: null,
          tradedFrom: sold,
        });
        assets.push(soldRow, receivedRow);
        inventory.push(inventoryRow(plan.goods, receivedRow));
        listings.push({
          ...listingRow(plan.goods, plan.item, soldRow, {
            listingId,
            userId: seller.userId,
            price: plan.price,
            fee: plan.fee,
            createdAt: plan.listedAt,
          }),
          state: "SOLD",
          // Its trade is delivered: the item is committed to nothing (docs/design.md section 5).
          trade_ended: true,
          updated_at: plan.boughtAt.toISOString(),
          asset: assetInfo(plan.goods, soldRow),
        });
        tradeRows.push({
          trade_id: tradeId,
          listing_id: listingId,
          buyer_id: buyer.userId,
          seller_id: seller.userId,
          goods_id: plan.goods.goods_id,
          assetid: sold,
          seller_platformid: seller.platformid,
          buyer_platformid: buyer.platformid,
          buyer_trade_url: buyer.tradeUrl,
          price: plan.price,
          fee: plan.fee,
          pay_method: "balance",
          paid_from: { balance: plan.price },
          state: "SUCCESS",
          tradeofferid: offerId,
          received_assetid: received,
          deliver_by: new Date(plan.boughtAt.getTime() + DELIVERY_WINDOW_MS).toISOString(),
          created_at: plan.boughtAt.toISOString(),
          updated_at: plan.completedAt.toISOString(),
        });
        offers.push({
          tradeofferid: offerId,
          sender: seller.platformid,
          receiver: buyer.platformid,
          assetids: [sold],
          message: offerMessage(tradeId),
          state: "accepted",
          created_at: plan.offeredAt.toISOString(),
          updated_at: plan.completedAt.toISOString(),
          expires_at: new Date(plan.offeredAt.getTime() + OFFER_LIFETIME_MS).toISOString(),
        });
        // The buyer pays into escrow; on delivery escrow pays the seller and the fee account.
        this.#entry("purchase_payment", plan.boughtAt, `listing:${listingId}`, {}, [
          [buyer.accounts.balance, -plan.price],
          [buyer.accounts.escrow, plan.price],
        ]);
        this.#entry("trade_payout", plan.completedAt, `trade:${tradeId}`, {}, [
          [buyer.accounts.escrow, -plan.price],
          [seller.accounts.balance, plan.price - plan.fee],
          [this.#systemAccounts.fees, plan.fee],
        ]);
        buyer.balance -= plan.price;
        seller.balance += plan.price - plan.fee;
        this.#feesTotal += plan.fee;
      });
      await insertRows(this.#tx, "sandbox_assets", ASSET_COLUMNS, assets.map(assetJson));
      await insertRows(this.#tx, "platform_inventory_items", INVENTORY_COLUMNS, inventory);
      await insertRows(this.#tx, "listings", { ...LISTING_COLUMNS, asset: "jsonb" }, listings);
      await sql`
        INSERT INTO trades (trade_id, listing_id, buyer_id, seller_id, goods_id, assetid, seller_platformid,
          buyer_platformid, buyer_trade_url, price, fee, pay_method, paid_from, state, tradeofferid,
          received_assetid, asset, deliver_by, created_at, updated_at)
        SELECT r.trade_id, r.listing_id, r.buyer_id, r.seller_id, r.goods_id, r.assetid, r.seller_platformid,
          r.buyer_platformid, r.buyer_trade_url, r.price, r.fee, r.pay_method, r.paid_from, r.state,
          r.tradeofferid, r.received_assetid, l.asset, r.deliver_by, r.created_at, r.updated_at
        FROM jsonb_to_recordset(${JSON.stringify(tradeRows)}::jsonb) AS r(trade_id bigint, listing_id bigint,
          buyer_id bigint, seller_id bigint, goods_id integer, assetid bigint, seller_platformid text,
          buyer_platformid text, buyer_trade_url text, price bigint, fee bigint, pay_method text, paid_from jsonb,
          state text, tradeofferid bigint, received_assetid bigint, deliver_by timestamptz,
          created_at timestamptz, updated_at timestamptz)
        JOIN listings l ON l.listing_id = r.listing_id
        ORDER BY r.trade_id
      `.execute(this.#tx);
      await insertRows(
        this.#tx,
        "sandbox_trade_offers",
        {
          tradeofferid: "bigint",
          sender: "text",
          receiver: "text",
          assetids: "jsonb",
          message: "text",
          state: "text",
          created_at: "timestamptz",
          updated_at: "timestamptz",
          expires_at: "timestamptz",
        },
        offers,
      );
      await this.#flushJournal();
      this.#progress("trades", Math.min(count, start + this.#batch), count);
    }
    return busiest;
  }

  /** The index-th completed trade, drawn from the seed and the index alone. */
  #planTrade(index: number): TradePlan {
    const { seed, days } = this.#settings;
    const span = days * DAY_MS - 4 * HOUR_MS;
    const historyStart = this.#now.getTime() - days * DAY_MS;
    const random = new DemoRandom(seed, STREAM.trade, index);
    const goods = this.#covered[this.#popular.pick(random)]!;
    const item = mintDemoItem(goods, random, this.#extras);
    const seller = random.int(0, this.#traders.length - 1);
    const buyer = (seller + random.int(1, this.#traders.length - 1)) % this.#traders.length;
    // More trades lately than long ago, as a market that grows.
    const boughtAt = historyStart + span * Math.sqrt(random.next());
    const listedAt = Math.max(this.#start.getTime(), boughtAt - random.int(10, 5 * 24 * 60) * MINUTE_MS);
    const acquiredAt = Math.max(
      this.#traders[seller]!.createdAt.getTime() + MINUTE_MS,
      listedAt - random.int(0, 48 * 60) * MINUTE_MS,
    );
    const offeredAt = boughtAt + random.int(1, 90) * MINUTE_MS;
    const completedAt = offeredAt + random.int(1, 120) * MINUTE_MS;
    // Prices wander over the weeks: a slow wave per goods around the typical price.
    const typical = this.#typical.get(goods.goods_id)!;
    const phase = new DemoRandom(seed, STREAM.trade, -1, goods.goods_id).next() * 2 * Math.PI;
    const wave = 1 + 0.08 * Math.sin(phase + ((boughtAt - historyStart) / DAY_MS) * 0.4);
    const price = this.#validPrice(askingPrice(typical * wave, random, item, this.#rules.maxListingPriceFen));
    return {
      goods,
      item,
      seller,
      buyer,
      listedAt: new Date(listedAt),
      acquiredAt: new Date(acquiredAt),
      boughtAt: new Date(boughtAt),
      offeredAt: new Date(offeredAt),
      completedAt: new Date(completedAt),
      price,
      fee: sellerFee(price, this.#rules),
    };
  }

  /** Listings on sale; some of items still in trade cooldown (pre-sell). */
  async writeListings(): Promise<{ preSell: number; goods: number }> {
    const { seed, listings: spread, days, popularListings } = this.#settings;
    const count = spread + popularListings.listings;
    this.#progress("listings", 0, count);
    if (count === 0) return { preSell: 0, goods: 0 };
    const firstAsset = await reserveIds(this.#tx, { name: "sandbox_assetid_seq" }, count);
    const firstListing = await reserveIds(this.#tx, { table: "listings", column: "listing_id" }, count);
    let preSell = 0;
    const goodsOnSale = new Set<number>();
    for (let start = 0; start < count; start += this.#batch) {
      const end = Math.min(count, start + this.#batch);
      const assets: SandboxAssetRow[] = [];
      const inventory: object[] = [];
      const listings: object[] = [];
      for (let index = start; index < end; index++) {
        const random = new DemoRandom(seed, STREAM.listing, index);
        // The first listings cover the chosen goods once each; the rest follow popularity, then
        // the popular listings go to the most popular goods in turn.
        const goods =
          index < this.#covered.length
            ? this.#covered[index]!
            : index < spread
              ? this.#covered[this.#popular.pick(random)]!
              : this.#mostPopular[(index - spread) % this.#mostPopular.length]!;
        const item = mintDemoItem(goods, random, this.#extras);
        const seller = this.#traders[random.int(0, this.#traders.length - 1)]!;
        const inCooldown = random.chance(PRE_SELL_SHARE);
        let acquiredAt: number;
        let tradableAfter: Date | null = null;
        let createdAt: number;
        if (inCooldown) {
          // Received by a trade a few days ago, listed while the cooldown runs.
          tradableAfter = new Date(this.#now.getTime() + random.int(60, 7 * 24 * 60 - 1) * MINUTE_MS);
          acquiredAt = tradableAfter.getTime() - TRADE_COOLDOWN_MS;
          createdAt = acquiredAt + (this.#now.getTime() - acquiredAt) * random.next();
          preSell += 1;
        } else {
          createdAt = this.#now.getTime() - random.next() * days * DAY_MS;
          acquiredAt = Math.max(
            seller.createdAt.getTime() + MINUTE_MS,
            createdAt - random.int(0, 48 * 60) * MINUTE_MS,
          );
        }
        const price = this.#validPrice(
          askingPrice(this.#typical.get(goods.goods_id)!, random, item, this.#rules.maxListingPriceFen),
        );
        const row = assetRow(goods, item, {
          assetid: firstAsset + index,
          platformid: seller.platformid,
          acquiredAt: new Date(acquiredAt),
          tradableAfter,
          tradedTo: null,
          tradedFrom: null,
        });
        assets.push(row);
        inventory.push(inventoryRow(goods, row));
        listings.push({
          ...listingRow(goods, item, row, {
            listingId: firstListing + index,
            userId: seller.userId,
            price,
            fee: sellerFee(price, this.#rules),
            createdAt: new Date(createdAt),
          }),
          allow_bargain: random.chance(0.15),
        });
        goodsOnSale.add(goods.goods_id);
        const cheapest = this.#cheapest.get(goods.goods_id);
        if (cheapest === undefined || price < cheapest) this.#cheapest.set(goods.goods_id, price);
      }
      await insertRows(this.#tx, "sandbox_assets", ASSET_COLUMNS, assets.map(assetJson));
      await insertRows(this.#tx, "platform_inventory_items", INVENTORY_COLUMNS, inventory);
      // The listing's asset record is the inventory copy's: it is read there, not sent twice.
      const columns = Object.keys(LISTING_COLUMNS);
      await sql`
        INSERT INTO listings (${sql.raw(columns.join(", "))}, asset)
        SELECT ${sql.raw(columns.map((name) => `r.${name}`).join(", "))}, i.asset
        FROM jsonb_to_recordset(${JSON.stringify(listings)}::jsonb) AS r(${sql.raw(
          Object.entries(LISTING_COLUMNS)
            .map(([name, type]) => `${name} ${type}`)
            .join(", "),
        )})
        JOIN platform_inventory_items i ON i.platformid = r.platformid AND i.assetid = r.assetid
        ORDER BY r.listing_id
      `.execute(this.#tx);
      this.#progress("listings", end, count);
    }
    return { preSell, goods: goodsOnSale.size };
  }

  /**
   * Standing bids in the public book, each below the cheapest listing of its goods (a higher bid
   * would have bought it at once) and covered by its trader's money, as creating one requires.
   */
  async writeBuyOrders(): Promise<number> {
    const { seed, days } = this.#settings;
    const count = this.#buyOrders;
    this.#progress("buy orders", 0, count);
    const listed = this.#covered.filter((goods) => {
      const cheapest = this.#cheapest.get(goods.goods_id) ?? 0;
      return cheapest >= 10 && cheapest < CUSHION_FEN;
    });
    if (count === 0 || listed.length === 0) return 0;
    const picker = new WeightedPicker(
      listed.map((goods) => popularity(goods, this.#cheapest.get(goods.goods_id)!, seed)),
    );
    const first = await reserveIds(this.#tx, { table: "buy_orders", column: "buy_order_id" }, count);
    for (let start = 0; start < count; start += this.#batch) {
      const rows: object[] = [];
      for (let index = start; index < Math.min(count, start + this.#batch); index++) {
        const random = new DemoRandom(seed, STREAM.buyOrder, index);
        const goods = listed[picker.pick(random)]!;
        const cheapest = this.#cheapest.get(goods.goods_id)!;
        const price = Math.max(
          2,
          Math.min(cheapest - 1, Math.floor(cheapest * (0.7 + 0.27 * random.next()))),
        );
        const trader = this.#traders[random.int(0, this.#traders.length - 1)]!;
        const num = Math.max(
          1,
          Math.min(price < 2000 ? random.int(1, 20) : random.int(1, 3), Math.floor(CUSHION_FEN / price)),
        );
        const createdAt = new Date(this.#now.getTime() - random.next() * days * DAY_MS).toISOString();
        rows.push({
          buy_order_id: first + index,
          user_id: trader.userId,
          goods_id: goods.goods_id,
          price,
          num,
          pay_method: random.chance(0.5) ? "balance" : null,
          specific: [],
          allow_tradable_cooldown: random.chance(0.2),
          platformid: trader.platformid,
          trade_url: trader.tradeUrl,
          state: "progressing",
          created_at: createdAt,
          updated_at: createdAt,
        });
      }
      await insertRows(
        this.#tx,
        "buy_orders",
        {
          buy_order_id: "bigint",
          user_id: "bigint",
          goods_id: "integer",
          price: "bigint",
          num: "integer",
          pay_method: "text",
          specific: "jsonb",
          allow_tradable_cooldown: "boolean",
          platformid: "text",
          trade_url: "text",
          state: "text",
          created_at: "timestamptz",
          updated_at: "timestamptz",
        },
        rows,
      );
      this.#progress("buy orders", Math.min(count, start + this.#batch), count);
    }
    return count;
  }

  /** Every account's balance is the sum of its journal lines; one audit row says what was built. */
  async writeLedger(): Promise<void> {
    this.#progress("ledger", 0, 1);
    await this.#flushJournal();
    // Inserted before the lines that name them (see #writeDeposits); here they get their balances.
    for (let start = 0; start < this.#traders.length; start += this.#batch) {
      const accounts = this.#traders
        .slice(start, start + this.#batch)
        .map((trader) => ({ account_id: trader.accounts.balance, balance: trader.balance }));
      await sql`
        UPDATE ledger_accounts a SET balance = r.balance
        FROM jsonb_to_recordset(${JSON.stringify(accounts)}::jsonb) AS r(account_id bigint, balance bigint)
        WHERE a.account_id = r.account_id
      `.execute(this.#tx);
    }
    const deposits = this.#traders.reduce((sum, trader) => sum + trader.deposit, 0);
    await sql`
      UPDATE ledger_accounts SET balance = balance + CASE kind WHEN 'fees' THEN ${this.#feesTotal}::bigint
        ELSE ${-deposits}::bigint END
      WHERE user_id IS NULL AND kind IN ('fees', 'external')
    `.execute(this.#tx);
    await this.#tx
      .insertInto("audit_events")
      .values({
        created_at: this.#now,
        actor: "system",
        action: "sandbox.demo.build",
        subject: null,
        details: JSON.stringify({
          seed: this.#settings.seed,
          traders: this.#settings.traders,
          listings: this.#settings.listings,
          trades: this.#trades,
          buy_orders: this.#buyOrders,
          days: this.#settings.days,
          users: this.#traders.map((trader) => trader.userId),
        }),
        request_id: null,
      })
      .execute();
    this.#progress("ledger", 1, 1);
  }

  /** The traders' accounts and the deposits that bring their money in, when the world begins. */
  async #writeDeposits(): Promise<void> {
    for (let start = 0; start < this.#traders.length; start += this.#batch) {
      const batch = this.#traders.slice(start, start + this.#batch);
      await insertRows(
        this.#tx,
        "ledger_accounts",
        { account_id: "bigint", user_id: "bigint", kind: "text" },
        batch.flatMap((trader) =>
          USER_ACCOUNT_KINDS.map((kind) => ({
            account_id: trader.accounts[kind],
            user_id: trader.userId,
            kind,
          })),
        ),
      );
    }
    for (let start = 0; start < this.#traders.length; start += this.#batch) {
      for (const trader of this.#traders.slice(start, start + this.#batch)) {
        this.#entry("deposit", this.#start, `user:${trader.userId}`, { account: "balance" }, [
          [trader.accounts.balance, trader.deposit],
          [this.#systemAccounts.external, -trader.deposit],
        ]);
        trader.balance = trader.deposit;
      }
      // Entries are numbered in the order they are noted, whether written at once or in batches.
      await this.#flushJournal();
    }
  }

  #entry(
    kind: string,
    at: Date,
    reference: string,
    memo: Record<string, unknown>,
    lines: Array<[accountId: number, amount: number]>,
  ): void {
    const entry = this.#entries.length;
    this.#entries.push({ entry, kind, created_at: at.toISOString(), reference, memo });
    for (const [accountId, amount] of lines) this.#lines.push({ entry, account_id: accountId, amount });
  }

  /** Writes the entries noted so far, numbered in the order they were noted, with their lines. */
  async #flushJournal(): Promise<void> {
    if (this.#entries.length === 0) return;
    const firstEntry = await reserveIds(
      this.#tx,
      { table: "journal_entries", column: "entry_id" },
      this.#entries.length,
    );
    const firstLine = await reserveIds(
      this.#tx,
      { table: "journal_lines", column: "line_id" },
      this.#lines.length,
    );
    const entries = this.#entries.map(({ entry, ...rest }) => ({
      entry_id: firstEntry + (entry as number),
      ...rest,
    }));
    const lines = this.#lines.map(({ entry, ...rest }, index) => ({
      line_id: firstLine + index,
      entry_id: firstEntry + (entry as number),
      ...rest,
    }));
    this.#entries = [];
    this.#lines = [];
    for (let start = 0; start < entries.length; start += this.#batch * 2) {
      await insertRows(
        this.#tx,
        "journal_entries",
        { entry_id: "bigint", kind: "text", created_at: "timestamptz", reference: "text", memo: "jsonb" },
        entries.slice(start, start + this.#batch * 2),
      );
    }
    for (let start = 0; start < lines.length; start += this.#batch * 4) {
      await insertRows(
        this.#tx,
        "journal_lines",
        { line_id: "bigint", entry_id: "bigint", account_id: "bigint", amount: "bigint" },
        lines.slice(start, start + this.#batch * 4),
      );
    }
  }

  /** A price a listing may ask: the fee must leave the seller something. */
  #validPrice(price: number): number {
    let valid = Math.min(this.#rules.maxListingPriceFen, price);
    while (sellerFee(valid, this.#rules) >= valid) valid += 1;
    return valid;
  }

  #progress(phase: DemoProgress["phase"], done: number, total: number): void {
    this.#onProgress({ phase, done, total });
  }
}

/** The demo market is built into a market without users, unless asked to build beside them. */
async function refuseUnlessEmpty(db: Db): Promise<void> {
  const users = await sql<{ count: string }>`SELECT count(*)::text AS count FROM users`.execute(db);
  const count = Number(users.rows[0]?.count ?? 0);
  if (count > 0) {
    throw new DemoMarketRefused(
      `the market already holds ${count} user${count === 1 ? "" : "s"}; the demo market is built into an empty one (reset the sandbox, use a new data directory, or pass --add to build beside them)`,
    );
  }
}

const TOKEN_ALPHABET = [..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"];
const NICK_FIRST = ["Silver", "Quick", "Lucky", "Night", "Iron", "Red", "Frost", "Golden", "Shadow", "Wild"];
const NICK_SECOND = ["Fox", "Hawk", "Trader", "Wolf", "Falcon", "Tiger", "Viper", "Dealer", "Raven", "Skins"];

/** A trader's nickname: readable, unique within the build (the index), and telling the seed. */
function nicknameOf(seed: number, index: number, random: DemoRandom): string {
  return `${random.pick(NICK_FIRST)}${random.pick(NICK_SECOND)}-${seed}-${index + 1}`.slice(0, 32);
}

function parseTags(tags: unknown): GoodsTagRow[] {
  return typeof tags === "string" ? (JSON.parse(tags) as GoodsTagRow[]) : (tags as GoodsTagRow[]);
}

function assetRow(
  goods: DemoGoods,
  item: DemoItem,
  where: {
    assetid: number;
    platformid: string;
    acquiredAt: Date;
    tradableAfter: Date | null;
    tradedTo: number | null;
    tradedFrom: number | null;
  },
): SandboxAssetRow {
  return {
    assetid: where.assetid,
    platformid: where.platformid,
    goods_id: goods.goods_id,
    classid: item.classid,
    instanceid: item.instanceid,
    paintwear: item.paintwear,
    paintseed: item.paintseed,
    paintindex: item.paintindex,
    stickers: item.stickers,
    keychains: item.keychains,
    nametag: item.nametag,
    tradable_after: where.tradableAfter,
    acquired_at: where.acquiredAt,
    traded_to_assetid: where.tradedTo,
    traded_from_assetid: where.tradedFrom,
  };
}

function assetJson(row: SandboxAssetRow): object {
  return {
    ...row,
    tradable_after: row.tradable_after?.toISOString() ?? null,
    acquired_at: row.acquired_at.toISOString(),
  };
}

/** The reference's asset record of an item, as the inventory refresh and a listing store it. */
function assetInfo(goods: DemoGoods, row: SandboxAssetRow) {
  return toAssetInfo(toPlatformAsset(row, goods.type), goods.icon_url, goods.type);
}

function inventoryRow(goods: DemoGoods, row: SandboxAssetRow): object {
  return {
    platformid: row.platformid,
    assetid: row.assetid,
    goods_id: goods.goods_id,
    paintwear: row.paintwear,
    has_nametag: row.nametag !== null,
    tradable_after: row.tradable_after?.toISOString() ?? null,
    acquired_at: row.acquired_at.toISOString(),
    asset: assetInfo(goods, row),
  };
}

function listingRow(
  goods: DemoGoods,
  item: DemoItem,
  row: SandboxAssetRow,
  listing: { listingId: number; userId: number; price: number; fee: number; createdAt: Date },
) {
  return {
    listing_id: listing.listingId,
    user_id: listing.userId,
    platformid: row.platformid,
    assetid: row.assetid,
    goods_id: goods.goods_id,
    price: listing.price,
    fee: listing.fee,
    state: "ON_SALE",
    allow_bargain: false,
    allow_wallet_zft: true,
    allow_epay: true,
    allow_pending_divide_balance: false,
    force_buyer_send_offer: false,
    description: "",
    paintwear: item.paintwear,
    paintseed: item.paintseed,
    paintindex: item.paintindex,
    tradable_after: row.tradable_after?.toISOString() ?? null,
    trade_ended: false,
    created_at: listing.createdAt.toISOString(),
    updated_at: listing.createdAt.toISOString(),
  };
}

/** The goods of one kit type an item can carry, with the game's own id of their kit. */
function kitsOf(
  rows: ReadonlyArray<{ type: string; game_index: number | null; market_hash_name: string }>,
  type: "sticker" | "charm",
): Extra[] {
  return rows.flatMap((row) =>
    row.type === type && row.game_index !== null
      ? [{ game_index: row.game_index, market_hash_name: row.market_hash_name }]
      : [],
  );
}
