import type { FastifyInstance, FastifyReply } from "fastify";
import type { DomainContext } from "../../domain/context.ts";
import {
  registerSteamApiKey,
  revokeSteamApiKey,
  steamApiKeyOf,
} from "../../platform/sandbox/steam-api-keys.ts";
import { signedInSteamId } from "../steam-cookies.ts";
import { fieldsOf } from "../steam-forms.ts";

const COMMUNITY = { host: "steamcommunity.com" };
const COMMUNITY_URL = "https://steamcommunity.com";
/** EResults `/dev/requestkey` answers in `success`. */
const ERESULT = { ok: 1, invalidParam: 8, accessDenied: 15 } as const;

/**
 * Steam's Web API key pages on the community (docs/design/steam-face.md#web-api-keys): the key
 * page `/dev/apikey`, which steamcommunity's `getWebApiKey` scrapes for `<p>Key: ...</p>` (and
 * steam-tradeoffer-manager with `useAccessToken: false`), `/dev/requestkey`, which its
 * `createWebApiKey` posts, the page's own form `/dev/registerkey`, and `/dev/revokekey`.
 */
export function devKeyRoutes(ctx: DomainContext) {
  return async (app: FastifyInstance) => {
    app.get("/dev/apikey", { constraints: COMMUNITY }, async (request, reply) => {
      const steamid = await signedInSteamId(ctx, request);
      if (!steamid) return reply.redirect(`${COMMUNITY_URL}/login/home/?goto=%2Fdev%2Fapikey`, 302);
      const key = await steamApiKeyOf(ctx, steamid);
      if (!key.ok)
        return page(
          reply,
          "<h2>Access Denied</h2><p>You will need to spend at least $5.00 on Steam to use this feature.</p>",
        );
      if (!key.value)
        return page(
          reply,
          `<form id="editForm" action="${COMMUNITY_URL}/dev/registerkey" method="POST">` +
            `<p>Domain Name: <input type="text" name="domain"></p>` +
            `<input type="checkbox" name="agreeToTerms" value="agreed"> I agree to the Steam Web API Terms of Use` +
            `<input type="submit" name="Submit" value="Register"></form>`,
        );
      return page(
        reply,
        `<div id="bodyContents_ex"><h2>Your Steam Web API Key</h2>` +
          `<p>Key: ${key.value.apiKey}</p><p>Domain Name: ${key.value.domain ?? ""}</p>` +
          `<form action="${COMMUNITY_URL}/dev/revokekey" method="POST"><input type="submit" value="Revoke My Steam Web API Key"></form></div>`,
      );
    });

    app.post("/dev/requestkey", { constraints: COMMUNITY }, async (request, reply) => {
      const steamid = await signedInSteamId(ctx, request);
      if (!steamid) return reply.code(401).send({ success: ERESULT.accessDenied });
      const fields = fieldsOf(request);
      const registered = await registerSteamApiKey(ctx, { platformid: steamid, domain: fields.domain ?? "" });
      if (!registered.ok)
        return reply.send({
          success:
            registered.failure.code === "Invalid Argument" ? ERESULT.invalidParam : ERESULT.accessDenied,
        });
      // Steam asks the mobile authenticator first (22, Pending); the sandbox's accounts hold one,
      // and it answers as Steam does once the confirmation is allowed.
      return reply.send({ success: ERESULT.ok, api_key: registered.value.apiKey, requires_confirmation: 0 });
    });

    app.post("/dev/registerkey", { constraints: COMMUNITY }, async (request, reply) => {
      const steamid = await signedInSteamId(ctx, request);
      if (!steamid) return reply.redirect(`${COMMUNITY_URL}/login/home/?goto=%2Fdev%2Fapikey`, 302);
      const fields = fieldsOf(request);
      if (fields.agreeToTerms !== "agreed" && fields.agreeToTerms !== "true")
        return reply
          .code(400)
          .type("text/plain; charset=utf-8")
          .send("agreeToTerms: agree to the terms of use");
      const registered = await registerSteamApiKey(ctx, { platformid: steamid, domain: fields.domain ?? "" });
      if (!registered.ok && registered.failure.code === "Invalid Argument")
        return reply.code(400).type("text/plain; charset=utf-8").send(registered.failure.message);
      return reply.redirect(`${COMMUNITY_URL}/dev/apikey`, 302);
    });

    app.post("/dev/revokekey", { constraints: COMMUNITY }, async (request, reply) => {
      const steamid = await signedInSteamId(ctx, request);
      if (!steamid) return reply.redirect(`${COMMUNITY_URL}/login/home/?goto=%2Fdev%2Fapikey`, 302);
      await revokeSteamApiKey(ctx, steamid);
      return reply.redirect(`${COMMUNITY_URL}/dev/apikey`, 302);
    });
  };
}

function page(reply: FastifyReply, body: string) {
  return reply
    .type("text/html; charset=utf-8")
    .send(
      `<!DOCTYPE html><html><head><title>Steam Community :: Steam Web API Key</title></head><body>${body}</body></html>`,
    );
}
