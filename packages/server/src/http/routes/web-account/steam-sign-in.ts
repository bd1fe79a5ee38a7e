import { completeSteamSignIn, startSteamSignIn } from "@skinmarket/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { signInThroughSteam } from "../../../domain/accounts/sign-in-through-steam.ts";
import { ok } from "../../../domain/result.ts";
import {
  steamOpenIdRedirectUrl,
  verifySteamAssertion,
} from "../../../domain/sessions/steam-openid-assertion.ts";
import { registerOperation } from "../../operation-route.ts";
import { SESSION_COOKIE } from "../../plugins/auth.ts";
import { offerCsrfCookie } from "../../plugins/csrf.ts";
import {
  checkAuthenticationOver,
  type SteamOpenIdSettings,
} from "../../steam-openid/check-authentication.ts";
import type { SessionCookieOptions } from "./login.ts";

/**
 * "Sign in through Steam" (docs/design/security.md#sign-in-through-steam): Steam returns the
 * browser to the website's sign-in page, whose script posts the assertion here. The `return_to`
 * is the sign-in page of the origin the request came to (with `TRUST_PROXY`, the public one).
 */
export function registerSteamSignIn(
  app: FastifyInstance,
  options: SessionCookieOptions & { steamOpenId: SteamOpenIdSettings },
): void {
  const { endpoint } = options.steamOpenId;
  const checkAuthentication = checkAuthenticationOver(options.steamOpenId);

  registerOperation(app, startSteamSignIn, async ({ request }) =>
    ok({
      code: "OK" as const,
      data: { redirect_url: steamOpenIdRedirectUrl(endpoint, returnToOf(request)) },
      msg: null,
    }),
  );

  registerOperation(app, completeSteamSignIn, async ({ ctx, body, request, reply }) => {
    const wallNow = new Date();
    const verified = await verifySteamAssertion({
      endpoint,
      returnTo: returnToOf(request),
      fields: body,
      wallNow,
      checkAuthentication,
    });
    if (!verified.ok) return verified;
    const signedIn = await signInThroughSteam(ctx, {
      ...verified.value,
      sessionTtlSeconds: options.sessionTtlSeconds,
      wallNow,
      clientAddress: request.ip,
      userAgent: request.headers["user-agent"],
    });
    if (!signedIn.ok) return signedIn;
    reply.setCookie(SESSION_COOKIE, signedIn.value.sessionId, {
      httpOnly: true,
      sameSite: "lax",
      secure: options.secureCookies,
      path: "/",
      maxAge: options.sessionTtlSeconds,
    });
    offerCsrfCookie(request, reply, signedIn.value.sessionId, options.secureCookies);
    return ok({
      code: "OK" as const,
      data: {
        user_id: String(signedIn.value.userId),
        nickname: signedIn.value.nickname,
        created: signedIn.value.created,
      },
      msg: null,
    });
  });
}

function returnToOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}/signin`;
}
