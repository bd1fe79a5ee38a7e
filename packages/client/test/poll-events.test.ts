import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { MarketplaceEvent } from "@skinmarket/contract";
import { pollEventsWith } from "../src/poll-events.ts";

/** The polling operation over an in-memory log, pages of at most `pageSize`. */
function fakeLog(ids: number[], pageSize = 2) {
  const log: MarketplaceEvent[] = ids.map((id) => ({
    id: String(id),
    type: "balance.changed",
    created_at: 0,
    goods_id: null,
    data: {},
  }));
  const queries: Array<{ after?: string; types?: readonly string[] }> = [];
  const list = async (query: { after?: string; types?: readonly string[]; limit?: number }) => {
    queries.push({ after: query.after, ...(query.types ? { types: query.types } : {}) });
    const after = BigInt(query.after ?? "0");
    const newer = log.filter((event) => BigInt(event.id) > after);
    return { items: newer.slice(0, pageSize), has_more: newer.length > pageSize };
  };
  const append = (id: number) => log.push({ ...log[0]!, id: String(id) });
  return { list, queries, append };
}

describe("pollEvents", () => {
  test("happy: reads every page after `after`, then waits and picks up what came since", async () => {
    const { list, append } = fakeLog([3, 5, 8]);
    const events = pollEventsWith(list, { after: "3", intervalMs: 1 });
    assert.deepEqual([(await events.next()).value?.id, (await events.next()).value?.id], ["5", "8"]);
    append(13);
    assert.equal((await events.next()).value?.id, "13");
    await events.return(undefined);
  });

  test("happy: without after it starts from now, skipping the history page by page", async () => {
    const { list, queries, append } = fakeLog([1, 2, 3, 4, 5]);
    // Event 9 comes once the history is skipped: with the first poll after 5, the newest then.
    const watched: typeof list = async (query) => {
      const page = await list(query);
      if (query.after === "5" && queries.length === 4) append(9);
      return page;
    };
    const events = pollEventsWith(watched, { types: ["balance.*"], intervalMs: 1 });
    assert.equal((await events.next()).value?.id, "9");
    assert.deepEqual(queries.slice(0, 3), [
      { after: "0", types: ["balance.*"] },
      { after: "2", types: ["balance.*"] },
      { after: "4", types: ["balance.*"] },
    ]);
    await events.return(undefined);
  });

  test("happy: aborting ends the iteration while it waits", async () => {
    const controller = new AbortController();
    const { list } = fakeLog([1]);
    const events = pollEventsWith(list, { after: "1", intervalMs: 60_000, signal: controller.signal });
    const next = events.next();
    controller.abort();
    assert.deepEqual(await next, { done: true, value: undefined });
  });

  test("error: an unknown type or a malformed after is refused by name", async () => {
    const { list, queries } = fakeLog([1]);
    await assert.rejects(pollEventsWith(list, { types: ["trade.nope"] }).next(), /^TypeError: types:/);
    await assert.rejects(pollEventsWith(list, { after: "-1" }).next(), /^TypeError: after:/);
    assert.equal(queries.length, 0);
  });
});
