import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { describe, test } from "node:test";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { PrebuiltBodies } from "../../src/http/prebuilt-bodies.ts";
import { PrebuiltJson } from "../../src/http/prebuilt-json.ts";

const body = {
  info: Array.from({ length: 3000 }, (_, index) => ({
    goods_id: index + 1,
    market_hash_name: `AK-47 | Redline (Field-Tested) ${index}`,
    name: `AK-47 | 红线 ${index}`,
    sales: [{ min_price: `${index}.25`, pre_sell_min_price: "0.00" }],
    update_time: 1_790_000_000,
  })),
  stat_time: 1_790_000_000,
};

function decode(chunks: Buffer[], encoding: "identity" | "gzip" | "br"): unknown {
  const bytes = Buffer.concat(chunks);
  const plain =
    encoding === "gzip" ? gunzipSync(bytes) : encoding === "br" ? brotliDecompressSync(bytes) : bytes;
  return JSON.parse(plain.toString("utf8"));
}

describe("prebuilt JSON answers", () => {
  for (const encoding of ["identity", "gzip", "br"] as const) {
    test(`${encoding}: the shared part and each caller's tail decode to one whole document`, async () => {
      const prebuilt = PrebuiltJson.of(body);
      for (const remaining of [499, 7, 0]) {
        const chunks = await prebuilt.chunks(encoding, { req_remaining: remaining });
        assert.deepEqual(decode(chunks, encoding), { ...body, req_remaining: remaining });
      }
    });
  }

  test("compressed forms are much smaller than the document", async () => {
    const prebuilt = PrebuiltJson.of(body);
    const size = async (encoding: "identity" | "gzip" | "br") =>
      Buffer.concat(await prebuilt.chunks(encoding, { req_remaining: 1 })).length;
    const plain = await size("identity");
    assert.ok((await size("gzip")) < plain / 5);
    assert.ok((await size("br")) < (await size("gzip")));
  });

  test("a document without tail fields, and tails with text, stay valid", async () => {
    const prebuilt = PrebuiltJson.of({ info: [] });
    assert.deepEqual(decode(await prebuilt.chunks("gzip", {}), "gzip"), { info: [] });
    const tail = { note: 'quotes " and 汉字', count: 3 };
    assert.deepEqual(decode(await prebuilt.chunks("br", tail), "br"), { info: [], ...tail });
  });

  test("the validator names the content: equal documents share it, different ones do not", () => {
    assert.equal(PrebuiltJson.of(body).etag, PrebuiltJson.of(structuredClone(body)).etag);
    assert.notEqual(PrebuiltJson.of(body).etag, PrebuiltJson.of({ ...body, stat_time: 1 }).etag);
    assert.match(PrebuiltJson.of(body).etag, /^W\/"[A-Za-z0-9_-]+"$/);
  });

  test("the system's gzip and brotli tools read the spliced streams too", async (t) => {
    const prebuilt = PrebuiltJson.of(body);
    for (const [encoding, tool] of [
      ["gzip", ["gzip", "-dc"]],
      ["br", ["brotli", "-dc"]],
    ] as const) {
      // A missing tool is a skip the run's summary counts, not a pass.
      const installed = !spawnSync(tool[0], ["--version"]).error;
      await t.test(`${tool[0]} -dc`, { skip: !installed && `${tool[0]} is not installed` }, async () => {
        const chunks = await prebuilt.chunks(encoding, { req_remaining: 12 });
        const decoded = spawnSync(tool[0], tool.slice(1), { input: Buffer.concat(chunks) });
        assert.equal(decoded.status, 0, decoded.stderr.toString());
        assert.deepEqual(JSON.parse(decoded.stdout.toString("utf8")), { ...body, req_remaining: 12 });
      });
    }
  });

  test("a new answer serves the one it replaces in an encoding until its own bytes are compressed", async () => {
    const bodies = new PrebuiltBodies();
    const first = bodies.put({}, "items", body);
    await first.chunks("gzip", {});
    const changed = { ...body, stat_time: body.stat_time + 1 };
    const second = bodies.put({}, "items", changed);
    assert.notEqual(second.etag, first.etag);
    assert.equal(second.forEncoding("identity"), second, "plain bytes are ready at once");
    assert.equal(second.forEncoding("gzip"), first, "the previous compressed bytes, with their validator");
    assert.equal(second.forEncoding("br"), second, "nothing older to serve: this one, once compressed");
    assert.deepEqual(decode(await second.chunks("gzip", {}), "gzip"), changed);
    assert.equal(second.forEncoding("gzip"), second, "compressed: the new answer from now on");
  });

  test("an answer serialized in advance equals the one serialized whole", async () => {
    const json = JSON.stringify(body);
    const prebuilt = PrebuiltJson.ofJson(json.slice(0, -1));
    assert.equal(prebuilt.etag, PrebuiltJson.of(body).etag);
    assert.deepEqual(decode(await prebuilt.chunks("br", { req_remaining: 3 }), "br"), {
      ...body,
      req_remaining: 3,
    });
  });
});
