import type { DomainContext } from "../../domain/context.ts";
import type { PlatformTradeOffer } from "../../domain/platform/game-platform.ts";
import { listOffers } from "./read-offers.ts";

/**
 * The sandbox's trade offers as IEconService gives them: `ETradeOfferState` numbers, the viewer's
 * `items_to_give` and `items_to_receive`, `accountid_other` and `is_our_offer` from the viewer's
 * side. A sandbox offer moves one side's items only, so one of the two lists is always empty.
 */
export const TRADE_OFFER_STATE = {
  active: 2,
  accepted: 3,
  expired: 5,
  cancelled: 6,
  declined: 7,
  // Steam's web client names 12 `k_ETradeOfferStateReverted`: a trade reversed under trade protection.
  reverted: 12,
} as const;
/** ETradeOfferState 9: sent, waiting for the sender's mobile confirmation. */
const CREATED_NEEDS_CONFIRMATION = 9;
/** ETradeOfferState 4: the receiver answered with a counter-offer (a `declined` offer with `countered_by`). */
const COUNTERED = 4;
/** ETradeOfferState 10: the receiver cancelled its acceptance's confirmation (a `declined` offer with `acceptance_nonce`). */
const CANCELED_BY_SECOND_FACTOR = 10;
const STEAM_ID_BASE = 76561197960265728n;
/**
 * The days Steam holds a trade of an account (docs/design/steam-face.md#escrow): none, since every
 * sandbox account holds the mobile authenticator; a trade's hold is trade protection's business.
 */
export const STEAM_ESCROW_DAYS = 0;

export interface SteamOfferItem {
  appid: number;
  contextid: string;
  assetid: string;
  classid: string;
  instanceid: string;
  amount: string;
  missing: boolean;
}

export async function steamOffersOf(
  ctx: DomainContext,
  viewer: string,
  offers: PlatformTradeOffer[],
): Promise<Array<Record<string, unknown>>> {
  const assetids = [...new Set(offers.flatMap((offer) => offer.assetids.map(Number)))];
  const unconfirmed = await awaitingConfirmation(ctx, offers);
  const countered = await counteredOffers(ctx, offers);
  // Active: the receiver's acceptance waits for its confirmation; declined: it was cancelled there.
  const acceptances = await offersWith(
    ctx,
    offers.filter((offer) => offer.state === "active" || offer.state === "declined"),
    "acceptance_nonce",
  );
  const classes = new Map(
    assetids.length === 0
      ? []
      : (
          await ctx.db
            .selectFrom("sandbox_assets")
            .select(["assetid", "classid", "instanceid"])
            .where("assetid", "in", assetids)
            .execute()
        ).map((row) => [String(row.assetid), row]),
  );
  return offers.map((offer) => {
    const ours = offer.sender === viewer;
    const items = offer.assetids.map((assetid) => ({
      appid: 730,
      contextid: "2",
      assetid,
      classid: classes.get(assetid)?.classid ?? "0",
      instanceid: classes.get(assetid)?.instanceid ?? "0",
      amount: "1",
      missing: offer.state === "accepted" || offer.state === "reverted",
    }));
    const given = offer.itemsFrom === "sender" ? ours : !ours;
    const other = ours ? offer.receiver : offer.sender;
    return {
      tradeofferid: offer.tradeofferid,
      accountid_other: Number(BigInt(other) - STEAM_ID_BASE),
      message: offer.message,
      expiration_time: seconds(offer.expiresAt),
      trade_offer_state:
        offer.state === "active" && unconfirmed.has(offer.tradeofferid)
          ? CREATED_NEEDS_CONFIRMATION
          : countered.has(offer.tradeofferid)
            ? COUNTERED
            : offer.state === "declined" && acceptances.has(offer.tradeofferid)
              ? CANCELED_BY_SECOND_FACTOR
              : TRADE_OFFER_STATE[offer.state],
      items_to_give: given ? items : [],
      items_to_receive: given ? [] : items,
      is_our_offer: ours,
      time_created: seconds(offer.createdAt),
      time_updated: seconds(offer.updatedAt),
      // The sandbox's trade id is its offer id: one trade per accepted offer.
      ...(offer.state === "accepted" || offer.state === "reverted" ? { tradeid: offer.tradeofferid } : {}),
      from_real_time_trade: false,
      // No trade is held (STEAM_ESCROW_DAYS), so none has an escrow end.
      escrow_end_date: 0,
      // EConfirmationMethod 2: the mobile app, for the party whose confirmation the offer waits for.
      confirmation_method:
        (ours && unconfirmed.has(offer.tradeofferid)) ||
        (!ours && offer.state === "active" && acceptances.has(offer.tradeofferid))
          ? 2
          : 0,
    };
  });
}

