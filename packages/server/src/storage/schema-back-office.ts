import type { ColumnType, Generated } from "kysely";

/**
 * The tables of accounts for people and of the staff (docs/design/back-office.md), part of the
 * `Database` of `schema.ts`, which the rest of the server reads them from.
 */
export interface EmailConfirmationsTable {
  code_hash: string;
  user_id: number;
  email: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

export type SignInMethod = "password" | "steam";

export interface SignInsTable {
  sign_in_id: Generated<number>;
  user_id: number;
  signed_in_at: Date;
  ip: string;
  user_agent: string;
  method: SignInMethod;
}

export interface SandboxMailsTable {
  mail_id: Generated<number>;
  sent_at: Date;
  recipient: string;
  subject: string;
  body: string;
}

export type StaffRole = "support" | "finance" | "risk" | "admin";

export interface StaffTable {
  staff_id: Generated<number>;
  email: string;
  password_hash: string;
  role: StaffRole;
  created_at: ColumnType<Date, Date, never>;
  disabled_at: Date | null;
}

export interface StaffSessionsTable {
  session_id: Generated<number>;
  staff_id: number;
  session_hash: string;
  created_at: ColumnType<Date, Date, never>;
  expires_at: Date;
  revoked_at: Date | null;
}

/** One staff action: `before` and `after` are JSON texts of what it changed (null where nothing was). */
export interface StaffActionsTable {
  action_id: Generated<number>;
  staff_id: number | null;
  acted_at: Date;
  operation: string;
  subject: string;
  reason: string;
  before: string | null;
  after: string | null;
}

export interface BackOfficeTables {
  email_confirmations: EmailConfirmationsTable;
  sign_ins: SignInsTable;
  sandbox_mails: SandboxMailsTable;
  staff: StaffTable;
  staff_sessions: StaffSessionsTable;
  staff_actions: StaffActionsTable;
}
