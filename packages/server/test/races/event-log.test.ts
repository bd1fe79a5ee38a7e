import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { sql } from "kysely";
import { CATCH_UP_PAGE, EventLog } from "../../src/domain/events/event-log.ts";
import type { StoredEvent } from "../../src/domain/events/sequence-events.ts";
import type { DomainContext } from "../../src/domain/context.ts";
import { OffsetClock } from "../../src/domain/clock.ts";
import { inTransaction } from "../../src/domain/transaction.ts";
import { ok } from "../../src/domain/result.ts";
import type { ChangeListener } from "../../src/domain/change-notices.ts";
import { listenForChanges } from "../../src/storage/change-notifications.ts";
import { openDatabase, type DatabaseHandle } from "../../src/storage/database.ts";
import { urlOfDatabase } from "../../src/storage/postgres-admin.ts";
import { openTestDatabase, usingPostgres } from "../support/test-database.ts";
import { silentLog, testPlatform } from "../support/test-context.ts";
import { enqueueWebhookDeliveries } from "../../src/domain/webhooks/enqueue.ts";

const WRITERS_PER_INSTANCE = 4;
const COMMITS_PER_WRITER = 40;

/**
 * Two instances on one database, each running its sequencer after its own commits while both
 * commit at once: every listener of either instance is told every event exactly once, in id order,
 * and the ids follow the order the events became visible (docs/design/events.md#ids-in-commit-order). On the
 * embedded database both logs share one connection; on PostgreSQL each has its own pool and hears
 * the other's rounds through LISTEN/NOTIFY, as two servers do.
 */
