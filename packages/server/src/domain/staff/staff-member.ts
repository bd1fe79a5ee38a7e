import type { StaffRole } from "../../storage/schema.ts";

/** A staff account as the back office shows it (never its password hash). */
export interface StaffMember {
  staffId: number;
  email: string;
  role: StaffRole;
  createdAt: Date;
  disabledAt: Date | null;
}

export const STAFF_COLUMNS = ["staff_id", "email", "role", "created_at", "disabled_at"] as const;

export function staffMemberOf(row: {
  staff_id: number;
  email: string;
  role: StaffRole;
  created_at: Date;
  disabled_at: Date | null;
}): StaffMember {
  return {
    staffId: row.staff_id,
    email: row.email,
    role: row.role,
    createdAt: row.created_at,
    disabledAt: row.disabled_at,
  };
}

/** The audit's picture of a staff account. */
export function staffRecordOf(member: StaffMember) {
  return { staff_id: member.staffId, email: member.email, role: member.role };
}
