import type { SignInMethod } from "../../storage/schema.ts";
import type { DomainContext } from "../context.ts";
import { fail, ok, type Result } from "../result.ts";

export interface SignInEntry {
  signedInAt: Date;
  ip: string;
  userAgent: string;
  method: SignInMethod;
}

/** The caller's own sign-ins, newest first (docs/design/back-office.md#the-sign-in-history). */
export async function listSignIns(
  ctx: DomainContext,
  input: { limit: number },
): Promise<Result<SignInEntry[]>> {
  if (ctx.actor.kind !== "user") return fail("Login Required", "sign in first");
  const rows = await ctx.db
    .selectFrom("sign_ins")
    .select(["signed_in_at", "ip", "user_agent", "method"])
    .where("user_id", "=", ctx.actor.userId)
    .orderBy("sign_in_id", "desc")
    .limit(input.limit)
    .execute();
  return ok(
    rows.map((row) => ({
      signedInAt: row.signed_in_at,
      ip: row.ip,
      userAgent: row.user_agent,
      method: row.method,
    })),
  );
}
