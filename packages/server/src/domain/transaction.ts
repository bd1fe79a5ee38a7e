import type { DomainContext } from "./context.ts";
import { IdempotencyKeyTakenOver, recordKeyEffect } from "./idempotency-keys.ts";
import type { Failure, Result } from "./result.ts";

/** Serialization failure and deadlock: the transaction lost a race and may simply run again. */
const RETRYABLE_SQLSTATES = new Set(["40001", "40P01"]);
const MAX_ATTEMPTS = 5;

class RollbackWithFailure extends Error {
  readonly failure: Failure;
  constructor(failure: Failure) {
    super(failure.message);
    this.failure = failure;
  }
}

/**
 * Runs `work` in one database transaction: everything it writes (money, items, audit) commits
 * together, or nothing does. A failure result rolls the transaction back and is returned as is.
 * Inside an open transaction, `work` simply joins it.
 */
export async function inTransaction<Value>(
  ctx: DomainContext,
  work: (tx: DomainContext) => Promise<Result<Value>>,
): Promise<Result<Value>> {
  if (ctx.db.isTransaction) return work(ctx);
  try {
    const value = await retryingLostRaces(() =>
      ctx.db.transaction().execute(async (trx) => {
        const tx = { ...ctx, db: trx, changedGoods: { goods: new Set<number>(), noted: false } };
        const result = await work(tx);
        if (!result.ok) throw new RollbackWithFailure(result.failure);
        await countOnKey(tx);
        return { value: result.value, goods: tx.changedGoods };
      }),
    );
    committed(ctx, value.goods);
    return { ok: true, value: value.value };
  } catch (error) {
    if (error instanceof RollbackWithFailure) return { ok: false, failure: error.failure };
    throw error;
  }
}

/**
 * Runs one statement that is a whole transaction by itself (a database function such as
 * `purchase_unit`): it commits or fails as a unit without BEGIN and COMMIT round trips, and lost
 * races are run again as in `inTransaction`. `changed` tells from the answer whether it wrote
 * anything, for the request's effects and the market's change count. Inside an open transaction
 * the statement simply joins it.
 */
export async function inOneStatement<Value>(
  ctx: DomainContext,
  statement: (ctx: DomainContext) => Promise<Value>,
  changed: (value: Value) => boolean,
): Promise<Value> {
  if (ctx.db.isTransaction) return statement(ctx);
  // A request holding an idempotency key counts its effect on the key in the same transaction.
  const goods = { goods: new Set<number>(), noted: false };
  const value = await retryingLostRaces(() => {
    goods.goods.clear();
    goods.noted = false;
    return ctx.effects?.key
      ? ctx.db.transaction().execute(async (trx) => {
          const tx = { ...ctx, db: trx, changedGoods: goods };
          const value = await statement(tx);
          if (changed(value)) await countOnKey(tx);
          return value;
        })
      : statement({ ...ctx, changedGoods: goods });
  });
  if (changed(value)) committed(ctx, goods);
  return value;
}

/**
 * Counts a transaction about to commit on the idempotency key its request holds, if any; a key
 * a retry took over (its lease passed) aborts the transaction, so the retry's effect is the only one.
 */
async function countOnKey(tx: DomainContext): Promise<void> {
  const held = tx.effects?.key;
  if (held && !(await recordKeyEffect(tx, held))) throw new IdempotencyKeyTakenOver();
}

async function retryingLostRaces<Value>(run: () => Promise<Value>): Promise<Value> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (attempt < MAX_ATTEMPTS && RETRYABLE_SQLSTATES.has(sqlState(error) ?? "")) {
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
        continue;
      }
      throw error;
    }
  }
}

function committed(
  ctx: DomainContext,
  changed: { goods: Set<number>; noted: boolean; ranks?: boolean },
): void {
  if (ctx.effects) ctx.effects.committed += 1;
  if (changed.noted && changed.ranks) ctx.afterCommit?.("ranks");
  ctx.afterCommit?.(changed.noted ? [...changed.goods] : "all");
}

/**
 * Notes that the open transaction writes listings or buy orders of `goodsIds` (none: it writes
 * no figure of the market): when it commits, the market snapshots re-read those goods alone
 * (docs/design/market-snapshots.md#updates-per-changed-goods). A transaction that notes nothing counts as a change to everything,
 * so a write that forgets to note its goods costs a whole rebuild, never a stale price.
 */
export function noteChangedGoods(ctx: DomainContext, goodsIds: Iterable<number>): void {
  if (!ctx.changedGoods) return;
  ctx.changedGoods.noted = true;
  for (const goodsId of goodsIds) ctx.changedGoods.goods.add(goodsId);
}

/**
 * Notes that the open transaction writes no figure of the market (`noteChangedGoods`) but the
 * goods its helpers note where they write listings or buy orders (`withdrawListingsOfItems`,
 * `settleFill`, ...), which still count.
 */
export function noteNoMarketChange(ctx: DomainContext): void {
  noteChangedGoods(ctx, []);
}

/**
 * Notes that the open transaction writes the liquidity ranks: when it commits, the market
 * snapshots read the ranks again and leave every goods' figures as they are.
 */
export function noteRanksChanged(ctx: DomainContext): void {
  if (!ctx.changedGoods) return;
  ctx.changedGoods.noted = true;
  ctx.changedGoods.ranks = true;
}

/** The SQLSTATE of a database error from either driver, if it is one. */
export function sqlState(error: unknown): string | undefined {
  if (typeof error === "object" && error !== null && "code" in error && typeof error.code === "string") {
    return /^[0-9A-Z]{5}$/.test(error.code) ? error.code : undefined;
  }
  return undefined;
}

export function constraintName(error: unknown): string | undefined {
  if (typeof error === "object" && error !== null && "constraint" in error) {
    return typeof error.constraint === "string" ? error.constraint : undefined;
  }
  return undefined;
}
