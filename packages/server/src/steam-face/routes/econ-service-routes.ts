import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { DomainContext } from "../../domain/context.ts";
import {
  awaitingConfirmation,
  steamOffersOf,
  steamTradeHoldDurations,
  viewerOffers,
} from "../../platform/sandbox/steam-trade-offers.ts";
import {
  countSteamTrades,
  STEAM_TRADE_HISTORY_MAX,
  steamAssetClassInfo,
  steamTrades,
} from "../../platform/sandbox/steam-trade-status.ts";
import { ownerOfSteamApiKey } from "../../platform/sandbox/steam-api-keys.ts";
import { fieldsOf } from "../steam-forms.ts";

const API = { host: "api.steampowered.com" };
/** Steam's own page for a key or token it does not accept; TOM reads "Access is denied" as a lost session. */
const ACCESS_DENIED =
  "<html><head><title>Forbidden</title></head><body><h1>Forbidden</h1>Access is denied. Retrying will not help. Please verify your <pre>key=</pre> parameter.</body></html>";

/**
 * IEconService's trade offer reads on api.steampowered.com, with the `access_token` a bot takes
 * from its `steamLoginSecure` cookie (steam-tradeoffer-manager's default) checked as that session,
 * or the account's Web API `key`; anything else is Steam's 403 page.
 */
export function econServiceRoutes(ctx: DomainContext) {
  return async (app: FastifyInstance) => {
    const route = (
      method: string,
      handler: (viewer: string, fields: Record<string, string>, reply: FastifyReply) => Promise<unknown>,
      iface = "IEconService",
    ) =>
      app.route({
        method: ["GET", "POST"],
        url: `/${iface}/${method}/v1/`,
        constraints: API,
        handler: async (request, reply) => {
          const viewer = await tokenOwner(ctx, request);
          if (!viewer) return reply.code(403).type("text/html; charset=utf-8").send(ACCESS_DENIED);
          reply.header("x-eresult", "1");
          return handler(viewer, fieldsOf(request), reply);
        },
      });

    route("GetTradeOffers", async (viewer, fields) => {
      const cutoff = Number(fields.time_historical_cutoff ?? "");
      const cursor = Number(fields.cursor ?? "0");
      const { sent, received, nextCursor } = await viewerOffers(
        ctx,
        viewer,
        {
          sent: flag(fields.get_sent_offers),
          received: flag(fields.get_received_offers),
          activeOnly: flag(fields.active_only),
          historicalOnly: flag(fields.historical_only),
          cutoff: Number.isFinite(cutoff) && cutoff > 0 ? new Date(cutoff * 1000) : undefined,
        },
        Number.isSafeInteger(cursor) && cursor > 0 ? cursor : 0,
      );
      return {
        response: {
          trade_offers_sent: await steamOffersOf(ctx, viewer, sent),
          trade_offers_received: await steamOffersOf(ctx, viewer, received),
          next_cursor: nextCursor,
        },
      };
    });

    route("GetTradeOffer", async (viewer, fields, reply) => {
      const found = await ctx.platform.getTradeOffer(ctx, { tradeofferid: fields.tradeofferid ?? "" });
      const visible =
        found.ok &&
        (found.value.sender === viewer ||
          (found.value.receiver === viewer && (await awaitingConfirmation(ctx, [found.value])).size === 0));
      if (!found.ok || !visible) {
        reply.header("x-eresult", "9");
        return { response: {} };
      }
      const [offer] = await steamOffersOf(ctx, viewer, [found.value]);
      return { response: { offer, descriptions: [] } };
    });

    // The sandbox's trade id is its offer's id; only an accepted offer made a trade (a reversed
    // one stays readable here, in status 12).
    route("GetTradeStatus", async (viewer, fields, reply) => {
      const tradeid = fields.tradeid ?? "";
      const found = /^\d{1,18}$/.test(tradeid)
        ? await steamTrades(ctx, viewer, {
            tradeid,
            maxTrades: 1,
            navigatingBack: false,
            includeFailed: true,
          })
        : undefined;
      if (!found?.trades[0]) {
        reply.header("x-eresult", "9");
        return { response: {} };
      }
      return { response: { trades: found.trades } };
    });

    route("GetTradeHistory", async (viewer, fields, reply) => {
      const maxTrades = Number(fields.max_trades ?? "100");
      const time = fields.start_after_time;
      const tradeid = fields.start_after_tradeid;
      if (
        !Number.isInteger(maxTrades) ||
        maxTrades < 1 ||
        maxTrades > STEAM_TRADE_HISTORY_MAX ||
        (time !== undefined && !/^\d{1,10}$/.test(time)) ||
        (tradeid !== undefined && !/^\d{1,18}$/.test(tradeid))
      ) {
        // EResult 8 (InvalidParam), as Steam answers a malformed call.
        reply.header("x-eresult", "8");
        return { response: {} };
      }
      const includeFailed = flag(fields.include_failed);
      const page = await steamTrades(ctx, viewer, {
        maxTrades,
        // A time of 0 is no cursor (the libraries send it on the first page).
        ...(time !== undefined && time !== "0" ? { startAfterTime: Number(time) } : {}),
        ...(time !== undefined && time !== "0" && tradeid !== undefined && tradeid !== "0"
          ? { startAfterTradeid: tradeid }
          : {}),
        navigatingBack: flag(fields.navigating_back),
        includeFailed,
      });
      return {
        response: {
          ...(flag(fields.include_total)
            ? { total_trades: await countSteamTrades(ctx, viewer, includeFailed) }
            : {}),
          trades: page.trades,
          more: page.more,
          ...(flag(fields.get_descriptions) ? { descriptions: await descriptionsOf(ctx, page.trades) } : {}),
        },
      };
    });

    route(
      "GetAssetClassInfo",
      async (_viewer, fields) => {
        const count = Math.min(Number(fields.class_count ?? "0") || 0, 1000);
        const classes = Array.from({ length: count }, (_, index) => ({
          classid: fields[`classid${index}`] ?? "",
          instanceid: fields[`instanceid${index}`] ?? "0",
        }));
        return { result: { ...(await steamAssetClassInfo(ctx, classes)), success: true } };
      },
      "ISteamEconomy",
    );

    // ASF and steam.py read `their_escrow` before they send; an empty answer is Steam's for a
    // partner whose token was not given (or is wrong).
    route("GetTradeHoldDurations", async (viewer, fields, reply) => {
      const steamid = fields.steamid_target ?? "";
      if (!/^7656119\d{10}$/.test(steamid)) {
        reply.header("x-eresult", "8");
        return { response: {} };
      }
      const durations = await steamTradeHoldDurations(ctx, viewer, {
        steamid,
        token: fields.trade_offer_access_token ?? "",
      });
      return { response: durations ?? {} };
    });

    route("GetTradeOffersSummary", async (viewer) => {
      const { sent, received } = await viewerOffers(ctx, viewer, {
        sent: true,
        received: true,
        activeOnly: false,
        historicalOnly: false,
        cutoff: undefined,
      });
      const active = (offers: typeof sent) => offers.filter((offer) => offer.state === "active").length;
      return {
        response: {
          pending_received_count: active(received),
          new_received_count: active(received),
          updated_received_count: 0,
          historical_received_count: received.length - active(received),
          pending_sent_count: active(sent),
          newly_accepted_sent_count: sent.filter((offer) => offer.state === "accepted").length,
          updated_sent_count: 0,
          historical_sent_count: sent.length - active(sent),
          escrow_received_count: 0,
          escrow_sent_count: 0,
        },
      };
    });
  };
}

