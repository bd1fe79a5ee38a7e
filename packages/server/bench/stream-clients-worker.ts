import { parentPort, workerData } from "node:worker_threads";
import { WebSocket } from "ws";

/**
 * Stream subscribers in their own thread, so that reading a million frames a second does not share
 * the event loop of the server measured. Each event carries the moment it was committed (`t`, in
 * milliseconds since the Unix epoch with fractions, a clock both threads share); each client notes
 * the delay at which the event reached it.
 */
export interface StreamClientsInput {
  url: string;
  headers: Record<string, string>;
  clients: number;
  /** Sent once open (the skinmarket stream's subscribe; none for the bare baseline). */
  subscribe: string | undefined;
}

export type StreamClientsMessage =
  | { kind: "open" }
  | { kind: "report"; received: number; delaysMs: number[]; closed: number; countedMs: number };

const input = workerData as StreamClientsInput;
const now = () => performance.timeOrigin + performance.now();
let received = 0;
let counting = false;
let closed = 0;
let countingSince = 0;
const delays: number[] = [];

const sockets = await Promise.all(
  Array.from(
    { length: input.clients },
    () =>
      new Promise<WebSocket>((resolve, reject) => {
        const socket = new WebSocket(input.url, { headers: input.headers, perMessageDeflate: false });
        socket.on("message", (data) => {
          if (!counting) return;
          // Only what the figures need is read from the frame (a full parse per frame would make
          // the clients, not the server, the bottleneck of the measure).
          const text = String(data);
          if (!text.startsWith('{"type":"event"')) return;
          received++;
          const at = text.lastIndexOf('"t":');
          if (at >= 0) delays.push(now() - Number.parseFloat(text.slice(at + 4)));
        });
        socket.once("open", () => {
          if (input.subscribe) socket.send(input.subscribe);
          resolve(socket);
        });
        socket.once("close", () => closed++);
        socket.once("error", reject);
      }),
  ),
);
parentPort!.postMessage({ kind: "open" } satisfies StreamClientsMessage);
parentPort!.on("message", (command: "start" | "stop") => {
  if (command === "start") {
    counting = true;
    countingSince = performance.now();
    return;
  }
  counting = false;
  parentPort!.postMessage({
    kind: "report",
    received,
    delaysMs: delays,
    countedMs: performance.now() - countingSince,
    closed,
  } satisfies StreamClientsMessage);
  for (const socket of sockets) socket.terminate();
  parentPort!.close();
});
