import type { FastifyInstance, FastifyReply } from "fastify";
import type { DomainContext } from "../../domain/context.ts";
import { ERESULT } from "../../platform/sandbox/steam-eresult.ts";
import { finalizeSteamLogin, setSteamToken } from "../../platform/sandbox/steam-login.ts";
import { fieldsOf } from "../steam-forms.ts";

/**
 * The web half of the login: `finalizelogin` on login.steampowered.com turns a refresh token into
 * transfers, and each host's `settoken` turns its transfer into the `steamLoginSecure` cookie.
 * Cookies carry no `Domain`, so a client keeps them for the host that set them (steampy looks them
 * up by exact host).
 */
const COOKIE_ATTRIBUTES = "Path=/; Secure; HttpOnly; SameSite=None";

export function loginRoutes(ctx: DomainContext) {
  return async (app: FastifyInstance) => {
    app.post(
      "/jwt/finalizelogin",
      { constraints: { host: "login.steampowered.com" } },
      async (request, reply) => {
        const fields = fieldsOf(request);
        const finalized = await finalizeSteamLogin(ctx, { refreshToken: fields.nonce ?? "" });
        if (!finalized.ok) return reply.send({ error: finalized.eresult });
        const { steamid, transfers } = finalized.value;
        reply.header(
          "set-cookie",
          `steamRefresh_steam=${steamid}%7C%7C${fields.nonce ?? ""}; ${COOKIE_ATTRIBUTES}`,
        );
        return reply.send({
          steamID: steamid,
          redir: fields.redir ?? "https://steamcommunity.com/",
          primary_domain: "steamcommunity.com",
          transfer_info: transfers.map((transfer) => ({
            url: `https://${transfer.host}/login/settoken`,
            params: { nonce: transfer.nonce, auth: transfer.auth },
          })),
        });
      },
    );

    for (const host of ["steamcommunity.com", "store.steampowered.com"])
      app.post("/login/settoken", { constraints: { host } }, async (request, reply) => {
        const fields = fieldsOf(request);
        const set = await setSteamToken(ctx, {
          host,
          steamid: fields.steamID ?? "",
          nonce: fields.nonce ?? "",
          auth: fields.auth ?? "",
        });
        if (!set.ok) return reply.send({ result: set.eresult });
        return sendWithCookies(reply, [
          `steamLoginSecure=${set.value.cookie}; ${COOKIE_ATTRIBUTES}`,
          `steamCountry=US%7C${fields.auth ?? ""}; ${COOKIE_ATTRIBUTES}`,
        ]);
      });
  };
}

function sendWithCookies(reply: FastifyReply, cookies: string[]) {
  return reply.header("set-cookie", cookies).send({ result: ERESULT.OK });
}
