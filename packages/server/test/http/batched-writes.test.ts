import assert from "node:assert/strict";
import { describe, test } from "node:test";
import Fastify, { type FastifyInstance } from "fastify";
import { registerBatchedWrites, type BatchedWritesOptions } from "../../src/http/plugins/batched-writes.ts";

/** An app whose route notes when each request is handled and when its answer is written. */
async function tracingApp(
  options: BatchedWritesOptions = {},
  breakWrite?: (n: number) => boolean,
): Promise<{ app: FastifyInstance; trace: string[] }> {
  const trace: string[] = [];
  const app = Fastify();
  registerBatchedWrites(app, options);
  app.get<{ Querystring: { n: string } }>("/", (request, reply) => {
    const n = Number(request.query.n);
    trace.push(`handled ${n}`);
    const writeHead = reply.raw.writeHead.bind(reply.raw);
    reply.raw.writeHead = ((...args: Parameters<typeof writeHead>) => {
      trace.push(`written ${n}`);
      if (breakWrite?.(n)) throw new Error("the socket refused the answer");
      return writeHead(...args);
    }) as typeof reply.raw.writeHead;
    return { n };
  });
  await app.ready();
  return { app, trace };
}

describe("answers are written together at the end of the event loop's turn", () => {
  test("answers made in one turn wait for the turn to end, then go out in order", async () => {
    const { app, trace } = await tracingApp();
    try {
      const answers = await Promise.all([1, 2, 3].map((n) => app.inject({ url: `/?n=${n}` })));
      assert.deepEqual(
        answers.map((answer) => answer.json()),
        [{ n: 1 }, { n: 2 }, { n: 3 }],
      );
      assert.deepEqual(trace, ["handled 1", "handled 2", "handled 3", "written 1", "written 2", "written 3"]);
    } finally {
      await app.close();
    }
  });

  test("a batch that fills up goes out at once", async () => {
    const { app, trace } = await tracingApp({ maxBatch: 2 });
    try {
      const answers = await Promise.all([1, 2, 3].map((n) => app.inject({ url: `/?n=${n}` })));
      assert.ok(answers.every((answer) => answer.statusCode === 200));
      assert.deepEqual(trace, ["handled 1", "handled 2", "written 1", "written 2", "handled 3", "written 3"]);
    } finally {
      await app.close();
    }
  });

  test("a write that fails closes its own connection and leaves the rest of the batch answered", async () => {
    const { app, trace } = await tracingApp({}, (n) => n === 2);
    try {
      const settled = await Promise.allSettled([1, 2, 3].map((n) => app.inject({ url: `/?n=${n}` })));
      assert.equal(settled[0]?.status === "fulfilled" && settled[0].value.statusCode, 200);
      assert.equal(settled[2]?.status === "fulfilled" && settled[2].value.statusCode, 200);
      assert.notEqual(settled[1]?.status === "fulfilled" && settled[1].value.statusCode, 200);
      assert.deepEqual(trace.slice(3), ["written 1", "written 2", "written 3"]);
    } finally {
      await app.close();
    }
  });
});
