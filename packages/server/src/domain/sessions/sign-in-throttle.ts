import type { DomainContext } from "../context.ts";
import { ok, type Result } from "../result.ts";
import { sha256Hex } from "../secrets.ts";
import { inTransaction, noteNoMarketChange } from "../transaction.ts";

/**
 * Failed sign-ins are counted per account and per client address in the database, so that every
 * instance holds back the same callers (docs/design/security.md#security). Per account every failure
 * counts; per address each distinct account failed from it in the last day counts once, so that
 * one person mistyping, or hammering one account (which that account's count stops), does not
 * close sign-in for everyone behind a shared address, while trying many accounts (credential
 * stuffing) does. A key's first `free` failures cost nothing; each further one holds the key back
 * for 1 s, doubling up to 15 minutes. A day without a failure forgets an account's count, and an
 * address forgets each account a day after its last failure; a successful sign-in forgets the
 * account's count and takes the account out of the address's.
 */
export const SIGN_IN_THROTTLE = {
  account: { free: 5 },
  /** Distinct accounts failed from one address. */
  address: { free: 20 },
  firstHoldSeconds: 1,
  maxHoldSeconds: 900,
  forgetAfterMs: 24 * 3600 * 1000,
} as const;

export interface SignInKeys {
  account: string;
  address: string;
}

/** The throttle keys of a sign-in: the nickname as it is looked up, and the client address. */
export function signInKeys(nickname: string, clientAddress: string): SignInKeys {
  return {
    account: `account:${sha256Hex(nickname.normalize("NFC").toLowerCase())}`,
    address: `address:${clientAddress.slice(0, 64)}`,
  };
}

/** How long a key is held back after its `failures`-th failure, in seconds (0: not at all). */
export function holdSeconds(failures: number, free: number): number {
  if (failures < free) return 0;
  return Math.min(
    SIGN_IN_THROTTLE.maxHoldSeconds,
    SIGN_IN_THROTTLE.firstHoldSeconds * 2 ** (failures - free),
  );
}

/**
 * Takes one attempt for both keys, before any password is hashed: refused (429, with the seconds
 * to wait) while either key is held back, so a held-back try costs one short transaction and no
 * hash. The attempt counts as a failure from the start, under the rows' locks, so concurrent tries
 * cannot all pass before one of them fails; a successful sign-in takes it back
 * (`forgetSignInFailures`).
 */
export async function takeSignInAttempt(ctx: DomainContext, keys: SignInKeys): Promise<Result<void>> {
  return inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    const now = tx.clock.now();
    const ordered = [keys.account, keys.address].sort();
    await tx.db
      .insertInto("sign_in_failures")
      .values(
        ordered.map((key) => ({ throttle_key: key, failures: 0, last_failure_at: now, held_until: null })),
      )
      .onConflict((conflict) => conflict.column("throttle_key").doNothing())
      .execute();
    // Both rows locked, in key order: the account's and the address's counts below are read and
    // written by one attempt at a time, on every instance.
    const rows = await tx.db
      .selectFrom("sign_in_failures")
      .selectAll()
      .where("throttle_key", "in", ordered)
      .orderBy("throttle_key")
      .forUpdate()
      .execute();
    const heldMs = Math.max(
      0,
      ...rows.map((row) => (row.held_until ? row.held_until.getTime() - now.getTime() : 0)),
    );
    if (heldMs > 0) {
      const seconds = Math.ceil(heldMs / 1000);
      return {
        ok: false,
        failure: {
          code: "Rate Limit Exceeded",
          message: `too many failed sign-ins for this account or from this address; retry after ${seconds} s`,
          retryAfterSeconds: seconds,
        },
      };
    }
    const account = rows.find((row) => row.throttle_key === keys.account)!;
    const forgotten = now.getTime() - account.last_failure_at.getTime() >= SIGN_IN_THROTTLE.forgetAfterMs;
    const failures = (forgotten ? 0 : account.failures) + 1;
    const hold = holdSeconds(failures, SIGN_IN_THROTTLE.account.free);
    await tx.db
      .updateTable("sign_in_failures")
      .set({
        failures,
        last_failure_at: now,
        held_until: hold > 0 ? new Date(now.getTime() + hold * 1000) : null,
      })
      .where("throttle_key", "=", keys.account)
      .execute();
    await countAddressFailure(tx, keys, now);
    return ok(undefined);
  });
}

