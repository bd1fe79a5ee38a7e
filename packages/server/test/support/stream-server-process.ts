import { sql } from "kysely";
import { createTestApp } from "./test-app.ts";

/**
 * A server in a process of its own, for tests that measure what the server holds (its resident
 * memory) apart from the clients the test runs (`event-stream.test.ts`, the inbound bound): the
 * test app on its own database, listening, with a user and a log of public events large enough
 * that a replay of it outlasts the kernel's socket buffers. It tells the parent over IPC
 * `{url, token, lastEventId}`, answers `"memory"` with `{rss, maxRss}` in bytes and its open `streams`, and stops at
 * `"stop"` or when the parent goes.
 */
const EVENTS = Number(process.env.STREAM_SERVER_EVENTS ?? 6000);
const PADDING_BYTES = 2048;

const t = await createTestApp({
  stream: { maxBufferBytes: 16 * 1024, heartbeatMs: 60_000 },
});
const user = await t.createUser({ nickname: "stream-process" });
await sql`
  INSERT INTO events (event_id, type, user_id, goods_id, created_at, data)
  SELECT nextval('event_ids'), 'market.reset', NULL, NULL, now(),
         jsonb_build_object('padding', repeat('x', ${PADDING_BYTES}), 'n', n)
  FROM generate_series(1, ${EVENTS}) AS n`.execute(t.database.db);
const last = Number(
  (await sql<{ id: string }>`SELECT max(event_id) AS id FROM events`.execute(t.database.db)).rows[0]!.id,
);
t.app.eventStreams.eventLog.heard(last);
await t.app.eventStreams.eventLog.catchUp();
const url = await t.app.listen({ port: 0, host: "127.0.0.1" });

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await t.close();
  process.exit(0);
};
process.on("disconnect", () => void stop());
process.on("message", (message) => {
  if (message === "stop") void stop();
  else if (message === "memory")
    process.send!({
      type: "memory",
      rss: process.memoryUsage.rss(),
      maxRss: process.resourceUsage().maxRSS * 1024,
      streams: t.app.eventStreams.size,
    });
});
process.send!({ type: "ready", url, token: user.token, lastEventId: String(last) });