/** The ids of those offers that wait for their sender's confirmation. */
export function awaitingConfirmation(ctx: DomainContext, offers: PlatformTradeOffer[]): Promise<Set<string>> {
  return offersWith(ctx, offers, "confirmation_nonce");
}

/** The ids of those offers that ended countered. */
function counteredOffers(ctx: DomainContext, offers: PlatformTradeOffer[]): Promise<Set<string>> {
  return offersWith(
    ctx,
    offers.filter((offer) => offer.state === "declined"),
    "countered_by",
  );
}

/** The ids of those offers whose `column` is set. */
async function offersWith(
  ctx: DomainContext,
  offers: PlatformTradeOffer[],
  column: "confirmation_nonce" | "countered_by" | "acceptance_nonce",
): Promise<Set<string>> {
  if (offers.length === 0) return new Set();
  const rows = await ctx.db
    .selectFrom("sandbox_trade_offers")
    .select("tradeofferid")
    .where(
      "tradeofferid",
      "in",
      offers.map((offer) => Number(offer.tradeofferid)),
    )
    .where(column, "is not", null)
    .execute();
  return new Set(rows.map((row) => String(row.tradeofferid)));
}

/**
 * GetTradeHoldDurations: how long a trade between the viewer and `target` would be held, for the
 * viewer, for the target and for both; nothing (Steam's empty answer) without the target's right
 * trade token, as Steam answers for an account that is not a friend.
 */
export async function steamTradeHoldDurations(
  ctx: DomainContext,
  viewer: string,
  target: { steamid: string; token: string },
): Promise<
  Record<"my_escrow" | "their_escrow" | "both_escrow", { escrow_end_duration_seconds: number }> | undefined
> {
  const account = await ctx.db
    .selectFrom("sandbox_platform_accounts")
    .select("trade_token")
    .where("platformid", "=", target.steamid)
    .executeTakeFirst();
  if (!account || (target.steamid !== viewer && account.trade_token !== target.token)) return undefined;
  const hold = { escrow_end_duration_seconds: STEAM_ESCROW_DAYS * 86_400 };
  return { my_escrow: hold, their_escrow: hold, both_escrow: hold };
}

/** Offers in one page of GetTradeOffers, sent and received together. */
export const TRADE_OFFERS_PAGE = 100;

/**
 * One page of the viewer's offers, newest first, as GetTradeOffers pages them: `cursor` is where
 * the page starts among all of them, and `nextCursor` where the next one does (0: none left). The
 * filters apply within the page, so a page may hold fewer than `TRADE_OFFERS_PAGE`, or none, while
 * more follow; the libraries read on until the cursor is 0.
 */
export async function viewerOffers(
  ctx: DomainContext,
  viewer: string,
  filter: {
    sent: boolean;
    received: boolean;
    activeOnly: boolean;
    historicalOnly: boolean;
    cutoff: Date | undefined;
  },
  cursor = 0,
): Promise<{ sent: PlatformTradeOffer[]; received: PlatformTradeOffer[]; nextCursor: number }> {
  const page = await listOffers(ctx, viewer, { limit: TRADE_OFFERS_PAGE + 1, offset: cursor });
  const more = page.length > TRADE_OFFERS_PAGE;
  const offers = page.slice(0, TRADE_OFFERS_PAGE).filter((offer) => {
    const active = offer.state === "active";
    if (filter.historicalOnly && active) return false;
    // active_only: the active ones, and those changed since the cutoff (Steam's own rule).
    if (filter.activeOnly && !active && !(filter.cutoff && offer.updatedAt >= filter.cutoff)) return false;
    return true;
  });
  return {
    sent: filter.sent ? offers.filter((offer) => offer.sender === viewer) : [],
    received: filter.received ? offers.filter((offer) => offer.receiver === viewer) : [],
    nextCursor: more ? cursor + TRADE_OFFERS_PAGE : 0,
  };
}

function seconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}
