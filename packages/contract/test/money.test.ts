import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import {
  addMoney,
  applyRateCeil,
  formatMoney,
  MAX_MONEY_FEN,
  multiplyMoney,
  parseMoney,
} from "../src/money.ts";

describe("parseMoney", () => {
  test("reads numbers and numeric strings with up to two decimals as exact fen", () => {
    assert.deepEqual(parseMoney(12.5), { ok: true, fen: 1250 });
    assert.deepEqual(parseMoney("12.50"), { ok: true, fen: 1250 });
    assert.deepEqual(parseMoney("0.1"), { ok: true, fen: 10 });
    assert.deepEqual(parseMoney(0.29), { ok: true, fen: 29 });
    assert.deepEqual(parseMoney("7"), { ok: true, fen: 700 });
    assert.deepEqual(parseMoney(0), { ok: true, fen: 0 });
  });

  test("refuses a third decimal, exponents, signs where not allowed, and non-numbers", () => {
    for (const input of [
      "1.234",
      1.234,
      "1e3",
      1e21,
      "abc",
      "",
      " ",
      "-1",
      -0.01,
      null,
      true,
      {},
      [],
      Number.NaN,
      Infinity,
    ]) {
      assert.equal(parseMoney(input).ok, false, `accepted ${String(input)}`);
    }
  });

  test("refuses an amount with white space around or inside it", () => {
    for (const input of [" 1 ", "1 ", " 1", "\t1", "1\n", "1 .00", "\u00a01"]) {
      assert.deepEqual(
        parseMoney(input),
        { ok: false, reason: "must be an amount in yuan with at most 2 decimals" },
        JSON.stringify(input),
      );
    }
  });

  test("negative amounts only when allowed, zero refusable, maximum enforced", () => {
    assert.deepEqual(parseMoney("-5.25", { allowNegative: true }), { ok: true, fen: -525 });
    assert.equal(parseMoney(0, { allowZero: false }).ok, false);
    assert.equal(parseMoney(MAX_MONEY_FEN / 100 + 0.01).ok, false);
    assert.deepEqual(parseMoney(MAX_MONEY_FEN / 100), { ok: true, fen: MAX_MONEY_FEN });
  });

  test("every two-decimal amount survives format then parse unchanged", () => {
    fc.assert(
      fc.property(fc.integer({ min: -MAX_MONEY_FEN, max: MAX_MONEY_FEN }), (fen) => {
        const parsed = parseMoney(formatMoney(fen), { allowNegative: true });
        assert.deepEqual(parsed, { ok: true, fen });
      }),
    );
  });
});

describe("formatMoney and arithmetic", () => {
  test("formats with exactly two decimals", () => {
    assert.equal(formatMoney(0), "0.00");
    assert.equal(formatMoney(5), "0.05");
    assert.equal(formatMoney(1250), "12.50");
    assert.equal(formatMoney(-1), "-0.01");
  });

  test("refuses fractions of a fen instead of rounding silently", () => {
    assert.throws(() => formatMoney(0.5));
    assert.throws(() => addMoney(1, 0.1));
    assert.throws(() => multiplyMoney(100, 1.5));
  });

  test("the 2.5 % seller fee rounds up to the fen", () => {
    assert.equal(applyRateCeil(10000, 250), 250);
    assert.equal(applyRateCeil(1, 250), 1);
    assert.equal(applyRateCeil(41, 250), 2);
    assert.equal(applyRateCeil(0, 250), 0);
  });
});