describe("the event log across two instances", () => {
  let database: DatabaseHandle;
  let second: DatabaseHandle;
  let listener: ChangeListener | undefined;
  const logs: EventLog[] = [];
  const told: StoredEvent[][] = [[], []];
  const contexts: DomainContext[] = [];
  let userIds: number[] = [];

  before(async () => {
    database = await openTestDatabase();
    second = database;
    let url: string | undefined;
    if (usingPostgres) {
      const name = await sql<{ name: string }>`SELECT current_database() AS name`.execute(database.db);
      url = urlOfDatabase(process.env.TEST_DATABASE_URL!, name.rows[0]!.name);
      second = await openDatabase({ kind: "postgres", url });
    }
    for (const [index, handle] of [database, second].entries()) {
      const base = {
        db: handle.db,
        clock: new OffsetClock(),
        actor: { kind: "system" as const },
        log: silentLog,
      };
      const log = new EventLog({ ...base, ...testPlatform() }, [enqueueWebhookDeliveries]);
      logs.push(log);
      log.onEvents((events) => told[index]!.push(...events));
      contexts.push({ ...base, ...testPlatform(), afterCommit: () => log.poke() });
    }
    for (const log of logs) await log.start({ sweep: false });
    if (url) {
      listener = await listenForChanges({
        url,
        onChange: (message) => {
          if (message.kind === "events")
            for (const log of logs) log.heard(message.last ?? Number.MAX_SAFE_INTEGER);
        },
        onReconnect: () => undefined,
        log: silentLog,
      });
    }
    const users = await database.db
      .insertInto("users")
      .values(
        Array.from({ length: WRITERS_PER_INSTANCE * 2 }, (_, index) => ({
          nickname: `event-writer-${index}`,
          password_hash: "x",
          access_level: "developer" as const,
          created_at: new Date(),
          updated_at: new Date(),
        })),
      )
      .returning("user_id")
      .execute();
    userIds = users.map((user) => user.user_id);
  });
  after(async () => {
    await listener?.close();
    for (const log of logs) await log.close();
    if (second !== database) await second.close();
    await database.close();
  });

  test("every event is told exactly once, in id order, on both instances", async () => {
    // Each writer toggles its own user's buy-order status: one event per commit.
    const writer = async (ctx: DomainContext, userId: number) => {
      for (let commit = 0; commit < COMMITS_PER_WRITER; commit++) {
        await inTransaction(ctx, async (tx) => {
          await tx.db
            .updateTable("users")
            .set({ buy_order_status: commit % 2 === 0 ? "offline" : "online" })
            .where("user_id", "=", userId)
            .execute();
          return ok(undefined);
        });
      }
    };
    await Promise.all(userIds.map((userId, index) => writer(contexts[index % 2]!, userId)));
    const expected = WRITERS_PER_INSTANCE * 2 * COMMITS_PER_WRITER;
    for (const log of logs) await log.catchUp();
    const stored = await database.db
      .selectFrom("events")
      .select(["event_id", "user_id"])
      .orderBy("event_id")
      .execute();
    assert.equal(stored.length, expected, "one event per commit");
    // Each instance hears the other's last rounds (a notice, or its next round) within moments.
    for (let wait = 0; wait < 100 && told.some((list) => list.length < expected); wait++) {
      // On the embedded database nothing announces rounds (one server owns it): read on directly.
      for (const log of logs) {
        if (usingPostgres) log.poke();
        else log.heard(Number.MAX_SAFE_INTEGER);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (const [index, list] of told.entries()) {
      const ids = list.map((event) => event.event_id);
      assert.deepEqual(
        ids,
        stored.map((event) => event.event_id),
        `instance ${index} was told each event once, in order`,
      );
    }
    // Per user, the events alternate as the commits did: the order of one writer's commits holds.
    for (const userId of userIds) {
      const states = told[0]!
        .filter((event) => event.user_id === userId)
        .map((event) => (event.data as { buy_order_status: string }).buy_order_status);
      assert.deepEqual(
        states,
        Array.from({ length: COMMITS_PER_WRITER }, (_, commit) => (commit % 2 === 0 ? "offline" : "online")),
      );
    }
    const outbox = await database.db.selectFrom("event_outbox").select("seq").execute();
    assert.deepEqual(outbox, []);
  });
});

/**
 * An instance far behind (a long gap: notices lost, or another instance sequenced a great deal)
 * reads the missed events a page at a time, each told once and in order, never all at once.
 */
describe("the event log catching up after a long gap", () => {
  let database: DatabaseHandle;
  let writer: EventLog;
  let reader: EventLog;
  const pages: StoredEvent[][] = [];

  before(async () => {
    database = await openTestDatabase();
    const ctx = {
      db: database.db,
      clock: new OffsetClock(),
      actor: { kind: "system" as const },
      log: silentLog,
    };
    writer = new EventLog({ ...ctx, ...testPlatform() }, [enqueueWebhookDeliveries]);
    reader = new EventLog({ ...ctx, ...testPlatform() }, [enqueueWebhookDeliveries]);
    reader.onEvents((events) => pages.push([...events]));
    await writer.start({ sweep: false });
    await reader.start({ sweep: false });
  });
  after(async () => {
    await writer.close();
    await reader.close();
    await database.close();
  });

  test("the gap is told in pages of at most CATCH_UP_PAGE, each event once, in id order", async () => {
    const missed = CATCH_UP_PAGE * 2 + 500;
    // The reader's first round (its start) is over: from here on only the writer sequences.
    await reader.catchUp();
    await sql`
      INSERT INTO event_outbox (type, user_id, goods_id, subject)
      SELECT 'market.reset', NULL, NULL, jsonb_build_object('n', n)
      FROM generate_series(1, ${missed}) AS n`.execute(database.db);
    // The writer's instance sequences them; the reader hears of it only afterwards.
    const readStored = () =>
      database.db.selectFrom("events").select("event_id").orderBy("event_id").execute();
    let stored = await readStored();
    // A round of the writer's that finds the lock taken tries again soon: until all are in.
    for (let tries = 0; tries < 100 && stored.length < missed; tries++) {
      await writer.catchUp();
      stored = await readStored();
    }
    assert.equal(stored.length, missed);
    assert.equal(pages.length, 0, "nothing told before the notice");
    reader.heard(Number.MAX_SAFE_INTEGER);
    await reader.catchUp();
    assert.ok(pages.length >= 3, `told in ${pages.length} calls`);
    for (const page of pages) assert.ok(page.length <= CATCH_UP_PAGE, `a page of ${page.length}`);
    assert.deepEqual(
      pages.flat().map((event) => event.event_id),
      stored.map((event) => event.event_id),
    );
    assert.deepEqual(
      pages.flat().map((event) => (event.data as { n: number }).n),
      Array.from({ length: missed }, (_, index) => index + 1),
    );
    assert.equal(reader.lastTold, stored[stored.length - 1]!.event_id);
  });
});
