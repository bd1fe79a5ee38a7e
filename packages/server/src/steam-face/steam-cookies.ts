import type { FastifyRequest } from "fastify";
import type { DomainContext } from "../domain/context.ts";
import type { PlatformCookie } from "../domain/platform/game-platform.ts";

/** The request's cookies, as the platform reads uploaded ones (`domain` is the host asked). */
export function cookiesOf(request: FastifyRequest): PlatformCookie[] {
  const domain = request.headers.host ?? "";
  return (request.headers.cookie ?? "")
    .split(";")
    .map((pair) => pair.trim())
    .filter((pair) => pair.includes("="))
    .map((pair) => {
      const split = pair.indexOf("=");
      return { domain, key: pair.slice(0, split), value: pair.slice(split + 1) };
    });
}

/** The signed-in account: the SteamID in `steamLoginSecure`, when the platform says it is a live session. */
export async function signedInSteamId(
  ctx: DomainContext,
  request: FastifyRequest,
): Promise<string | undefined> {
  const cookies = cookiesOf(request);
  const login = cookies.find((cookie) => cookie.key === "steamLoginSecure");
  const steamid = login ? /^(\d{17})%7C%7C/i.exec(login.value)?.[1] : undefined;
  if (!steamid) return undefined;
  const state = await ctx.platform.validateSession(ctx, { platformid: steamid, cookies });
  return state === "valid" ? steamid : undefined;
}
