import type { FastifyInstance, FastifyReply } from "fastify";
import type { DomainContext } from "../../domain/context.ts";
import type { Failure } from "../../domain/result.ts";
import { tradeUrlOf } from "../../domain/platform/trade-url.ts";
import { createOffer, respondToOffer } from "../../platform/sandbox/trade-offers.ts";
import { signedInSteamId } from "../steam-cookies.ts";
import { fieldsOf } from "../steam-forms.ts";

const COMMUNITY = { host: "steamcommunity.com" };

interface JsonTradeOffer {
  me?: { assets?: Array<{ assetid?: string }> };
  them?: { assets?: Array<{ assetid?: string }> };
}

/**
 * The community's trade offer actions, as steam-tradeoffer-manager and steampy post them: send
 * (`json_tradeoffer` with `me` and `them`; with `tradeofferid_countered`, a counter-offer that
 * ends the received offer it answers, as `offer.counter()` sends it), accept, decline, cancel; each on the signed-in
 * session (`steamLoginSecure`), mapped onto the sandbox platform's offers. Refusals are
 * `strError` with an EResult in parentheses, which the libraries parse.
 */
export function tradeOfferRoutes(ctx: DomainContext) {
  return async (app: FastifyInstance) => {
    app.post("/tradeoffer/new/send", { constraints: COMMUNITY }, async (request, reply) => {
      const steamid = await signedInSteamId(ctx, request);
      if (!steamid) return reply.code(401).send({ strError: "Not Logged In" });
      const fields = fieldsOf(request);
      const offer = parseJson<JsonTradeOffer>(fields.json_tradeoffer);
      const params = parseJson<{ trade_offer_access_token?: string }>(fields.trade_offer_create_params);
      const mine = (offer?.me?.assets ?? []).map((asset) => String(asset.assetid ?? ""));
      const theirs = (offer?.them?.assets ?? []).map((asset) => String(asset.assetid ?? ""));
      const partner = fields.partner ?? "";
      // steam-tradeoffer-manager posts the field empty when the offer counters nothing.
      const counters = fields.tradeofferid_countered || undefined;
      if (!offer || !/^7656119\d{10}$/.test(partner))
        return refuse(reply, "json_tradeoffer or partner is malformed", 8);
      if (counters !== undefined && !/^\d{1,18}$/.test(counters))
        return refuse(reply, "tradeofferid_countered is not an offer id", 8);
      // A sandbox offer moves one side's items: a gift, or a request for the partner's items.
      if (mine.length > 0 === theirs.length > 0)
        return refuse(reply, "the sandbox's offers give items or ask for them, not both nor neither", 8);
      // An offer that gives items waits for the sender's mobile confirmation, as on Steam; the
      // marketplace's own offers (through the platform port) do not.
      const gives = mine.length > 0;
      const sent = await createOffer(ctx, {
        sender: steamid,
        awaitingConfirmation: gives,
        tradeUrl: tradeUrlOf(partner, params?.trade_offer_access_token ?? ""),
        assetids: mine.length > 0 ? mine : theirs,
        itemsFrom: mine.length > 0 ? "sender" : "receiver",
        ...(fields.tradeoffermessage ? { message: fields.tradeoffermessage } : {}),
        ...(counters !== undefined ? { counters } : {}),
      });
      if (!sent.ok) return refuse(reply, sent.failure.message, eresultOf(sent.failure));
      return reply.send({
        tradeofferid: sent.value.tradeofferid,
        needs_mobile_confirmation: gives,
        needs_email_confirmation: false,
      });
    });

    // Steam's 2025 trade protection notice, acknowledged once before trading (steamcommunity's
    // acknowledgeTradeProtection, Steamauto); the libraries read only the status. The sandbox
    // does not hold offers back until it is acknowledged, so it keeps nothing.
    app.post("/trade/new/acknowledge", { constraints: COMMUNITY }, async (request, reply) => {
      if (!(await signedInSteamId(ctx, request))) return reply.code(401).send({ success: false });
      return reply.send({ success: true });
    });

    app.post<{ Params: { id: string; action: string } }>(
      "/tradeoffer/:id/:action",
      { constraints: COMMUNITY },
      async (request, reply) => {
        const { id, action } = request.params;
        if (!["accept", "decline", "cancel"].includes(action) || !/^\d{1,18}$/.test(id))
          return reply.callNotFound();
        const steamid = await signedInSteamId(ctx, request);
        if (!steamid) return reply.code(action === "accept" ? 403 : 401).send({ strError: "Not Logged In" });
        // An acceptance that gives the receiver's items waits for its mobile confirmation, as on
        // Steam (the sandbox's own verb: the platform port's acceptances wait for none).
        const answered =
          action === "cancel"
            ? await ctx.platform.cancelTradeOffer(ctx, { platformid: steamid, tradeofferid: id })
            : action === "accept"
              ? await respondToOffer(ctx, {
                  platformid: steamid,
                  tradeofferid: id,
                  accept: true,
                  confirmOnDevice: true,
                })
              : await ctx.platform.respondToTradeOffer(ctx, {
                  platformid: steamid,
                  tradeofferid: id,
                  accept: false,
                });
        if (!answered.ok) return refuse(reply, answered.failure.message, eresultOf(answered.failure));
        if (action !== "accept") return reply.send({ tradeofferid: id });
        // Still active: the acceptance waits for the receiver's confirmation (no trade yet).
        if (answered.value.state === "active")
          return reply.send({
            needs_mobile_confirmation: true,
            needs_email_confirmation: false,
            email_domain: "",
          });
        // An acceptance that found the items gone ends the offer cancelled, as Steam's item server does.
        if (answered.value.state !== "accepted")
          return refuse(reply, "the items are no longer available", 26);
        return reply.send({ tradeid: id, needs_mobile_confirmation: false, needs_email_confirmation: false });
      },
    );
  };
}

function refuse(reply: FastifyReply, message: string, eresult: number) {
  return reply
    .code(500)
    .send({ strError: `There was an error with your trade offer: ${message}. (${eresult})` });
}

/** EResult by the platform's refusal: bad input 8 (InvalidParam), unknown 9, a state that forbids it 11 (InvalidState). */
function eresultOf(failure: Failure): number {
  if (failure.code === "Invalid Argument") return 8;
  if (failure.code === "Not Found") return 9;
  return 11;
}

function parseJson<Shape>(text: string | undefined): Shape | undefined {
  try {
    return text ? (JSON.parse(text) as Shape) : undefined;
  } catch {
    return undefined;
  }
}
