import { once } from "node:events";
import { Worker } from "node:worker_threads";
import { sql } from "kysely";
import { WebSocketServer, type WebSocket } from "ws";
import { buildApp } from "../src/app.ts";
import { createUser } from "../src/domain/accounts/create-user.ts";
import { OffsetClock } from "../src/domain/clock.ts";
import { DEFAULT_MARKET_RULES, type DomainContext } from "../src/domain/context.ts";
import { SecretBox } from "../src/domain/secret-box.ts";
import { SandboxPlatform } from "../src/platform/sandbox/sandbox-platform.ts";
import { openDatabase, type DatabaseLocation } from "../src/storage/database.ts";
import { migrateToLatest } from "../src/storage/migrator.ts";
import type { Figure } from "./market.ts";
import type { StreamClientsInput, StreamClientsMessage } from "./stream-clients-worker.ts";

export interface EventBenchOptions {
  subscribers: number;
  /** Events per second offered. */
  rate: number;
  seconds: number;
}

interface Run {
  eventsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  closed: number;
}

const log = { info() {}, warn() {}, error() {}, debug() {}, trace() {}, fatal() {} } as never;
const now = () => performance.timeOrigin + performance.now();
/** The offered events are written every this many milliseconds, as many as the rate asks by then. */
const TICK_MS = 10;
/** The stream's default `STREAM_MAX_BUFFER_BYTES`, applied to the bare broadcast too. */
const SLOW_CONSUMER_BYTES = 1024 * 1024;
/** How long the subscribers may take to read what was sent before the count stops. */
const DRAIN_MS = 2000;

/**
 * `npm run bench -- events`: events per second from commit to subscriber, and the delay's p50 and
 * p99, with `subscribers` streams on one instance subscribed to `market`, at `rate` events a second;
 * against the same frames broadcast by a bare `ws` server to as many clients in the same run.
 * The events are written to `event_outbox` (as the triggers write them), the sequencer turns them
 * into `market.reset` events carrying the commit's moment, and the stream fans them out.
 */
export async function benchEvents(
  location: DatabaseLocation,
  label: string,
  options: EventBenchOptions,
  progress: (message: string) => void,
): Promise<Figure[]> {
  progress(`events: bare ws broadcast to ${options.subscribers} clients at ${options.rate}/s`);
  const baseline = await bareBroadcast(options);
  progress(`events: the stream on ${label}, ${options.subscribers} subscribers at ${options.rate}/s`);
  const stream = await streamRun(location, options);
  const note = (run: Run) =>
    `p50 ${run.p50Ms.toFixed(1)} ms, p99 ${run.p99Ms.toFixed(1)} ms${run.closed ? `, ${run.closed} streams closed` : ""}`;
  return [
    {
      name: `event stream (${label})`,
      value: stream.eventsPerSecond,
      baseline: baseline.eventsPerSecond,
      unit: "ev/s",
      ratio: stream.eventsPerSecond / baseline.eventsPerSecond,
      note: `commit to each of ${options.subscribers} subscribers, offered ${options.rate}/s: ${note(stream)}; vs bare ws broadcast ${note(baseline)}`,
    },
    {
      name: `event delay p99 (${label})`,
      value: stream.p99Ms,
      baseline: baseline.p99Ms,
      unit: "ms",
      ratio: stream.p99Ms / Math.max(baseline.p99Ms, 0.001),
      note: `goal: under 50 ms at ${options.rate} events/s; vs bare ws broadcast`,
    },
  ];
}

