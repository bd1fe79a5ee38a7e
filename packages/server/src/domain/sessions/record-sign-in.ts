import type { SignInMethod } from "../../storage/schema.ts";
import type { DomainContext } from "../context.ts";

/** Where a sign-in came from, as the user reads it in their sign-in history. */
export interface SignInOrigin {
  clientAddress: string;
  userAgent: string | undefined;
}

/**
 * One row of the user's sign-in history (docs/design/back-office.md#the-sign-in-history), in the
 * transaction that opens the session. The user agent is cut to 256 characters.
 */
export async function recordSignIn(
  tx: DomainContext,
  input: SignInOrigin & { userId: number; method: SignInMethod },
): Promise<void> {
  await tx.db
    .insertInto("sign_ins")
    .values({
      user_id: input.userId,
      signed_in_at: tx.clock.now(),
      ip: input.clientAddress.slice(0, 64),
      user_agent: (input.userAgent ?? "").slice(0, 256),
      method: input.method,
    })
    .execute();
}
