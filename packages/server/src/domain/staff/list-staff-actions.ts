import type { DomainContext } from "../context.ts";
import { ok, type Result } from "../result.ts";
import { requireStaff } from "./staff-roles.ts";

export interface StaffActionEntry {
  actionId: number;
  staffId: number | null;
  staffEmail: string | null;
  actedAt: Date;
  operation: string;
  subject: string;
  reason: string;
  before: unknown;
  after: unknown;
}

/** The audit of staff actions, newest first, a page before `beforeId` (finance, risk, admin). */
export async function listStaffActions(
  ctx: DomainContext,
  input: { subject?: string; beforeId?: number; limit: number },
): Promise<Result<StaffActionEntry[]>> {
  const caller = requireStaff(ctx, "audit.read");
  if (!caller.ok) return caller;
  let query = ctx.db
    .selectFrom("staff_actions")
    .leftJoin("staff", "staff.staff_id", "staff_actions.staff_id")
    .select([
      "staff_actions.action_id",
      "staff_actions.staff_id",
      "staff.email",
      "staff_actions.acted_at",
      "staff_actions.operation",
      "staff_actions.subject",
      "staff_actions.reason",
      "staff_actions.before",
      "staff_actions.after",
    ])
    .orderBy("staff_actions.action_id", "desc")
    .limit(input.limit);
  if (input.subject !== undefined) query = query.where("staff_actions.subject", "=", input.subject);
  if (input.beforeId !== undefined) query = query.where("staff_actions.action_id", "<", input.beforeId);
  const rows = await query.execute();
  return ok(
    rows.map((row) => ({
      actionId: row.action_id,
      staffId: row.staff_id,
      staffEmail: row.email,
      actedAt: row.acted_at,
      operation: row.operation,
      subject: row.subject,
      reason: row.reason,
      before: row.before === null ? null : (JSON.parse(row.before) as unknown),
      after: row.after === null ? null : (JSON.parse(row.after) as unknown),
    })),
  );
}
