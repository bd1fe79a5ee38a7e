import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, test } from "node:test";
import zlib from "node:zlib";
import { crc32Combine } from "../../src/http/crc32-combine.ts";

/** The gzip trailer of a whole-market answer is combined from its parts' check sums (docs/design/market-snapshots.md#prebuilt-bytes). */
describe("CRC-32 of joined bytes from the check sums of the pieces", () => {
  test("equals zlib.crc32 of the whole, for empty, short and long pieces", () => {
    for (const [first, second] of [
      [0, 0],
      [0, 1],
      [1, 0],
      [3, 5],
      [1000, 65_536],
      [65_537, 7],
      [200_003, 1_048_577],
    ] as const) {
      const a = randomBytes(first);
      const b = randomBytes(second);
      assert.equal(
        crc32Combine(zlib.crc32(a), zlib.crc32(b), b.length),
        zlib.crc32(Buffer.concat([a, b])),
        `${first} + ${second} bytes`,
      );
    }
  });

  test("folded over many pieces, equals zlib.crc32 of them all", () => {
    const pieces = Array.from({ length: 300 }, (_, index) => randomBytes((index * 7919) % 5000));
    let combined = 0;
    for (const piece of pieces) combined = crc32Combine(combined, zlib.crc32(piece), piece.length);
    assert.equal(combined, zlib.crc32(Buffer.concat(pieces)));
  });
});
