import type { DomainContext } from "../context.ts";
import { fail, invalidArgument, ok, type Result } from "../result.ts";
import { inTransaction, noteNoMarketChange } from "../transaction.ts";
import { checkReason, recordStaffAction } from "./record-staff-action.ts";
import { requireStaff } from "./staff-roles.ts";
import { STAFF_COLUMNS, staffMemberOf, staffRecordOf, type StaffMember } from "./staff-member.ts";

/**
 * An admin disables a staff account (someone who leaves): it signs in no more and its sessions
 * end at once. An admin cannot disable themselves, so there is always an admin left to act.
 */
export async function disableStaff(
  ctx: DomainContext,
  input: { staffId: number; reason: string },
): Promise<Result<StaffMember>> {
  const caller = requireStaff(ctx, "staff.disable");
  if (!caller.ok) return caller;
  const reason = checkReason(input.reason);
  if (!reason.ok) return reason;
  if (input.staffId === caller.value.staffId)
    return invalidArgument("staff_id", "an admin cannot disable their own account");
  return inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    const now = tx.clock.now();
    const row = await tx.db
      .updateTable("staff")
      .set({ disabled_at: now })
      .where("staff_id", "=", input.staffId)
      .where("disabled_at", "is", null)
      .returning([...STAFF_COLUMNS])
      .executeTakeFirst();
    if (!row) return fail("Not Found", `staff ${input.staffId} does not exist or is disabled already`);
    await tx.db
      .updateTable("staff_sessions")
      .set({ revoked_at: now })
      .where("staff_id", "=", input.staffId)
      .where("revoked_at", "is", null)
      .execute();
    const member = staffMemberOf(row);
    await recordStaffAction(tx, {
      staffId: caller.value.staffId,
      operation: "staff.disable",
      subject: `staff:${member.staffId}`,
      reason: reason.value,
      before: { ...staffRecordOf(member), disabled: false },
      after: { ...staffRecordOf(member), disabled: true },
    });
    return ok(member);
  });
}
