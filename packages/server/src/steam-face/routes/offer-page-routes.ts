import type { FastifyInstance, FastifyReply } from "fastify";
import type { DomainContext } from "../../domain/context.ts";
import { steamAccountName } from "../../platform/sandbox/steam-credentials.ts";
import { awaitingConfirmation, STEAM_ESCROW_DAYS } from "../../platform/sandbox/steam-trade-offers.ts";
import { signedInSteamId } from "../steam-cookies.ts";

const COMMUNITY = { host: "steamcommunity.com" };
const COMMUNITY_URL = "https://steamcommunity.com";
const STEAM_ID_BASE = 76561197960265728n;

/**
 * The community pages a bot reads around its offers: the offer page (`/tradeoffer/{id}/`) and the
 * new-offer page (`/tradeoffer/new/?partner=&token=`), whose script steam-tradeoffer-manager's
 * `getUserDetails` runs for the inventories' contexts and `g_daysMyEscrow`/`g_daysTheirEscrow`
 * and steampy reads for `g_ulTradePartnerSteamID`; and `/login/home/?goto=`, steampy's session
 * check (a live session is sent on, `302`; none gets the sign-in page).
 */
export function offerPageRoutes(ctx: DomainContext) {
  return async (app: FastifyInstance) => {
    app.get<{ Querystring: { goto?: string } }>(
      "/login/home/",
      { constraints: COMMUNITY },
      async (request, reply) => {
        if (!(await signedInSteamId(ctx, request)))
          return page(reply, "Sign In", "<p>Sign in through Steam</p>");
        const goto = (request.query.goto ?? "").replace(/^\/+/, "");
        return reply.redirect(`${COMMUNITY_URL}/${/^[\w/%.?=&-]*$/.test(goto) ? goto : ""}`, 302);
      },
    );

    app.get<{ Params: { id: string } }>(
      "/tradeoffer/:id/",
      { constraints: COMMUNITY },
      async (request, reply) => {
        const steamid = await signedInSteamId(ctx, request);
        if (!steamid)
          return reply.redirect(
            `${COMMUNITY_URL}/login/home/?goto=tradeoffer%2F${request.params.id}%2F`,
            302,
          );
        const found = await ctx.platform.getTradeOffer(ctx, { tradeofferid: request.params.id });
        const party =
          found.ok &&
          found.value.state === "active" &&
          (found.value.sender === steamid ||
            (found.value.receiver === steamid &&
              (await awaitingConfirmation(ctx, [found.value])).size === 0));
        if (!found.ok || !party)
          return page(reply, "Trade Offer", `<div id="error_msg">This trade offer is no longer valid.</div>`);
        const partner = found.value.sender === steamid ? found.value.receiver : found.value.sender;
        return offerPage(ctx, reply, steamid, partner);
      },
    );

    app.get<{ Querystring: { partner?: string; token?: string } }>(
      "/tradeoffer/new/",
      { constraints: COMMUNITY },
      async (request, reply) => {
        const steamid = await signedInSteamId(ctx, request);
        if (!steamid) return reply.redirect(`${COMMUNITY_URL}/login/home/?goto=tradeoffer%2Fnew%2F`, 302);
        const accountid = request.query.partner ?? "";
        const partner = /^\d{1,10}$/.test(accountid) ? String(BigInt(accountid) + STEAM_ID_BASE) : "";
        const account = partner
          ? await ctx.db
              .selectFrom("sandbox_platform_accounts")
              .select("trade_token")
              .where("platformid", "=", partner)
              .executeTakeFirst()
          : undefined;
        // Without the partner's token Steam offers only to friends; the sandbox has no friends.
        if (!account || account.trade_token !== request.query.token || partner === steamid)
          return page(
            reply,
            "Trade Offer",
            `<div id="error_msg">This Trade URL is no longer valid for sending a trade offer.</div>`,
          );
        return offerPage(ctx, reply, steamid, partner);
      },
    );
  };
}

async function offerPage(ctx: DomainContext, reply: FastifyReply, steamid: string, partner: string) {
  const counts = await ctx.db
    .selectFrom("sandbox_assets")
    .select(["platformid", (eb) => eb.fn.countAll<string>().as("count")])
    .where("platformid", "in", [steamid, partner])
    .where("traded_to_assetid", "is", null)
    .groupBy("platformid")
    .execute();
  const contexts = (platformid: string) => {
    const count = Number(counts.find((row) => row.platformid === platformid)?.count ?? 0);
    return {
      730: {
        appid: 730,
        name: "Counter-Strike 2",
        asset_count: count,
        trade_permissions: "FULL",
        load_failed: 0,
        rgContexts: { 2: { asset_count: count, id: "2", name: "Backpack" } },
      },
    };
  };
  const script = [
    `\tvar g_rgAppContextData = ${JSON.stringify(contexts(steamid))};`,
    `\tvar g_rgPartnerAppContextData = ${JSON.stringify(contexts(partner))};`,
    `\tvar g_strYourPersonaName = ${JSON.stringify(steamAccountName(steamid))};`,
    `\tvar g_strTradePartnerPersonaName = ${JSON.stringify(steamAccountName(partner))};`,
    `\tvar g_bTradePartnerProbation = false;`,
    `\tvar g_ulTradePartnerSteamID = '${partner}';`,
    `\tvar g_daysMyEscrow = ${STEAM_ESCROW_DAYS};`,
    `\tvar g_daysTheirEscrow = ${STEAM_ESCROW_DAYS};`,
  ].join("\n");
  return page(
    reply,
    "Trade Offer",
    `<div class="trade_area"></div>\n<script type="text/javascript">\n${script}\n</script>`,
  );
}

function page(reply: FastifyReply, title: string, body: string) {
  return reply
    .type("text/html; charset=utf-8")
    .send(`<!DOCTYPE html><html><head><title>${title}</title></head><body>\n${body}\n</body></html>`);
}