/**
 * The address's part of an attempt, under its row's lock: the account joins the accounts failed
 * from the address (or its failure there is dated again), and the address's count becomes the
 * number of them failed in the last day. Only an account new to the count holds the address back
 * (longer), so retrying an account already counted neither closes the address nor keeps it closed.
 */
async function countAddressFailure(tx: DomainContext, keys: SignInKeys, now: Date): Promise<void> {
  const since = new Date(now.getTime() - SIGN_IN_THROTTLE.forgetAfterMs);
  const known = await tx.db
    .selectFrom("sign_in_address_accounts")
    .select("failed_at")
    .where("address_key", "=", keys.address)
    .where("account_key", "=", keys.account)
    .executeTakeFirst();
  await tx.db
    .insertInto("sign_in_address_accounts")
    .values({ address_key: keys.address, account_key: keys.account, failed_at: now })
    .onConflict((conflict) =>
      conflict.columns(["address_key", "account_key"]).doUpdateSet({ failed_at: now }),
    )
    .execute();
  const failures = await accountsFailedFrom(tx, keys.address, since);
  const counted = known !== undefined && known.failed_at >= since;
  const hold = holdSeconds(failures, SIGN_IN_THROTTLE.address.free);
  await tx.db
    .updateTable("sign_in_failures")
    .set({
      failures,
      last_failure_at: now,
      ...(counted ? {} : { held_until: hold > 0 ? new Date(now.getTime() + hold * 1000) : null }),
    })
    .where("throttle_key", "=", keys.address)
    .execute();
}

async function accountsFailedFrom(tx: DomainContext, address: string, since: Date): Promise<number> {
  const row = await tx.db
    .selectFrom("sign_in_address_accounts")
    .select((eb) => eb.fn.countAll<string>().as("accounts"))
    .where("address_key", "=", address)
    .where("failed_at", ">=", since)
    .executeTakeFirstOrThrow();
  return Number(row.accounts);
}

/**
 * After a successful sign-in, in its transaction: the account's failures are forgotten, and the
 * account leaves the address's count (a person who mistyped and then signed in is not stuffing
 * credentials). The accounts that failed and never signed in stay counted: signing in to one's
 * own account between guesses at others does not refill an address's budget.
 */
export async function forgetSignInFailures(tx: DomainContext, keys: SignInKeys): Promise<void> {
  await tx.db.deleteFrom("sign_in_failures").where("throttle_key", "=", keys.account).execute();
  const row = await tx.db
    .selectFrom("sign_in_failures")
    .select("failures")
    .where("throttle_key", "=", keys.address)
    .forUpdate()
    .executeTakeFirst();
  if (!row) return;
  await tx.db
    .deleteFrom("sign_in_address_accounts")
    .where("address_key", "=", keys.address)
    .where("account_key", "=", keys.account)
    .execute();
  const now = tx.clock.now();
  const failures = await accountsFailedFrom(
    tx,
    keys.address,
    new Date(now.getTime() - SIGN_IN_THROTTLE.forgetAfterMs),
  );
  await tx.db
    .updateTable("sign_in_failures")
    .set({
      failures,
      ...(holdSeconds(failures, SIGN_IN_THROTTLE.address.free) === 0 ? { held_until: null } : {}),
    })
    .where("throttle_key", "=", keys.address)
    .execute();
}

/**
 * Counts a day old that hold nothing back any more are deleted, and accounts an address failed a
 * day ago or more (a job).
 */
export async function purgeSignInFailures(ctx: DomainContext): Promise<number> {
  const now = ctx.clock.now();
  const cutoff = new Date(now.getTime() - SIGN_IN_THROTTLE.forgetAfterMs);
  await ctx.db.deleteFrom("sign_in_address_accounts").where("failed_at", "<", cutoff).execute();
  const deleted = await ctx.db
    .deleteFrom("sign_in_failures")
    .where("last_failure_at", "<", cutoff)
    .where((eb) => eb.or([eb("held_until", "is", null), eb("held_until", "<", now)]))
    .executeTakeFirst();
  return Number(deleted.numDeletedRows);
}