function startClients(input: StreamClientsInput): { worker: Worker; opened: Promise<unknown> } {
  const worker = new Worker(new URL("./stream-clients-worker.ts", import.meta.url), { workerData: input });
  const opened = new Promise((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  return { worker, opened };
}

async function measure(
  worker: Worker,
  options: EventBenchOptions,
  offer: (count: number) => Promise<void> | void,
): Promise<Run> {
  worker.postMessage("start");
  const started = performance.now();
  let offered = 0;
  while (performance.now() - started < options.seconds * 1000) {
    const due = Math.floor(((performance.now() - started) / 1000) * options.rate);
    if (due > offered) {
      await offer(due - offered);
      offered = due;
    }
    await new Promise((resolve) => setTimeout(resolve, TICK_MS));
  }
  await new Promise((resolve) => setTimeout(resolve, DRAIN_MS));
  const report = new Promise<StreamClientsMessage>((resolve) => worker.once("message", resolve));
  worker.postMessage("stop");
  const answer = (await report) as Extract<StreamClientsMessage, { kind: "report" }>;
  await once(worker, "exit");
  const delays = answer.delaysMs.sort((a, b) => a - b);
  const at = (quantile: number) =>
    delays[Math.min(delays.length - 1, Math.floor(quantile * delays.length))] ?? NaN;
  return {
    // Over the time the clients counted: a flooded client takes the stop late.
    eventsPerSecond: answer.received / options.subscribers / (answer.countedMs / 1000),
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    closed: answer.closed,
  };
}

async function bareBroadcast(options: EventBenchOptions): Promise<Run> {
  const server = new WebSocketServer({ port: 0, host: "127.0.0.1", perMessageDeflate: false });
  await once(server, "listening");
  const clients = new Set<WebSocket>();
  server.on("connection", (socket) => {
    clients.add(socket);
    socket.on("close", () => clients.delete(socket));
  });
  const address = server.address() as { port: number };
  const { worker, opened } = startClients({
    url: `ws://127.0.0.1:${address.port}`,
    headers: {},
    clients: options.subscribers,
    subscribe: undefined,
  });
  await opened;
  let id = 0;
  const run = await measure(worker, options, (count) => {
    for (let index = 0; index < count; index++) {
      id++;
      const frame = `{"type":"event","channel":"market","event":{"id":"${id}","type":"market.reset","created_at":${Math.floor(Date.now() / 1000)},"goods_id":null,"data":{"t":${now()}}}}`;
      for (const client of clients) {
        client.send(frame);
        // The stream's policy for slow consumers (STREAM_MAX_BUFFER_BYTES), so that both hold as much.
        if (client.bufferedAmount > SLOW_CONSUMER_BYTES) {
          clients.delete(client);
          client.close(4008, "slow consumer");
          client.terminate();
        }
      }
    }
  });
  for (const client of clients) client.terminate();
  server.close();
  return run;
}

async function streamRun(location: DatabaseLocation, options: EventBenchOptions): Promise<Run> {
  const database = await openDatabase(location);
  const services = {
    platform: new SandboxPlatform(),
    secretBox: new SecretBox(SecretBox.generateKey()),
    rules: DEFAULT_MARKET_RULES,
  };
  try {
    await migrateToLatest(database.db);
    const clock = new OffsetClock();
    const ctx: DomainContext = { db: database.db, clock, actor: { kind: "admin" }, log, ...services };
    const user = await createUser(ctx, { nickname: `bench-events-${Date.now()}` });
    if (!user.ok) throw new Error(user.failure.message);
    const app = await buildApp({ database, clock, ...services });
    const url = await app.listen({ port: 0, host: "127.0.0.1" });
    const eventLog = app.eventStreams.eventLog;
    await eventLog.catchUp();
    const { worker, opened } = startClients({
      url: `${url.replace(/^http/, "ws")}/api/market/developer/stream`,
      headers: { authorization: `Bearer ${user.value.token}` },
      clients: options.subscribers,
      subscribe: JSON.stringify({ op: "subscribe", channels: ["market"] }),
    });
    await opened;
    // Every stream has its subscription before the count starts.
    while (app.eventStreams.size < options.subscribers)
      await new Promise((resolve) => setTimeout(resolve, 50));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const run = await measure(worker, options, async (count) => {
      // What the triggers write in a change's transaction; committed, then the log is poked, as
      // `afterCommit` does after every commit.
      await sql`
        INSERT INTO event_outbox (type, user_id, goods_id, subject)
        SELECT 'market.reset', NULL, NULL, jsonb_build_object('t', ${now()}::float8)
        FROM generate_series(1, ${count})`.execute(database.db);
      eventLog.poke();
    });
    await app.close();
    return run;
  } finally {
    await database.close();
  }
}
