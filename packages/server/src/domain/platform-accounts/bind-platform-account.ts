import { recordAudit } from "../audit.ts";
import { requireUser } from "../users/require-user.ts";
import type { DomainContext } from "../context.ts";
import { fail, ok, type Result } from "../result.ts";
import { inTransaction, noteNoMarketChange } from "../transaction.ts";

/**
 * Binds a platform account to a marketplace user (in production this is the sign-in-with-platform
 * flow; the sandbox does it directly). An account is bound to at most one user.
 */
export async function bindPlatformAccount(
  ctx: DomainContext,
  input: { platformid: string; userId: number },
): Promise<Result<{ platformid: string; userId: number }>> {
  if (ctx.actor.kind !== "admin")
    return fail("Access Denied", "only the sandbox admin binds platform accounts");
  return inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    const user = await requireUser(tx, input.userId);
    if (!user.ok) return user;
    if (!(await tx.platform.accountExists(tx, { platformid: input.platformid }))) {
      return fail("Not Found", `platform account ${input.platformid} does not exist`);
    }
    const bound = await tx.db
      .insertInto("bound_platform_accounts")
      .values({ platformid: input.platformid, user_id: input.userId, bound_at: tx.clock.now() })
      .onConflict((conflict) => conflict.column("platformid").doNothing())
      .returning("user_id")
      .executeTakeFirst();
    if (!bound) {
      const existing = await tx.db
        .selectFrom("bound_platform_accounts")
        .select("user_id")
        .where("platformid", "=", input.platformid)
        .executeTakeFirstOrThrow();
      if (existing.user_id !== input.userId) {
        return fail(
          "Invalid State",
          `platform account ${input.platformid} is bound to another user; unbind it first`,
        );
      }
      return ok({ platformid: input.platformid, userId: input.userId });
    }
    await recordAudit(tx, {
      action: "platform.bind",
      subject: `user:${input.userId}`,
      details: { platformid: input.platformid },
    });
    return ok({ platformid: input.platformid, userId: input.userId });
  });
}

/** Unbinds; the stored cookies and the inventory copy go with the binding. */
export async function unbindPlatformAccount(
  ctx: DomainContext,
  input: { platformid: string },
): Promise<Result<{ platformid: string }>> {
  if (ctx.actor.kind !== "admin")
    return fail("Access Denied", "only the sandbox admin unbinds platform accounts");
  return inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    const removed = await tx.db
      .deleteFrom("bound_platform_accounts")
      .where("platformid", "=", input.platformid)
      .returning("user_id")
      .executeTakeFirst();
    if (!removed) return fail("Not Found", `platform account ${input.platformid} is not bound`);
    await recordAudit(tx, {
      action: "platform.unbind",
      subject: `user:${removed.user_id}`,
      details: { platformid: input.platformid },
    });
    return ok({ platformid: input.platformid });
  });
}
