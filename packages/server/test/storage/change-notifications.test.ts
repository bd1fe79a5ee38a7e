import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, test } from "node:test";
import { MAX_CHANGED_GOODS } from "../../src/domain/market/market-changes.ts";
import {
  announceChange,
  announceMarketChange,
  marketChangeOf,
  type ChangeListener,
  type ChangeMessage,
} from "../../src/domain/change-notices.ts";
import { listenForChanges } from "../../src/storage/change-notifications.ts";
import { openDatabase, type DatabaseHandle } from "../../src/storage/database.ts";
import { describeOrSkip } from "../support/describe-or-skip.ts";

const serverUrl = process.env.TEST_DATABASE_URL;

/** Notices between instances carry the goods a market change touched (docs/design/architecture.md#layout-and-the-rules-between-parts). */
describeOrSkip(
  "change notices name their goods",
  { skip: serverUrl ? false : "needs TEST_DATABASE_URL (PostgreSQL LISTEN/NOTIFY)" },
  () => {
    let database: DatabaseHandle;
    let listener: ChangeListener;
    const from = randomUUID();
    const heard: ChangeMessage[] = [];
    let wake: (() => void) | undefined;

    before(async () => {
      database = await openDatabase({ kind: "postgres", url: serverUrl! });
      listener = await listenForChanges({
        url: serverUrl!,
        onChange: (message) => {
          // Other suites may announce on the same server: only this one's notices count.
          if (message.from !== from) return;
          heard.push(message);
          wake?.();
        },
        onReconnect: () => undefined,
        log: { warn() {} },
      });
    });
    after(async () => {
      await listener.close();
      await database.close();
    });

    const announced = async (goods?: readonly number[]): Promise<ChangeMessage> => {
      const arrived = new Promise<void>((resolve) => (wake = resolve));
      await announceChange(database.db, "market", from, goods);
      await arrived;
      return heard.at(-1)!;
    };

    test("a notice with goods ids arrives with them; one without means everything", async () => {
      assert.deepEqual(await announced([7, 11]), { kind: "market", from, goods: [7, 11] });
      assert.deepEqual(await announced(), { kind: "market", from });
    });

    test("a notice holds MAX_CHANGED_GOODS goods of the largest ids (a larger batch is sent in several)", async () => {
      const goods = Array.from({ length: MAX_CHANGED_GOODS }, (_, index) => 2 ** 31 - 1 - index);
      assert.deepEqual(await announced(goods), { kind: "market", from, goods });
    });

    test("a recomputation of the liquidity ranks is a notice of its own", async () => {
      const arrived = new Promise<void>((resolve) => (wake = resolve));
      await announceMarketChange(database.db, from, "ranks");
      await arrived;
      const message = heard.at(-1)!;
      assert.deepEqual(message, { kind: "ranks", from });
      assert.equal(marketChangeOf(message), "ranks");
      assert.deepEqual(marketChangeOf({ kind: "market", from, goods: [3] }), [3]);
      assert.equal(marketChangeOf({ kind: "market", from }), "all");
      assert.equal(marketChangeOf({ kind: "tokens", from }), undefined);
    });
  },
);
