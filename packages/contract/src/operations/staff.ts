import { Type } from "typebox";
import { IdString, InternalOk, StrictObject, Text, UnixSeconds } from "../common.ts";
import { defineOperation } from "../operation.ts";
import { EmailAddress, NewPassword } from "./web-accounts-for-people.ts";

/**
 * The back office's staff (docs/design/back-office.md#staff-and-roles): operators with a role,
 * signed in with their own cookie, each operation allowed by role, each action recorded with its
 * reason and the before and after.
 */
const ops = { envelope: "internal", tags: ["Back office"] } as const;

export const StaffRoleName = Type.Union(
  [Type.Literal("support"), Type.Literal("finance"), Type.Literal("risk"), Type.Literal("admin")],
  { description: "support, finance, risk or admin" },
);

/** Why a staff member acts: required on every staff write, kept in the audit. */
export const StaffReason = Text({ minLength: 3, maxLength: 500, description: "why: 3 to 500 characters" });

const StaffMember = Type.Object({
  staff_id: IdString,
  email: Type.String(),
  role: StaffRoleName,
  created_at: UnixSeconds,
  disabled_at: Type.Union([UnixSeconds, Type.Null()]),
});

export const staffSignIn = defineOperation({
  ...ops,
  id: "staffSignIn",
  method: "POST",
  path: "/ops/api/login",
  access: "public",
  summary: "Signs a staff member in and sets the `staff_session` cookie",
  description:
    "Staff accounts are apart from users and from the sandbox admin token. Sets `staff_session` (HttpOnly) and `ops_csrf_token`, whose value every staff write sends back in `X-CSRFToken`.",
  body: StrictObject({ email: EmailAddress, password: Text({ minLength: 1, maxLength: 256 }) }),
  response: InternalOk({
    staff_id: IdString,
    email: Type.String(),
    role: StaffRoleName,
    operations: Type.Array(Type.String()),
  }),
});

export const staffSignOut = defineOperation({
  ...ops,
  id: "staffSignOut",
  method: "POST",
  path: "/ops/api/logout",
  access: "public",
  summary: "Signs the staff member out: ends the session behind the `staff_session` cookie",
  response: InternalOk({}),
});

export const getStaffMe = defineOperation({
  ...ops,
  id: "getStaffMe",
  method: "GET",
  path: "/ops/api/me",
  access: "staff",
  summary: "The signed-in staff member, with the operations their role allows",
  response: InternalOk({
    staff_id: IdString,
    email: Type.String(),
    role: StaffRoleName,
    operations: Type.Array(Type.String()),
  }),
});

export const createStaff = defineOperation({
  ...ops,
  id: "createStaff",
  method: "POST",
  path: "/ops/api/staff",
  access: "staff",
  summary: "Makes a staff account with a role (admin only)",
  body: StrictObject({
    email: EmailAddress,
    password: NewPassword,
    role: StaffRoleName,
    reason: StaffReason,
  }),
  response: InternalOk(StaffMember.properties),
});

export const disableStaff = defineOperation({
  ...ops,
  id: "disableStaff",
  method: "POST",
  path: "/ops/api/staff/:staff_id/disable",
  access: "staff",
  summary: "Disables a staff account and ends its sessions, for someone who leaves (admin only)",
  description:
    "An admin cannot disable their own account, so the back office always keeps an admin who can act.",
  params: StrictObject({ staff_id: IdString }),
  body: StrictObject({ reason: StaffReason }),
  response: InternalOk(StaffMember.properties),
});

export const listStaff = defineOperation({
  ...ops,
  id: "listStaff",
  method: "GET",
  path: "/ops/api/staff",
  access: "staff",
  summary: "The staff accounts, oldest first (admin only)",
  response: InternalOk({ items: Type.Array(StaffMember) }),
});

export const staffSignOutUser = defineOperation({
  ...ops,
  id: "staffSignOutUser",
  method: "POST",
  path: "/ops/api/users/:user_id/sign_out",
  access: "staff",
  summary: "Ends every website session and revokes every API token of a user (support, risk, admin)",
  description:
    "For an account taken over or a leaked token. The user signs in again with their password or Steam.",
  params: StrictObject({ user_id: IdString }),
  body: StrictObject({ reason: StaffReason }),
  response: InternalOk({ user_id: IdString, sessions_ended: Type.Integer(), tokens_revoked: Type.Integer() }),
});

const StaffAction = Type.Object({
  action_id: IdString,
  staff_id: Type.Union([IdString, Type.Null()], { description: "null: the command line's first admin" }),
  staff_email: Type.Union([Type.String(), Type.Null()]),
  acted_at: UnixSeconds,
  operation: Type.String(),
  subject: Type.String(),
  reason: Type.String(),
  before: Type.Unknown(),
  after: Type.Unknown(),
});

export const listStaffActions = defineOperation({
  ...ops,
  id: "listStaffActions",
  method: "GET",
  path: "/ops/api/audit",
  access: "staff",
  summary: "The staff actions, newest first: who, when, what, why, before and after (finance, risk, admin)",
  querystring: StrictObject({
    subject: Type.Optional(
      Text({ maxLength: 64, description: "only actions on this subject, e.g. `user:1001`" }),
    ),
    before_id: Type.Optional(IdString),
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 50 }),
  }),
  response: InternalOk({ items: Type.Array(StaffAction) }),
});