/** The descriptions of a page's items, one per class, as GetTradeHistory lists them. */
async function descriptionsOf(ctx: DomainContext, trades: Array<Record<string, unknown>>) {
  const items = trades.flatMap(
    (trade) =>
      (trade.assets_given ?? trade.assets_received) as Array<{ classid: string; instanceid: string }>,
  );
  const classes = [...new Map(items.map((item) => [`${item.classid}_${item.instanceid}`, item])).values()];
  const info = await steamAssetClassInfo(ctx, classes);
  return Object.values(info).map((description) => ({ appid: 730, ...description }));
}

/**
 * The account the call is made for: the owner of its live access token (`access_token`, a JWT
 * whose `sub` is the SteamID), or, without one, of its Web API key (`key`, as
 * steam-tradeoffer-manager sends it with `useAccessToken: false`).
 */
async function tokenOwner(ctx: DomainContext, request: FastifyRequest): Promise<string | undefined> {
  const fields = fieldsOf(request);
  if (fields.access_token === undefined && fields.key !== undefined)
    return ownerOfSteamApiKey(ctx, fields.key);
  const token = fields.access_token ?? "";
  let steamid: unknown;
  try {
    steamid = (
      JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as { sub?: unknown }
    ).sub;
  } catch {
    return undefined;
  }
  if (typeof steamid !== "string" || !/^7656119\d{10}$/.test(steamid)) return undefined;
  const state = await ctx.platform.validateSession(ctx, {
    platformid: steamid,
    cookies: [{ domain: "steamcommunity.com", key: "steamLoginSecure", value: `${steamid}%7C%7C${token}` }],
  });
  return state === "valid" ? steamid : undefined;
}

function flag(value: string | undefined): boolean {
  return value === "1" || value === "true";
}
