import { once } from "node:events";
import { Worker } from "node:worker_threads";
import { sql } from "kysely";
import { WebSocketServer, type WebSocket } from "ws";
import type { Socket } from "node:net";
import { buildApp } from "../src/app.ts";
import { EventLog } from "../src/domain/events/event-log.ts";
import { textFrame } from "../src/http/stream/wire-frame.ts";
import type { ChangeListener } from "../src/domain/change-notices.ts";
import { listenForChanges } from "../src/storage/change-notifications.ts";
import { createUser } from "../src/domain/accounts/create-user.ts";
import { OffsetClock } from "../src/domain/clock.ts";
import { DEFAULT_MARKET_RULES, type DomainContext } from "../src/domain/context.ts";
import { SecretBox } from "../src/domain/secret-box.ts";
import { SandboxPlatform } from "../src/platform/sandbox/sandbox-platform.ts";
import { openDatabase, type DatabaseLocation } from "../src/storage/database.ts";
import { migrateToLatest } from "../src/storage/migrator.ts";
import type { Figure } from "./market.ts";
import {
  bucketMs,
  HISTOGRAM_BUCKETS,
  type StreamClientsInput,
  type StreamClientsMessage,
} from "./stream-clients-worker.ts";
import { enqueueWebhookDeliveries } from "../src/domain/webhooks/enqueue.ts";

export interface EventBenchOptions {
  subscribers: number;
  /** Events per second offered. */
  rate: number;
  seconds: number;
  /** Worker threads the subscribers are spread over. */
  clientThreads: number;
}

interface Run {
  eventsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Streams closed (dropped as slow consumers) by the end. */
  closed: number;
  /** The share of the frames owed to the streams still open that had not arrived by the end. */
  missing: number;
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
  across = false,
): Promise<Figure[]> {
  progress(`events: bare ws broadcast to ${options.subscribers} clients at ${options.rate}/s`);
  const baseline = await bareBroadcast(options, false);
  progress(`events: bare broadcast, a tick's frames in one write, to ${options.subscribers} clients`);
  const batched = await bareBroadcast(options, true);
  const where = across ? "across two instances" : "one instance";
  progress(
    `events: the stream on ${label}, ${where}, ${options.subscribers} subscribers at ${options.rate}/s`,
  );
  const stream = await streamRun(location, options, across);
  return figuresOf(across ? `${label}, 2 instances` : label, options, stream, baseline, batched);
}

function describe(run: Run): string {
  return (
    `p50 ${run.p50Ms.toFixed(1)} ms, p99 ${run.p99Ms.toFixed(1)} ms` +
    (run.closed ? `, ${run.closed} streams closed` : "") +
    (run.missing > 0 ? `, ${(run.missing * 100).toFixed(1)} % of frames not arrived` : "")
  );
}

