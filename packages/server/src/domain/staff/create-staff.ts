import { sql } from "kysely";
import type { StaffRole } from "../../storage/schema.ts";
import type { DomainContext } from "../context.ts";
import { hashPassword } from "../password-hash.ts";
import { fail, invalidArgument, ok, type Result } from "../result.ts";
import { constraintName, inTransaction, noteNoMarketChange, sqlState } from "../transaction.ts";
import { checkReason, recordStaffAction } from "./record-staff-action.ts";
import { requireStaff } from "./staff-roles.ts";
import { STAFF_COLUMNS, staffMemberOf, staffRecordOf, type StaffMember } from "./staff-member.ts";

export interface CreateStaffInput {
  email: string;
  password: string;
  role: StaffRole;
  reason: string;
}

/** An admin makes a staff account (docs/design/back-office.md#staff-and-roles). */
export async function createStaff(ctx: DomainContext, input: CreateStaffInput): Promise<Result<StaffMember>> {
  const caller = requireStaff(ctx, "staff.create");
  if (!caller.ok) return caller;
  const reason = checkReason(input.reason);
  if (!reason.ok) return reason;
  return insertStaff(ctx, {
    ...input,
    reason: reason.value,
    staffId: caller.value.staffId,
    onlyFirst: false,
  });
}

/**
 * The first admin, from the command line (`skinmarket staff create`), with no one signed in:
 * only while the staff table is empty, so that the command cannot mint an admin beside existing
 * staff. The table is locked for the look and the insert, so two commands at once make one.
 */
export async function createFirstAdmin(
  ctx: DomainContext,
  input: { email: string; password: string },
): Promise<Result<StaffMember>> {
  if (ctx.actor.kind !== "system")
    return fail("Access Denied", "the first admin is made at the command line");
  return insertStaff(ctx, {
    ...input,
    role: "admin",
    reason: "the first admin, made at the command line",
    staffId: null,
    onlyFirst: true,
  });
}

async function insertStaff(
  ctx: DomainContext,
  input: CreateStaffInput & { staffId: number | null; onlyFirst: boolean },
): Promise<Result<StaffMember>> {
  const email = input.email.normalize("NFC").trim();
  const passwordHash = await hashPassword(input.password);
  try {
    return await inTransaction(ctx, async (tx) => {
      noteNoMarketChange(tx);
      if (input.onlyFirst) {
        await sql`LOCK TABLE staff IN EXCLUSIVE MODE`.execute(tx.db);
        const any = await tx.db.selectFrom("staff").select("staff_id").limit(1).executeTakeFirst();
        if (any)
          return fail(
            "Invalid State",
            "staff accounts exist already: an admin makes more in the back office",
          );
      }
      const row = await tx.db
        .insertInto("staff")
        .values({ email, password_hash: passwordHash, role: input.role, created_at: tx.clock.now() })
        .returning([...STAFF_COLUMNS])
        .executeTakeFirstOrThrow();
      const member = staffMemberOf(row);
      await recordStaffAction(tx, {
        staffId: input.staffId,
        operation: "staff.create",
        subject: `staff:${member.staffId}`,
        reason: input.reason,
        before: null,
        after: staffRecordOf(member),
      });
      return ok(member);
    });
  } catch (error) {
    if (sqlState(error) === "23505" && constraintName(error) === "staff_email_key")
      return invalidArgument("email", `${email} already has a staff account`);
    throw error;
  }
}
