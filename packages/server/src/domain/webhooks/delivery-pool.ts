import type { DomainContext } from "../context.ts";
import { drainEndpoint } from "./deliveries.ts";
import { leaseEndpoints } from "./endpoint-leases.ts";
import type { WebhookSender } from "../webhook-sender.ts";

/**
 * How an instance shares its sending among endpoints (docs/design/webhooks-and-tools.md#webhooks): at
 * most `slots` endpoints are sent to at once, each for a lease of at most `budgetMs` (then its
 * remaining deliveries wait for its next lease, behind the endpoints already waiting).
 */
export interface DeliveryPoolSettings {
  slots: number;
  budgetMs: number;
}

export const DEFAULT_DELIVERY_POOL: DeliveryPoolSettings = { slots: 16, budgetMs: 5000 };

/**
 * A bounded set of endpoint slots: an endpoint is leased as soon as a slot is free, not round by
 * round, so a slow receiver holds one slot while the others keep serving every other endpoint.
 * Leases are the database's (`endpoint-leases.ts`): pools on several instances share the
 * endpoints, one at a time each.
 */
export class DeliveryPool {
  readonly #ctx: DomainContext;
  readonly #sender: WebhookSender;
  readonly #settings: DeliveryPoolSettings;
  readonly #stopped: () => boolean;
  readonly #held = new Set<Promise<void>>();
  #leasing: Promise<void> | undefined;
  #again = false;
  #idle: Array<() => void> = [];
  /** Attempts made so far. */
  attempts = 0;

  constructor(
    ctx: DomainContext,
    sender: WebhookSender,
    settings: DeliveryPoolSettings,
    stopped: () => boolean = () => false,
  ) {
    this.#ctx = ctx;
    this.#sender = sender;
    this.#settings = settings;
    this.#stopped = stopped;
  }

  /** Fills the free slots with due endpoints: when work may have come due, and when a slot frees. */
  fill(): void {
    if (this.#stopped()) return this.#settle();
    if (this.#leasing) {
      this.#again = true;
      return;
    }
    this.#leasing = this.#lease()
      .catch((error: unknown) => this.#ctx.log.error({ err: error }, "leasing webhook endpoints failed"))
      .finally(() => {
        this.#leasing = undefined;
        if (this.#again) {
          this.#again = false;
          this.fill();
        } else this.#settle();
      });
  }

  /** Resolves once no endpoint is held and the last look found none due (or the pool stopped). */
  idle(): Promise<void> {
    if (this.#isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  async #lease(): Promise<void> {
    const free = this.#settings.slots - this.#held.size;
    if (free <= 0) return;
    const endpoints = await leaseEndpoints(this.#ctx, { due: this.#ctx.clock.now(), limit: free });
    for (const endpoint of endpoints) {
      const held: Promise<void> = drainEndpoint(this.#ctx, this.#sender, endpoint, {
        budgetMs: this.#settings.budgetMs,
        stopped: this.#stopped,
      }).then(
        (made) => {
          this.attempts += made;
          this.#held.delete(held);
          this.fill();
        },
        (error: unknown) => {
          // Not leased again at once (that could loop on a failing database): the next wake does.
          this.#ctx.log.error(
            { err: error, endpoint_id: endpoint.endpoint_id },
            "delivering webhooks failed",
          );
          this.#held.delete(held);
          this.#settle();
        },
      );
      this.#held.add(held);
    }
  }

  #isIdle(): boolean {
    return this.#leasing === undefined && this.#held.size === 0;
  }

  #settle(): void {
    if (!this.#isIdle()) return;
    for (const resolve of this.#idle.splice(0)) resolve();
  }
}

/**
 * Delivers what is due now, through a pool of its own, until no endpoint has a due delivery
 * (`POST /sandbox/jobs/run`, and tests). Answers the number of attempts made.
 */
export async function deliverDueWebhooks(
  ctx: DomainContext,
  options: { stopped?: () => boolean; pool?: DeliveryPoolSettings } = {},
): Promise<number> {
  const sender = ctx.webhookSender;
  if (!sender) return 0;
  const pool = new DeliveryPool(ctx, sender, options.pool ?? DEFAULT_DELIVERY_POOL, options.stopped);
  pool.fill();
  await pool.idle();
  return pool.attempts;
}
