import type { StaffRole } from "../../storage/schema.ts";
import type { DomainContext } from "../context.ts";
import { fail, ok, type Result } from "../result.ts";

/** Every staff operation, by the name the audit records and the role table grants. */
export const STAFF_OPERATIONS = [
  "staff.create",
  "staff.disable",
  "staff.list",
  "audit.read",
  "user.sign_out",
  "user.read",
  "money.adjust",
  "user.freeze",
  "trade.refund",
] as const;
export type StaffOperation = (typeof STAFF_OPERATIONS)[number];

/**
 * Which role may do what (docs/design/back-office.md#roles-and-their-rights): the one table every
 * staff verb asks. Every role finds users and reads their page; support answers users, ends a
 * taken-over account's sessions and gives small goodwill credits; finance reads the audit and
 * adjusts balances and refunds trades; risk reads the audit, ends sessions and freezes accounts; admin does all, and alone manages the
 * staff. How much each role may move by hand is `adjustLimitFen`.
 */
export const ROLE_OPERATIONS: Readonly<Record<StaffRole, readonly StaffOperation[]>> = {
  support: ["user.sign_out", "user.read", "money.adjust"],
  finance: ["audit.read", "user.read", "money.adjust", "trade.refund"],
  risk: ["audit.read", "user.sign_out", "user.read", "user.freeze"],
  admin: STAFF_OPERATIONS,
};

export interface StaffCaller {
  staffId: number;
  role: StaffRole;
}

/** The signed-in staff member, if their role allows `operation`; otherwise `Access Denied` naming both. */
export function requireStaff(ctx: DomainContext, operation: StaffOperation): Result<StaffCaller> {
  const actor = ctx.actor;
  if (actor.kind !== "staff") return fail("Access Denied", "staff operations need a signed-in staff member");
  if (!ROLE_OPERATIONS[actor.role].includes(operation))
    return fail("Access Denied", `the ${actor.role} role may not ${operation}`);
  return ok({ staffId: actor.staffId, role: actor.role });
}
