import type { DomainContext } from "../context.ts";
import type { EventLog } from "../events/event-log.ts";
import { DEFAULT_DELIVERY_POOL, DeliveryPool, type DeliveryPoolSettings } from "./delivery-pool.ts";

/** Retries come due by the clock: the worker looks this often besides when events arrive. */
const RETRY_LOOK_INTERVAL_MS = 5000;

/**
 * Delivers webhooks on a running server (docs/design/webhooks-and-tools.md#webhooks): woken when the
 * event log tells of new events (the sequencer wrote their deliveries in the same transaction),
 * and on a timer for retries. Its pool leases endpoints as slots free, so a slow receiver delays
 * only its own deliveries; instances share the work through the endpoints' leases.
 */
export class WebhookWorker {
  readonly #ctx: DomainContext;
  readonly #intervalMs: number;
  readonly #pool: DeliveryPool | undefined;
  #closed = false;
  #timer: NodeJS.Timeout | undefined;
  #unsubscribe: (() => void) | undefined;

  constructor(ctx: DomainContext, options: { intervalMs?: number; pool?: DeliveryPoolSettings } = {}) {
    this.#ctx = { ...ctx, actor: { kind: "system" }, afterCommit: undefined };
    this.#intervalMs = options.intervalMs ?? RETRY_LOOK_INTERVAL_MS;
    const sender = this.#ctx.webhookSender;
    this.#pool = sender
      ? new DeliveryPool(this.#ctx, sender, options.pool ?? DEFAULT_DELIVERY_POOL, () => this.#closed)
      : undefined;
  }

  start(eventLog: EventLog): void {
    this.#unsubscribe = eventLog.onEvents(() => this.wake());
    this.#timer = setInterval(() => this.wake(), this.#intervalMs);
    this.#timer.unref();
    this.wake();
  }

  wake(): void {
    if (!this.#closed) this.#pool?.fill();
  }

  /** Stops taking work; the attempts under way (at most 10 s) are finished and recorded. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#unsubscribe?.();
    if (this.#timer) clearInterval(this.#timer);
    await this.#pool?.idle();
  }
}
