import {
  buyerSendOffer,
  getSalesToDeliver,
  sellerSendOffer,
  setForceBuyerSendOffer,
} from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { setForceBuyerSendOffer as setPreference } from "../../../domain/accounts/set-force-buyer-send-offer.ts";
import { invalidArgument } from "../../../domain/result.ts";
import { listSalesToDeliver } from "../../../domain/trades/list-sales-to-deliver.ts";
import { sendBuyerOffer } from "../../../domain/trades/send-buyer-offer.ts";
import { sendOffer } from "../../../domain/trades/send-offer.ts";
import { sendEachOffer } from "../../../domain/trades/send-trade-offer.ts";
import { registerOperation } from "../../operation-route.ts";
import { internalAnswer } from "./internal-answer.ts";

const APPIDS = { csgo: 730, cs2: 730, dota2: 570 } as const;

/**
 * The website's delivery routes (docs/design/website-buying-routes.md#the-websites-delivery-routes): the sales to deliver, the offers the
 * seller or the buyer sends (each order through the verb of its side), and the seller's choice
 * that buyers send them. The encrypted sessions tools upload with an offer request are not read:
 * offers go out with the cookies uploaded through platform/cookie.
 */
export function registerWebDeliveryRoutes(app: FastifyInstance): void {
  registerOperation(app, getSalesToDeliver, async ({ ctx, query }) => {
    if (query.appid !== undefined && query.appid !== APPIDS[query.game])
      return invalidArgument("appid", `the app id of ${query.game} is ${APPIDS[query.game]}`);
    return internalAnswer(await listSalesToDeliver(ctx, { game: query.game }));
  });

  registerOperation(app, sellerSendOffer, async ({ ctx, body }) =>
    internalAnswer(
      await sendEachOffer(body.bill_orders, (id) => sendOffer(ctx, { orderId: id, field: "bill_orders" })),
    ),
  );

  registerOperation(app, buyerSendOffer, async ({ ctx, body }) =>
    internalAnswer(
      await sendEachOffer(body.bill_orders, (id) =>
        sendBuyerOffer(ctx, { tradeId: Number(id), field: "bill_orders" }),
      ),
    ),
  );

  registerOperation(app, setForceBuyerSendOffer, async ({ ctx, body }) => {
    const force = body.force_buyer_send_offer;
    return internalAnswer(await setPreference(ctx, force === true || force === "true"));
  });
}
