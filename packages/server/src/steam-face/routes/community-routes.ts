import { randomBytes } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { DomainContext } from "../../domain/context.ts";
import { steamAccountName } from "../../platform/sandbox/steam-credentials.ts";
import { readSteamInventory, STEAM_INVENTORY_MAX_COUNT } from "../../platform/sandbox/steam-inventory.ts";
import { InventoryReadLimit } from "../inventory-read-limit.ts";
import { cookiesOf, signedInSteamId } from "../steam-cookies.ts";

const COMMUNITY = { host: "steamcommunity.com" };
const COMMUNITY_URL = "https://steamcommunity.com";
const STEAMID = /^7656119\d{10}$/;

/**
 * The community pages the libraries read: the home page (`g_steamID`, the account name, the
 * `sessionid` cookie), `/my` (a 302 to the profile, or to the login when signed out), the trade
 * offer privacy page (the trade URL), and the inventory endpoint (`429` when read too often).
 */
export function communityRoutes(ctx: DomainContext) {
  const readLimit = new InventoryReadLimit(ctx.clock);
  return async (app: FastifyInstance) => {
    app.get("/", { constraints: COMMUNITY }, async (request, reply) => {
      const steamid = await signedInSteamId(ctx, request);
      withSessionId(request, reply);
      return page(
        reply,
        steamid ? "Steam Community" : "Sign In",
        `<script>g_steamID = ${steamid ? `"${steamid}"` : "false"};</script>` +
          (steamid ? `<span class="persona">${steamAccountName(steamid)}</span>` : "<p>Sign in</p>"),
      );
    });

    app.get("/my", { constraints: COMMUNITY }, async (request, reply) => {
      const steamid = await signedInSteamId(ctx, request);
      return reply.redirect(
        steamid ? `${COMMUNITY_URL}/profiles/${steamid}/` : `${COMMUNITY_URL}/login/home/?goto=%2Fmy`,
        302,
      );
    });

    app.get<{ Params: { steamid: string } }>(
      "/profiles/:steamid/tradeoffers/privacy",
      { constraints: COMMUNITY },
      async (request, reply) => {
        const steamid = await signedInSteamId(ctx, request);
        if (!steamid || steamid !== request.params.steamid)
          return reply.redirect(`${COMMUNITY_URL}/login/home/?goto=%2Fmy%2Ftradeoffers%2Fprivacy`, 302);
        const tradeUrl = await ctx.platform.getTradeUrl(ctx, {
          platformid: steamid,
          cookies: cookiesOf(request),
        });
        if (!tradeUrl.ok)
          return reply.code(503).type("text/plain; charset=utf-8").send(tradeUrl.failure.message);
        return page(
          reply,
          "Trade Offers",
          `<script>g_steamID = "${steamid}";</script><input type="text" id="trade_offer_access_url" value="${tradeUrl.value.tradeUrl}" readonly>`,
        );
      },
    );

    app.get<{
      Params: { steamid: string; appid: string; contextid: string };
      Querystring: Record<string, string>;
    }>("/inventory/:steamid/:appid/:contextid", { constraints: COMMUNITY }, async (request, reply) => {
      const { steamid, appid, contextid } = request.params;
      // Steam answers an inventory it does not have (another game, a bad id) as it answers a private one.
      if (!STEAMID.test(steamid) || appid !== "730" || contextid !== "2")
        return reply.code(403).type("application/json").send("null");
      const count = Number(request.query.count ?? 75);
      const start = request.query.start_assetid;
      if (
        !Number.isInteger(count) ||
        count < 1 ||
        count > STEAM_INVENTORY_MAX_COUNT ||
        (start !== undefined && !/^\d{1,19}$/.test(start))
      )
        return reply.code(400).type("application/json").send("null");
      if (!readLimit.take(steamid)) return reply.code(429).type("application/json").send("null");
      const answer = await readSteamInventory(ctx, {
        steamid,
        cookies: cookiesOf(request),
        count,
        startAssetid: start,
      });
      if (answer.kind === "private") return reply.code(403).type("application/json").send("null");
      if (answer.kind === "unavailable") return reply.code(500).send({ error: `${answer.message} (2)` });
      return reply.send(answer.page);
    });
  };
}

function withSessionId(request: FastifyRequest, reply: FastifyReply): void {
  if (cookiesOf(request).some((cookie) => cookie.key === "sessionid")) return;
  reply.header("set-cookie", `sessionid=${randomBytes(12).toString("hex")}; Path=/; Secure; SameSite=None`);
}

function page(reply: FastifyReply, title: string, body: string) {
  return reply
    .type("text/html; charset=utf-8")
    .send(`<!DOCTYPE html><html><head><title>${title}</title></head><body>${body}</body></html>`);
}
