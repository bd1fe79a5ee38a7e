import type { DomainContext } from "../context.ts";
import { invalidArgument, ok, type Result } from "../result.ts";
import type { StaffOperation } from "./staff-roles.ts";

export interface StaffActionRecord {
  /** Null only for the first admin, made at the command line before any staff exists. */
  staffId: number | null;
  operation: StaffOperation;
  /** What was acted on: `user:1001`, `staff:3`. */
  subject: string;
  reason: string;
  before: unknown;
  after: unknown;
}

/** A reason a reader of the audit can use: at least 3 characters besides spaces. */
export function checkReason(reason: string): Result<string> {
  const trimmed = reason.trim();
  if (trimmed.length < 3) return invalidArgument("reason", "say why, in at least 3 characters");
  return ok(trimmed);
}

/**
 * Appends one staff action to the audit (docs/design/back-office.md#the-audit), in the transaction
 * of the change it records, so that the row exists exactly when the change does.
 */
export async function recordStaffAction(tx: DomainContext, record: StaffActionRecord): Promise<void> {
  await tx.db
    .insertInto("staff_actions")
    .values({
      staff_id: record.staffId,
      acted_at: tx.clock.now(),
      operation: record.operation,
      subject: record.subject,
      reason: record.reason,
      before: record.before === null ? null : JSON.stringify(record.before),
      after: record.after === null ? null : JSON.stringify(record.after),
    })
    .execute();
}
