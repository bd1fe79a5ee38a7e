import { getStaffMe, staffSignIn, staffSignOut } from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { ok } from "../../../domain/result.ts";
import { getSignedInStaff } from "../../../domain/staff/get-signed-in-staff.ts";
import {
  resolveStaffSession,
  signInStaff,
  signOutStaff,
  STAFF_SESSION_TTL_SECONDS,
} from "../../../domain/staff/sign-in-staff.ts";
import { ROLE_OPERATIONS } from "../../../domain/staff/staff-roles.ts";
import type { StaffMember } from "../../../domain/staff/staff-member.ts";
import { registerOperation } from "../../operation-route.ts";
import {
  authorizeStaff,
  OPS_CSRF_COOKIE,
  setStaffCookies,
  STAFF_SESSION_COOKIE,
  staffSessionCookie,
} from "../../plugins/staff-auth.ts";

/** Staff sign-in, sign-out and who is signed in (docs/design/back-office.md#staff-sign-in). */
export function registerStaffSessionRoutes(app: FastifyInstance, options: { secureCookies: boolean }): void {
  registerOperation(app, staffSignIn, async ({ ctx, body, request, reply }) => {
    const signedIn = await signInStaff(ctx, { ...body, clientAddress: request.ip });
    if (!signedIn.ok) return signedIn;
    setStaffCookies(reply, signedIn.value.sessionId, STAFF_SESSION_TTL_SECONDS, options.secureCookies);
    return ok({ code: "OK" as const, data: staffView(signedIn.value), msg: null });
  });

  registerOperation(app, staffSignOut, async ({ ctx, request, reply }) => {
    const sessionId = staffSessionCookie(request);
    // A live session is ended only with its CSRF token: another site may not sign staff out.
    if (sessionId && (await resolveStaffSession(ctx, sessionId)).ok) {
      const forged = await authorizeStaff(request);
      if (forged) return { ok: false as const, failure: forged };
    }
    await signOutStaff(ctx, sessionId);
    reply.clearCookie(STAFF_SESSION_COOKIE, { path: "/" });
    reply.clearCookie(OPS_CSRF_COOKIE, { path: "/" });
    return ok({ code: "OK" as const, data: {}, msg: null });
  });

  registerOperation(app, getStaffMe, async ({ ctx }) => {
    const member = await getSignedInStaff(ctx);
    if (!member.ok) return member;
    return ok({ code: "OK" as const, data: staffView(member.value), msg: null });
  });
}

function staffView(member: Pick<StaffMember, "staffId" | "email" | "role">) {
  return {
    staff_id: String(member.staffId),
    email: member.email,
    role: member.role,
    operations: [...ROLE_OPERATIONS[member.role]],
  };
}