function figuresOf(
  label: string,
  options: EventBenchOptions,
  stream: Run,
  baseline: Run,
  batched: Run,
): Figure[] {
  const note = describe;
  const perSecond = (run: Run) => `${run.eventsPerSecond.toFixed(0)} ev/s`;
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
    {
      name: `event delay p99 vs batched (${label})`,
      value: stream.p99Ms,
      baseline: batched.p99Ms,
      unit: "ms",
      ratio: stream.p99Ms / Math.max(batched.p99Ms, 0.001),
      note: `vs a bare broadcast writing each client a tick's frames at once: ${perSecond(batched)}, ${note(batched)}; the stream ${perSecond(stream)}`,
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

/** The subscribers, spread over `clientThreads` workers; resolves once every client is open. */
async function startClientThreads(
  options: EventBenchOptions,
  input: Omit<StreamClientsInput, "clients">,
): Promise<Worker[]> {
  const threads = Math.max(1, Math.min(options.clientThreads, options.subscribers));
  const started = Array.from({ length: threads }, (_, index) =>
    startClients({
      ...input,
      clients: Math.floor(options.subscribers / threads) + (index < options.subscribers % threads ? 1 : 0),
    }),
  );
  await Promise.all(started.map((it) => it.opened));
  return started.map((it) => it.worker);
}

async function measure(
  workers: readonly Worker[],
  options: EventBenchOptions,
  offer: (count: number) => Promise<void> | void,
): Promise<Run> {
  for (const worker of workers) worker.postMessage("start");
  const startedAt = now();
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
  const reports = await Promise.all(
    workers.map(async (worker) => {
      const report = new Promise<StreamClientsMessage>((resolve, reject) => {
        worker.once("message", resolve);
        worker.once("error", reject);
        setTimeout(() => reject(new Error("the clients did not report within 60 s")), 60_000).unref();
      });
      worker.postMessage("stop");
      try {
        return (await report) as Extract<StreamClientsMessage, { kind: "report" }>;
      } finally {
        await worker.terminate();
      }
    }),
  );
  const histogram = new Float64Array(HISTOGRAM_BUCKETS);
  let received = 0;
  let closed = 0;
  let lastAt = 0;
  // Frames owed to an open stream and not arrived count as later than any that did.
  let missing = 0;
  for (const report of reports) {
    for (let bucket = 0; bucket < HISTOGRAM_BUCKETS; bucket++)
      histogram[bucket]! += report.histogram[bucket]!;
    received += report.received;
    closed += report.closed;
    lastAt = Math.max(lastAt, report.lastAt);
    for (const count of report.receivedByOpen) missing += Math.max(0, offered - count);
  }
  let counted = missing;
  for (const count of histogram) counted += count;
  const at = (quantile: number) => {
    let below = 0;
    for (let bucket = 0; bucket < HISTOGRAM_BUCKETS; bucket++) {
      below += histogram[bucket]!;
      if (below >= quantile * counted && below > 0) return bucketMs(bucket);
    }
    return Number.POSITIVE_INFINITY;
  };
  const owed = offered * (options.subscribers - closed);
  return {
    // Per subscriber, over the time from the first write to the last frame read.
    eventsPerSecond:
      received / options.subscribers / (Math.max(lastAt - startedAt, options.seconds * 1000) / 1000),
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    closed,
    missing: owed > 0 ? missing / owed : 0,
  };
}

/**
 * The same messages broadcast by a bare `ws` server, with `send` per client and message; or with
 * `batched`, each tick's messages framed once and written to each client's socket in one write
 * (what the stream's fan-out does, without its log, filters or bookkeeping): the most this machine
 * gives for so many frames.
 */
async function bareBroadcast(options: EventBenchOptions, batched: boolean): Promise<Run> {
  const server = new WebSocketServer({ port: 0, host: "127.0.0.1", perMessageDeflate: false });
  await once(server, "listening");
  const clients = new Set<WebSocket>();
  server.on("connection", (socket) => {
    clients.add(socket);
    socket.on("close", () => clients.delete(socket));
  });
  const address = server.address() as { port: number };
  const workers = await startClientThreads(options, {
    url: `ws://127.0.0.1:${address.port}/`,
    headers: {},
    subscribe: undefined,
  });
  let id = 0;
  const messageOf = (id: number) =>
    `{"type":"event","channel":"market","event":{"id":"${id}","type":"market.reset","created_at":${Math.floor(Date.now() / 1000)},"goods_id":null,"data":{"t":${now()}}}}`;
  const run = await measure(workers, options, (count) => {
    if (batched) {
      const frames: Buffer[] = [];
      for (let index = 0; index < count; index++) frames.push(textFrame(Buffer.from(messageOf(++id))));
      const joined = Buffer.concat(frames);
      for (const client of clients) {
        (client as unknown as { _socket: Socket })._socket.write(joined);
        if (client.bufferedAmount > SLOW_CONSUMER_BYTES) {
          clients.delete(client);
          client.close(4008, "slow consumer");
          client.terminate();
        }
      }
      return;
    }
    for (let index = 0; index < count; index++) {
      id++;
      const frame = messageOf(id);
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

/**
 * The stream's run. `across`: the events are committed and sequenced by instance A (its own pool
 * and event log), the subscribers are on instance B (an app with its own pool), which hears of A's
 * rounds by PostgreSQL's notices as the server does (`server.ts`), and reads them from the log.
 */
async function streamRun(
  location: DatabaseLocation,
  options: EventBenchOptions,
  across: boolean,
): Promise<Run> {
  if (across && location.kind !== "postgres") throw new Error("two instances need PostgreSQL");
  const database = await openDatabase(location);
  const writer = across ? await openDatabase(location) : database;
  let writerLog: EventLog | undefined;
  let listener: ChangeListener | undefined;
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
    // Every subscriber is one token from one address: the caps on open streams are the bench's count.
    const caps = { maxPerCredential: options.subscribers, maxPerAddress: options.subscribers };
    const app = await buildApp({ database, clock, ...services, stream: caps });
    const url = await app.listen({ port: 0, host: "127.0.0.1" });
    const subscriberLog = app.eventStreams.eventLog;
    writerLog = subscriberLog;
    if (across) {
      writerLog = new EventLog({ db: writer.db, clock, actor: { kind: "system" }, log, ...services }, [
        enqueueWebhookDeliveries,
      ]);
      await writerLog.start({ sweep: false });
      listener = await listenForChanges({
        url: (location as { url: string }).url,
        onChange: (message) => {
          if (message.kind === "events") subscriberLog.heard(message.last ?? Number.MAX_SAFE_INTEGER);
        },
        onReconnect: () => subscriberLog.heard(Number.MAX_SAFE_INTEGER),
        log,
      });
    }
    await subscriberLog.catchUp();
    const eventLog = writerLog;
    const workers = await startClientThreads(options, {
      url: `${url.replace(/^http/, "ws")}/api/market/developer/stream`,
      headers: { authorization: `Bearer ${user.value.token}` },
      subscribe: JSON.stringify({ op: "subscribe", channels: ["market"] }),
    });
    // Every stream has its subscription before the count starts.
    while (app.eventStreams.size < options.subscribers)
      await new Promise((resolve) => setTimeout(resolve, 50));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const run = await measure(workers, options, async (count) => {
      // What the triggers write in a change's transaction; committed, then the log is poked, as
      // `afterCommit` does after every commit.
      await sql`
        INSERT INTO event_outbox (type, user_id, goods_id, subject)
        SELECT 'market.reset', NULL, NULL, jsonb_build_object('t', ${now()}::float8)
        FROM generate_series(1, ${count})`.execute(writer.db);
      eventLog.poke();
    });
    await app.close();
    return run;
  } finally {
    await listener?.close();
    if (across) {
      await writerLog?.close();
      await writer.close();
    }
    await database.close();
  }
}
