import type { DomainContext } from "../context.ts";
import type { EventLog } from "../events/event-log.ts";
import { deliverDueWebhooks } from "./deliveries.ts";

/** Retries come due by the clock: the worker looks this often besides when events arrive. */
const RETRY_LOOK_INTERVAL_MS = 5000;

/**
 * Delivers webhooks on a running server (docs/design.md section 14, "Webhooks"): woken when the
 * event log tells of new events (the sequencer wrote their deliveries in the same transaction),
 * and on a timer for retries. Runs never overlap on one instance; instances share the work
 * through the endpoints' leases.
 */
export class WebhookWorker {
  readonly #ctx: DomainContext;
  readonly #intervalMs: number;
  #running: Promise<void> | undefined;
  #again = false;
  #closed = false;
  #timer: NodeJS.Timeout | undefined;
  #unsubscribe: (() => void) | undefined;

  constructor(ctx: DomainContext, options: { intervalMs?: number } = {}) {
    this.#ctx = { ...ctx, actor: { kind: "system" }, afterCommit: undefined };
    this.#intervalMs = options.intervalMs ?? RETRY_LOOK_INTERVAL_MS;
  }

  start(eventLog: EventLog): void {
    this.#unsubscribe = eventLog.onEvents(() => this.wake());
    this.#timer = setInterval(() => this.wake(), this.#intervalMs);
    this.#timer.unref();
    this.wake();
  }

  wake(): void {
    if (this.#closed) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = deliverDueWebhooks(this.#ctx, { stopped: () => this.#closed })
      .then(() => undefined)
      .catch((error: unknown) => this.#ctx.log.error({ err: error }, "delivering webhooks failed"))
      .finally(() => {
        this.#running = undefined;
        if (this.#again) {
          this.#again = false;
          this.wake();
        }
      });
  }

  /** Stops taking work; an attempt under way (at most 10 s) is finished and recorded. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#unsubscribe?.();
    if (this.#timer) clearInterval(this.#timer);
    await this.#running;
  }
}
