import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { progressPrinter } from "../../src/demo/demo-credentials.ts";

/** A stream that keeps what is written, a terminal or not. */
function captured(isTTY: boolean) {
  const written: string[] = [];
  const stream = {
    isTTY,
    write: (text: string) => written.push(text) > 0,
  } as unknown as NodeJS.WritableStream & {
    isTTY: boolean;
  };
  return { stream, written };
}

describe("demo progress", () => {
  test("a line says the phase, rows done of the total, the rate and the time left; the last one the time taken", () => {
    let now = 0;
    const { stream, written } = captured(false);
    const print = progressPrinter(stream, { now: () => now });
    print({ phase: "listings", done: 0, total: 1_000_000 });
    now = 10_000;
    print({ phase: "listings", done: 100_000, total: 1_000_000 });
    now = 100_000;
    print({ phase: "listings", done: 1_000_000, total: 1_000_000 });
    assert.deepEqual(written, [
      "demo: listings 0% (0/1,000,000)\n",
      "demo: listings 10% (100,000/1,000,000, 10,000/s, ETA 1 min 30 s)\n",
      "demo: listings 100% (1,000,000/1,000,000, 10,000/s, 100.0 s)\n",
    ]);
  });

  test("off a terminal, a line at each tenth and at least every 10 s, not one per batch", () => {
    let now = 0;
    const { stream, written } = captured(false);
    const print = progressPrinter(stream, { now: () => now });
    // 3,000,000 rows in batches of 2,000 at 1,000 rows a second: 1,500 calls.
    for (let done = 0; done <= 3_000_000; done += 2_000) {
      now = done;
      print({ phase: "trades", done, total: 3_000_000 });
    }
    const tenths = written.filter((line) => /trades (\d+)0% /.test(line) || line.includes(" 0% "));
    assert.ok(tenths.length >= 11, written.join(""));
    // 3,000 s of work: a line at least every 10 s of it, and not many more.
    assert.ok(written.length >= 300 && written.length <= 320, `${written.length} lines`);
    assert.match(written.at(-1)!, /^demo: trades 100% \(3,000,000\/3,000,000, 1,000\/s, 3000\.0 s\)\n$/);
  });

  test("on a terminal, one line per phase rewritten in place, ended when the phase is done", () => {
    let now = 0;
    const { stream, written } = captured(true);
    const print = progressPrinter(stream, { now: () => now });
    print({ phase: "traders", done: 0, total: 4_000 });
    now = 1_000;
    print({ phase: "traders", done: 2_000, total: 4_000 });
    now = 2_000;
    print({ phase: "traders", done: 4_000, total: 4_000 });
    print({ phase: "ledger", done: 0, total: 1 });
    print({ phase: "ledger", done: 1, total: 1 });
    assert.deepEqual(written, [
      "\r\x1b[Kdemo: traders 0% (0/4,000)",
      "\r\x1b[Kdemo: traders 50% (2,000/4,000, 2,000/s, ETA 1 s)",
      "\r\x1b[Kdemo: traders 100% (4,000/4,000, 2,000/s, 2.0 s)\n",
      "\r\x1b[Kdemo: ledger 0% (0/1)",
      "\r\x1b[Kdemo: ledger 100% (1/1, 0.0 s)\n",
    ]);
  });
});
