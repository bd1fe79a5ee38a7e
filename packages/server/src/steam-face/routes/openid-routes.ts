import type { FastifyInstance, FastifyReply } from "fastify";
import type { DomainContext } from "../../domain/context.ts";
import { checkSteamOpenIdSignIn } from "../../platform/sandbox/steam-openid-sign-in.ts";
import {
  IDENTIFIER_SELECT,
  keyValueForm,
  OPENID_ENDPOINT,
  OPENID_NS,
  type OpenIdProvider,
} from "../openid-provider.ts";

const COMMUNITY = { host: "steamcommunity.com" };
const STEAMID = /^7656119\d{10}$/;
type Fields = Record<string, string | undefined>;

/**
 * Steam's OpenID 2.0 endpoint (`/openid/login`): `checkid_setup` shows the sign-in page (login
 * name, password, Steam Guard code), whose form posts back here and, signed in, is redirected to
 * `openid.return_to` with the signed assertion; `check_authentication` answers `is_valid` in
 * key-value form. Times in nonces are the wall clock's, as a relying party compares them with its own.
 */
export function openIdRoutes(ctx: DomainContext, provider: () => Promise<OpenIdProvider>) {
  return async (app: FastifyInstance) => {
    // Discovery (Yadis), which relying parties built on the `openid` package (passport-steam,
    // node-steam-openid) run on `https://steamcommunity.com/openid` and on the claimed id.
    app.get("/openid", { constraints: COMMUNITY }, async (_request, reply) =>
      xrds(reply, "http://specs.openid.net/auth/2.0/server"),
    );
    app.get<{ Params: { steamid: string } }>(
      "/openid/id/:steamid",
      { constraints: COMMUNITY },
      async (request, reply) =>
        STEAMID.test(request.params.steamid)
          ? xrds(reply, "http://specs.openid.net/auth/2.0/signon")
          : refuse(reply.code(404), "no such Steam id"),
    );

    app.get<{ Querystring: Fields }>("/openid/login", { constraints: COMMUNITY }, async (request, reply) => {
      const request_ = checkIdSetup(request.query);
      if (typeof request_ === "string") return refuse(reply, request_);
      return signInPage(reply, request_, undefined);
    });

    app.post<{ Body: Fields | undefined; Querystring: Fields }>(
      "/openid/login",
      { constraints: COMMUNITY },
      async (request, reply) => {
        const fields = { ...request.query, ...request.body };
        if (fields["openid.mode"] === "check_authentication") {
          const valid = await (await provider()).checkAuthentication(definedOnly(fields), new Date());
          return reply
            .type("text/plain; charset=utf-8")
            .send(keyValueForm({ ns: OPENID_NS, is_valid: String(valid) }));
        }
        const setup = checkIdSetup(fields);
        if (typeof setup === "string") return refuse(reply, setup);
        const checked = await checkSteamOpenIdSignIn(ctx, {
          accountName: fields.username ?? "",
          password: fields.password ?? "",
          code: fields.twofactorcode ?? "",
        });
        if (!checked.ok)
          return signInPage(
            reply.code(401),
            setup,
            checked.reason === "code"
              ? "The Steam Guard code is not right."
              : "The account name or password that you have entered is incorrect.",
          );
        const assertion = (await provider()).assert(checked.steamid, setup.returnTo, new Date());
        const target = new URL(setup.returnTo);
        for (const [name, value] of Object.entries(assertion)) target.searchParams.set(name, value);
        return reply.redirect(target.toString(), 302);
      },
    );
  };
}

interface CheckIdSetup {
  returnTo: string;
  realm: string;
}

/** The request's fields, or what is wrong with them (Steam answers a malformed request with a page). */
function checkIdSetup(fields: Fields): CheckIdSetup | string {
  if (fields["openid.ns"] !== OPENID_NS) return "openid.ns must be OpenID 2.0's";
  if (fields["openid.mode"] !== "checkid_setup") return "openid.mode must be checkid_setup";
  if (fields["openid.claimed_id"] !== IDENTIFIER_SELECT || fields["openid.identity"] !== IDENTIFIER_SELECT)
    return "openid.claimed_id and openid.identity must be identifier_select";
  const returnTo = fields["openid.return_to"] ?? "";
  const realm = fields["openid.realm"] ?? returnTo;
  if (!URL.canParse(returnTo) || !/^https?:$/.test(new URL(returnTo).protocol))
    return "openid.return_to must be an http(s) URL";
  // OpenID 2.0, 9.2.1: the return_to must lie under the realm the user is shown.
  if (
    !URL.canParse(realm) ||
    new URL(realm).origin !== new URL(returnTo).origin ||
    !returnTo.startsWith(realm)
  )
    return "openid.return_to must be under openid.realm";
  return { returnTo, realm };
}

function signInPage(reply: FastifyReply, setup: CheckIdSetup, error: string | undefined) {
  const hidden = {
    "openid.ns": OPENID_NS,
    "openid.mode": "checkid_setup",
    "openid.claimed_id": IDENTIFIER_SELECT,
    "openid.identity": IDENTIFIER_SELECT,
    "openid.return_to": setup.returnTo,
    "openid.realm": setup.realm,
  };
  return reply.type("text/html; charset=utf-8").send(
    `<!DOCTYPE html><html lang="en"><head><title>Steam Community :: Sign In</title></head><body>
<h1>Sign in through Steam</h1>
<p>Sign in to <strong>${escapeHtml(setup.realm)}</strong> using your Steam account.</p>
${error ? `<p role="alert">${escapeHtml(error)}</p>` : ""}
<form method="post" action="/openid/login">
${Object.entries(hidden)
  .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`)
  .join("\n")}
<label>Steam account name <input name="username" autocomplete="username" required></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<label>Steam Guard code <input name="twofactorcode" autocomplete="one-time-code" required></label>
<button type="submit">Sign In</button>
</form></body></html>`,
  );
}

function xrds(reply: FastifyReply, type: string) {
  return reply
    .type("application/xrds+xml; charset=utf-8")
    .send(
      `<?xml version="1.0" encoding="UTF-8"?>\n<xrds:XRDS xmlns:xrds="xri://$xrds" xmlns="xri://$xrd*($v*2.0)">\n<XRD>\n<Service priority="0">\n<Type>${type}</Type>\n<URI>${OPENID_ENDPOINT}</URI>\n</Service>\n</XRD>\n</xrds:XRDS>\n`,
    );
}

function refuse(reply: FastifyReply, message: string) {
  return reply
    .code(400)
    .type("text/html; charset=utf-8")
    .send(`<!DOCTYPE html><html><body><h1>Error</h1><p>${escapeHtml(message)}</p></body></html>`);
}

function definedOnly(fields: Fields): Record<string, string> {
  return Object.fromEntries(
    Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (character) =>
      ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[character] ?? character,
  );
}
