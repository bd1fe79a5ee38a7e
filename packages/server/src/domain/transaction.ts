import type { DomainContext } from "./context.ts";
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
  for (let attempt = 1; ; attempt++) {
    try {
      const value = await ctx.db.transaction().execute(async (trx) => {
        const result = await work({ ...ctx, db: trx });
        if (!result.ok) throw new RollbackWithFailure(result.failure);
        return result.value;
      });
      if (ctx.effects) ctx.effects.committed += 1;
      ctx.afterCommit?.();
      return { ok: true, value };
    } catch (error) {
      if (error instanceof RollbackWithFailure) return { ok: false, failure: error.failure };
      if (attempt < MAX_ATTEMPTS && RETRYABLE_SQLSTATES.has(sqlState(error) ?? "")) {
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
        continue;
      }
      throw error;
    }
  }
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
