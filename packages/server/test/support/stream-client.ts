import { WebSocket, type ClientOptions } from "ws";

/** A message of the event stream as a test reads it. */
export interface StreamMessage {
  type: string;
  channel?: string;
  event?: { id: string; type: string; goods_id: number | null; data: Record<string, unknown> };
  [field: string]: unknown;
}

/** A refused upgrade: the HTTP status and the JSON body. */
export class RefusedUpgrade extends Error {
  readonly status: number;
  readonly body: Record<string, unknown>;
  constructor(status: number, body: Record<string, unknown>) {
    super(`upgrade refused: ${status} ${JSON.stringify(body)}`);
    this.status = status;
    this.body = body;
  }
}

/**
 * A client of `/api/market/developer/stream` (the `ws` package): keeps every message, and waits
 * for the next one that matches, without timing anything (the test runner's timeout bounds it).
 */
export class StreamClient {
  readonly socket: WebSocket;
  readonly messages: StreamMessage[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  #read = 0;
  #waiters: (() => void)[] = [];

  private constructor(socket: WebSocket) {
    this.socket = socket;
    socket.on("message", (data) => {
      this.messages.push(JSON.parse(String(data)) as StreamMessage);
      this.#wake();
    });
    this.closed = new Promise((resolve) =>
      socket.on("close", (code, reason) => {
        resolve({ code, reason: String(reason) });
        this.#wake();
      }),
    );
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const waiter of waiters) waiter();
  }

  /** Opens a stream; a refused upgrade rejects with `RefusedUpgrade`. */
  static open(
    baseUrl: string,
    headers: Record<string, string> = {},
    options: ClientOptions = {},
  ): Promise<StreamClient> {
    const url = `${baseUrl.replace(/^http/, "ws")}/api/market/developer/stream`;
    const socket = new WebSocket(url, { headers, ...options });
    const client = new StreamClient(socket);
    return new Promise((resolve, reject) => {
      socket.once("open", () => resolve(client));
      socket.once("unexpected-response", (_request, response) => {
        let body = "";
        response.on("data", (chunk: Buffer) => (body += chunk));
        response.on("end", () => {
          let parsed: Record<string, unknown>;
          try {
            parsed = JSON.parse(body) as Record<string, unknown>;
          } catch {
            parsed = { raw: body };
          }
          reject(new RefusedUpgrade(response.statusCode ?? 0, parsed));
          socket.terminate();
        });
      });
      socket.once("error", reject);
    });
  }

  /** Opens a stream with a bearer token. */
  static withToken(baseUrl: string, token: string, options: ClientOptions = {}): Promise<StreamClient> {
    return StreamClient.open(baseUrl, { authorization: `Bearer ${token}` }, options);
  }

  send(message: unknown): void {
    this.socket.send(typeof message === "string" ? message : JSON.stringify(message));
  }

  /** The next message (after those already taken) that matches; rejects if the stream closes first. */
  async next(matches: (message: StreamMessage) => boolean = () => true): Promise<StreamMessage> {
    for (;;) {
      while (this.#read < this.messages.length) {
        const message = this.messages[this.#read++]!;
        if (matches(message)) return message;
      }
      if (this.socket.readyState === WebSocket.CLOSED)
        throw new Error(
          `the stream closed while waiting; messages: ${JSON.stringify(this.messages.slice(-5))}`,
        );
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  /** The next message of `type`. */
  nextOfType(type: string): Promise<StreamMessage> {
    return this.next((message) => message.type === type);
  }

  /** Waits until an event with id `id` or above arrived, and answers every event received so far. */
  async eventsUpTo(id: number): Promise<StreamMessage[]> {
    for (;;) {
      const events = this.messages.filter((message) => message.type === "event");
      if (events.some((message) => Number(message.event!.id) >= id)) return events;
      await this.next((message) => message.type === "event");
    }
  }

  /** Subscribes and waits for the answer. */
  async subscribe(body: Record<string, unknown>): Promise<StreamMessage> {
    this.send({ op: "subscribe", ...body });
    return this.next((message) => message.type === "subscribed" || message.type === "error");
  }

  close(): Promise<{ code: number; reason: string }> {
    this.socket.close(1000);
    return this.closed;
  }
}
