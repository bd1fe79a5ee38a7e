import type { DomainContext } from "../context.ts";
import { ok, type Result } from "../result.ts";
import { requireStaff } from "./staff-roles.ts";
import { STAFF_COLUMNS, staffMemberOf, type StaffMember } from "./staff-member.ts";

/** Every staff account, oldest first (admin only). */
export async function listStaff(ctx: DomainContext): Promise<Result<StaffMember[]>> {
  const caller = requireStaff(ctx, "staff.list");
  if (!caller.ok) return caller;
  const rows = await ctx.db
    .selectFrom("staff")
    .select([...STAFF_COLUMNS])
    .orderBy("staff_id")
    .execute();
  return ok(rows.map(staffMemberOf));
}
