import {
  sandboxAcceptOffer,
  sandboxCreateOffer,
  sandboxDeclineOffer,
  sandboxListOffers,
} from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { toUnixSeconds } from "../../../domain/clock.ts";
import { ok, type Result } from "../../../domain/result.ts";
import type { PlatformTradeOffer } from "../../../domain/platform/game-platform.ts";
import { listOffersPage } from "../../../platform/sandbox/offers-page.ts";
import { findOffer } from "../../../platform/sandbox/read-offers.ts";
import { createOffer, respondToOffer } from "../../../platform/sandbox/trade-offers.ts";
import { registerOperation } from "../../operation-route.ts";

function offerView(offer: PlatformTradeOffer) {
  return {
    tradeofferid: offer.tradeofferid,
    sender: offer.sender,
    receiver: offer.receiver,
    assetids: offer.assetids,
    items_from: offer.itemsFrom,
    state: offer.state,
    message: offer.message,
    created_at: toUnixSeconds(offer.createdAt),
    updated_at: toUnixSeconds(offer.updatedAt),
    expires_at: toUnixSeconds(offer.expiresAt),
    reversible_until: offer.reversibleUntil ? toUnixSeconds(offer.reversibleUntil) : null,
    ...(offer.receivedAssetids ? { received_assetids: offer.receivedAssetids } : {}),
  };
}

function view(result: Result<PlatformTradeOffer>) {
  return result.ok ? ok(offerView(result.value)) : result;
}

/** Sandbox routes for trade offers: list, send (as a player), and the receiver's answer. */
export function registerSandboxPlatformOffers(app: FastifyInstance): void {
  registerOperation(app, sandboxListOffers, async ({ ctx, query }) => {
    const page = await listOffersPage(ctx, {
      platformid: query.platformid,
      userId: query.user_id === undefined ? undefined : Number(query.user_id),
      pageNum: query.page_num,
      pageSize: query.page_size,
    });
    if (!page.ok) return page;
    return ok({
      items: page.value.offers.map(offerView),
      page_num: query.page_num,
      page_size: query.page_size,
      total_count: page.value.total,
    });
  });

  registerOperation(app, sandboxCreateOffer, async ({ ctx, body }) =>
    view(
      await createOffer(ctx, {
        sender: body.platformid,
        tradeUrl: body.trade_url,
        assetids: body.assetids,
        ...(body.items_from !== undefined ? { itemsFrom: body.items_from } : {}),
        ...(body.message !== undefined ? { message: body.message } : {}),
      }),
    ),
  );

  for (const [operation, accept] of [
    [sandboxAcceptOffer, true],
    [sandboxDeclineOffer, false],
  ] as const) {
    registerOperation(app, operation, async ({ ctx, params }) => {
      const offer = await findOffer(ctx, params.tradeofferid);
      if (!offer.ok) return offer;
      return view(
        await respondToOffer(ctx, {
          platformid: offer.value.receiver,
          tradeofferid: params.tradeofferid,
          accept,
        }),
      );
    });
  }
}
