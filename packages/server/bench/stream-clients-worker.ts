import { randomBytes } from "node:crypto";
import { connect, type Socket } from "node:net";
import { parentPort, workerData } from "node:worker_threads";

/**
 * Stream subscribers in a thread of their own (the bench starts several), so that reading up to a
 * million frames a second does not share the event loop of the server measured. Each event carries
 * the moment it was committed (`t`, milliseconds since the Unix epoch with fractions, a clock every
 * thread shares); each client notes the delay at which the event reached it.
 *
 * The clients speak WebSocket over plain TCP sockets and read only what the figures need: a frame's
 * header, whether it is an event, and its `t`. A full client (`ws`: a `message` event, a string and
 * a parse per frame) costs more per frame than the server's fan-out, so that the bench measured the
 * clients; the same clients read the bare broadcast and the stream.
 */
export interface StreamClientsInput {
  /** `ws://host:port/path`. */
  url: string;
  headers: Record<string, string>;
  clients: number;
  /** Sent once open (the skinmarket stream's subscribe; none for the bare baseline). */
  subscribe: string | undefined;
}

export type StreamClientsMessage =
  | { kind: "open" }
  | {
      kind: "report";
      received: number;
      /** Delays counted per bucket (`delayBucket`). */
      histogram: Uint32Array;
      /** Clients whose connection closed. */
      closed: number;
      /** Each open client's events counted, for the bench to tell missing frames. */
      receivedByOpen: number[];
      /** Epoch milliseconds of the last event frame read. */
      lastAt: number;
    };

/** 0.1 ms buckets up to 2 s, then 10 ms buckets up to 120 s; the last bucket holds the rest. */
export const HISTOGRAM_BUCKETS = 20_000 + 11_800 + 1;
export function delayBucket(ms: number): number {
  if (ms < 2000) return Math.max(0, Math.floor(ms * 10));
  return Math.min(HISTOGRAM_BUCKETS - 1, 20_000 + Math.floor((ms - 2000) / 10));
}
/** The upper edge of a bucket, in milliseconds. */
export function bucketMs(bucket: number): number {
  if (bucket < 20_000) return (bucket + 1) / 10;
  return bucket === HISTOGRAM_BUCKETS - 1 ? Number.POSITIVE_INFINITY : 2000 + (bucket - 20_000 + 1) * 10;
}

const now = () => performance.timeOrigin + performance.now();
/** `{"type":"event"`: an event message begins so (both servers write `type` first). */
const EVENT_PREFIX = Buffer.from('{"type":"event"');
/** Where an event frame's byte is checked: `e` of `event`, the byte after which differs elsewhere. */
const EVENT_MARK = EVENT_PREFIX.length - 5;

/** A client frame: masked (RFC 6455 requires it), here with the zero key, which leaves the bytes as they are. */
function clientFrame(opcode: number, payload: Buffer): Buffer {
  const length = payload.length;
  const header = length < 126 ? 6 : 8;
  const frame = Buffer.alloc(header + length);
  frame[0] = 0x80 | opcode;
  if (length < 126) frame[1] = 0x80 | length;
  else {
    frame[1] = 0x80 | 126;
    frame.writeUInt16BE(length, 2);
  }
  payload.copy(frame, header);
  return frame;
}

class Client {
  received = 0;
  closed = false;
  #pending: Buffer | undefined;
  readonly #socket: Socket;
  readonly report: { histogram: Uint32Array; counting: boolean; lastAt: number };

  constructor(socket: Socket, report: Client["report"]) {
    this.#socket = socket;
    this.report = report;
  }

