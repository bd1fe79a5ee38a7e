import type { DomainContext } from "../context.ts";
import { fail, ok, type Result } from "../result.ts";
import { STAFF_COLUMNS, staffMemberOf, type StaffMember } from "./staff-member.ts";

/** The signed-in staff member, whatever their role (every role may know who it is). */
export async function getSignedInStaff(ctx: DomainContext): Promise<Result<StaffMember>> {
  if (ctx.actor.kind !== "staff") return fail("Login Required", "sign in to the back office first");
  const row = await ctx.db
    .selectFrom("staff")
    .select([...STAFF_COLUMNS])
    .where("staff_id", "=", ctx.actor.staffId)
    .executeTakeFirstOrThrow();
  return ok(staffMemberOf(row));
}
