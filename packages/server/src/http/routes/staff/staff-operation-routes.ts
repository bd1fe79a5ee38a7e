import {
  createStaff,
  disableStaff,
  listStaff,
  listStaffActions,
  staffSignOutUser,
} from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { toUnixSeconds } from "../../../domain/clock.ts";
import { ok } from "../../../domain/result.ts";
import { createStaff as createStaffVerb } from "../../../domain/staff/create-staff.ts";
import { disableStaff as disableStaffVerb } from "../../../domain/staff/disable-staff.ts";
import { listStaff as listStaffVerb } from "../../../domain/staff/list-staff.ts";
import { listStaffActions as listStaffActionsVerb } from "../../../domain/staff/list-staff-actions.ts";
import { signOutUser } from "../../../domain/staff/sign-out-user.ts";
import type { StaffMember } from "../../../domain/staff/staff-member.ts";
import { registerOperation } from "../../operation-route.ts";

/** What staff do, each allowed by role in the verb (docs/design/back-office.md#roles-and-their-rights). */
export function registerStaffOperationRoutes(app: FastifyInstance): void {
  registerOperation(app, createStaff, async ({ ctx, body }) => {
    const made = await createStaffVerb(ctx, body);
    if (!made.ok) return made;
    return ok({ code: "OK" as const, data: memberView(made.value), msg: null });
  });

  registerOperation(app, disableStaff, async ({ ctx, params, body }) => {
    const disabled = await disableStaffVerb(ctx, { staffId: Number(params.staff_id), reason: body.reason });
    if (!disabled.ok) return disabled;
    return ok({ code: "OK" as const, data: memberView(disabled.value), msg: null });
  });

  registerOperation(app, listStaff, async ({ ctx }) => {
    const members = await listStaffVerb(ctx);
    if (!members.ok) return members;
    return ok({ code: "OK" as const, data: { items: members.value.map(memberView) }, msg: null });
  });

  registerOperation(app, staffSignOutUser, async ({ ctx, params, body }) => {
    const done = await signOutUser(ctx, { userId: Number(params.user_id), reason: body.reason });
    if (!done.ok) return done;
    const data = {
      user_id: params.user_id,
      sessions_ended: done.value.sessionsEnded,
      tokens_revoked: done.value.tokensRevoked,
    };
    return ok({ code: "OK" as const, data, msg: null });
  });

  registerOperation(app, listStaffActions, async ({ ctx, query }) => {
    const actions = await listStaffActionsVerb(ctx, {
      limit: query.limit,
      ...(query.subject !== undefined ? { subject: query.subject } : {}),
      ...(query.before_id !== undefined ? { beforeId: Number(query.before_id) } : {}),
    });
    if (!actions.ok) return actions;
    const items = actions.value.map((action) => ({
      action_id: String(action.actionId),
      staff_id: action.staffId === null ? null : String(action.staffId),
      staff_email: action.staffEmail,
      acted_at: toUnixSeconds(action.actedAt),
      operation: action.operation,
      subject: action.subject,
      reason: action.reason,
      before: action.before,
      after: action.after,
    }));
    return ok({ code: "OK" as const, data: { items }, msg: null });
  });
}

function memberView(member: StaffMember) {
  return {
    staff_id: String(member.staffId),
    email: member.email,
    role: member.role,
    created_at: toUnixSeconds(member.createdAt),
    disabled_at: member.disabledAt === null ? null : toUnixSeconds(member.disabledAt),
  };
}
