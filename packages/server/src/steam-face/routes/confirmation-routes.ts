import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { DomainContext } from "../../domain/context.ts";
import {
  answerConfirmations,
  checkConfirmationKey,
  pendingConfirmations,
} from "../../platform/sandbox/offer-confirmations.ts";
import { steamAccountName } from "../../platform/sandbox/steam-credentials.ts";
import { signedInSteamId } from "../steam-cookies.ts";
import { fieldsOf } from "../steam-forms.ts";

const COMMUNITY = { host: "steamcommunity.com" };
/** EConfirmationType: a trade offer. */
const TRADE_CONFIRMATION = 2;
/** Steam's own answer to a key the authenticator did not make (steamcommunity shows `message`). */
const INVALID_AUTHENTICATOR = {
  success: false,
  message: "Invalid authenticator",
  detail:
    "It looks like your Steam Guard Mobile Authenticator is providing incorrect Steam Guard codes. This could be caused by an inaccurate clock or bad timezone settings on your device.",
};

/**
 * The mobile authenticator's confirmation calls (`/mobileconf/...`), as steamcommunity and steampy
 * make them: the session cookie, `a` (the SteamID), `t`, `tag` and `k` (the key of `t` and `tag`
 * under `identity_secret`). No session is `needauth`; a bad key is Steam's "Invalid authenticator".
 */
export function confirmationRoutes(ctx: DomainContext) {
  return async (app: FastifyInstance) => {
    const signedIn = async (request: FastifyRequest, reply: FastifyReply) => {
      const steamid = await signedInSteamId(ctx, request);
      const fields = fieldsOf(request);
      if (!steamid || fields.a !== steamid) {
        await reply.send({ success: false, needauth: true });
        return undefined;
      }
      const key = await checkConfirmationKey(ctx, {
        platformid: steamid,
        time: fields.t ?? "",
        tag: fields.tag ?? "",
        key: fields.k ?? "",
      });
      if (!key.ok) {
        await reply.send(INVALID_AUTHENTICATOR);
        return undefined;
      }
      return { steamid, fields };
    };

    app.get("/mobileconf/getlist", { constraints: COMMUNITY }, async (request, reply) => {
      const caller = await signedIn(request, reply);
      if (!caller) return reply;
      const pending = await pendingConfirmations(ctx, caller.steamid);
      return reply.send({
        success: true,
        conf: pending.map((confirmation) => ({
          type: TRADE_CONFIRMATION,
          type_name: "Trade Offer",
          id: confirmation.tradeofferid,
          creator_id: confirmation.tradeofferid,
          nonce: confirmation.nonce,
          creation_time: Math.floor(confirmation.createdAt.getTime() / 1000),
          cancel: "Cancel",
          accept: confirmation.kind === "send" ? "Send Offer" : "Accept",
          icon: "",
          multi: false,
          headline: steamAccountName(confirmation.partner),
          summary: [`You will give up your ${confirmation.itemCount} item(s)`, "You will receive nothing"],
          warn: null,
        })),
      });
    });

    // steamcommunity reads the HTML page; steampy reads `html` from the JSON one.
    app.get<{ Params: { page: string; id: string } }>(
      "/mobileconf/:page/:id",
      { constraints: COMMUNITY },
      async (request, reply) => {
        const { page, id } = request.params;
        if (page !== "detailspage" && page !== "details") return reply.callNotFound();
        const caller = await signedIn(request, reply);
        if (!caller) return reply;
        const pending = await pendingConfirmations(ctx, caller.steamid);
        const found = pending.find((confirmation) => confirmation.tradeofferid === id);
        const html = found
          ? `<div class="mobileconf_trade_area"><div class="tradeoffer" id="tradeofferid_${found.tradeofferid}"></div></div>`
          : `<div class="mobileconf_done">Nothing to confirm</div>`;
        if (page === "details") return reply.send({ success: found !== undefined, html });
        return reply
          .type("text/html; charset=utf-8")
          .send(`<!DOCTYPE html><html><body>${html}</body></html>`);
      },
    );

    const answer = async (request: FastifyRequest, reply: FastifyReply) => {
      const caller = await signedIn(request, reply);
      if (!caller) return reply;
      const { fields } = caller;
      const op = fields.op;
      if (op !== "allow" && op !== "cancel")
        return reply.send({ success: false, message: "op: allow or cancel" });
      const answered = await answerConfirmations(ctx, {
        platformid: caller.steamid,
        confirmations: listField(fields, "cid").map((id, index) => ({
          id,
          nonce: listField(fields, "ck")[index] ?? "",
        })),
        accept: op === "allow",
      });
      return reply.send(
        answered.ok ? { success: true } : { success: false, message: answered.failure.message },
      );
    };
    app.get("/mobileconf/ajaxop", { constraints: COMMUNITY }, answer);
    app.post("/mobileconf/multiajaxop", { constraints: COMMUNITY }, answer);
  };
}

/** A field sent once (`cid`) or as a list (`cid[]`, `cid[0]`, `cid[1]`, ...), in order. */
function listField(fields: Record<string, string>, name: string): string[] {
  if (fields[name] !== undefined) return [fields[name]];
  return Object.entries(fields)
    .map(([key, value]) => ({ index: new RegExp(`^${name}\\[(\\d*)\\]$`).exec(key)?.[1], value }))
    .filter((entry) => entry.index !== undefined)
    .sort((one, other) => Number(one.index) - Number(other.index))
    .map((entry) => entry.value);
}