  read(chunk: Buffer): void {
    const data = this.#pending ? Buffer.concat([this.#pending, chunk]) : chunk;
    this.#pending = undefined;
    // Every frame of a chunk arrived when the chunk did.
    const arrived = now();
    let at = 0;
    const end = data.length;
    while (end - at >= 2) {
      const opcode = data[at]! & 0x0f;
      let length = data[at + 1]! & 0x7f;
      let header = 2;
      if (length === 126) {
        if (end - at < 4) break;
        length = data.readUInt16BE(at + 2);
        header = 4;
      } else if (length === 127) {
        if (end - at < 10) break;
        length = Number(data.readBigUInt64BE(at + 2));
        header = 10;
      }
      if (end - at < header + length) break;
      const start = at + header;
      const stop = start + length;
      at = stop;
      if (opcode === 0x9) {
        this.#socket.write(clientFrame(0xa, data.subarray(start, stop)));
        continue;
      }
      if (opcode === 0x8) {
        this.closed = true;
        continue;
      }
      if (opcode !== 0x1 || !this.report.counting) continue;
      // `{"type":"e` and then `vent"`: the other messages are `welcome`, `subscribed`, `heartbeat`...
      if (
        length < EVENT_PREFIX.length ||
        data[start + EVENT_MARK] !== EVENT_PREFIX[EVENT_MARK] ||
        data[start + EVENT_MARK + 1] !== EVENT_PREFIX[EVENT_MARK + 1] ||
        data[start + 2] !== EVENT_PREFIX[2]
      )
        continue;
      this.received++;
      // The frame ends `"t":<number>}}}`: back from the end to the colon.
      let colon = stop - 1;
      while (colon > start && data[colon] !== 0x3a /* : */) colon--;
      let close = colon + 1;
      while (close < stop && data[close] !== 0x7d /* } */) close++;
      const delay = arrived - Number(data.toString("latin1", colon + 1, close));
      this.report.histogram[delayBucket(delay)]!++;
      this.report.lastAt = arrived;
    }
    if (at < end) this.#pending = Buffer.from(data.subarray(at));
  }
}

/** Opens a WebSocket over `socket` (the handshake read by hand) and resolves once it is upgraded. */
function open(input: StreamClientsInput, report: Client["report"]): Promise<Client> {
  const url = new URL(input.url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port) });
    socket.setNoDelay(true);
    const client = new Client(socket, report);
    let head = Buffer.alloc(0);
    const onHandshake = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const endOfHead = head.indexOf("\r\n\r\n");
      if (endOfHead < 0) return;
      socket.off("data", onHandshake);
      const status = head.subarray(0, head.indexOf("\r\n")).toString();
      if (!/^HTTP\/1\.1 101 /.test(status)) {
        socket.destroy();
        reject(new Error(`the upgrade answered ${status}`));
        return;
      }
      socket.on("data", (data: Buffer) => client.read(data));
      socket.once("close", () => (client.closed = true));
      if (input.subscribe) socket.write(clientFrame(0x1, Buffer.from(input.subscribe)));
      const rest = head.subarray(endOfHead + 4);
      if (rest.length > 0) client.read(rest);
      resolve(client);
    };
    socket.on("data", onHandshake);
    socket.once("error", reject);
    const headers = Object.entries(input.headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join("");
    socket.write(
      `GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\n` +
        `Connection: Upgrade\r\nSec-WebSocket-Key: ${randomBytes(16).toString("base64")}\r\n` +
        `Sec-WebSocket-Version: 13\r\n${headers}\r\n`,
    );
  });
}

if (parentPort) {
  const input = workerData as StreamClientsInput;
  const report = { histogram: new Uint32Array(HISTOGRAM_BUCKETS), counting: false, lastAt: 0 };
  const clients: Client[] = [];
  // A few at a time: a thousand handshakes at once overflow the server's accept queue.
  for (let start = 0; start < input.clients; start += 50)
    clients.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(50, input.clients - start) }, () => open(input, report)),
      )),
    );
  parentPort.postMessage({ kind: "open" } satisfies StreamClientsMessage);
  parentPort.on("message", (command: "start" | "stop") => {
    if (command === "start") {
      report.counting = true;
      return;
    }
    report.counting = false;
    parentPort!.postMessage({
      kind: "report",
      received: clients.reduce((sum, client) => sum + client.received, 0),
      histogram: report.histogram,
      closed: clients.filter((client) => client.closed).length,
      receivedByOpen: clients.filter((client) => !client.closed).map((client) => client.received),
      lastAt: report.lastAt,
    } satisfies StreamClientsMessage);
    // The bench ends the thread once it has the report (closing the port here could lose it).
  });
}
