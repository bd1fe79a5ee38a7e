import { randomBytes } from "node:crypto";
import { sql, type Selectable } from "kysely";
import { recordAudit } from "../../domain/audit.ts";
import { requirePlatformUp } from "./platform-fault.ts";
import { withdrawListingsOfItems } from "../../domain/listings/withdraw-listings-of-items.ts";
import type { DomainContext } from "../../domain/context.ts";
import { fail, invalidArgument, ok, type Result } from "../../domain/result.ts";
import { inTransaction, noteNoMarketChange } from "../../domain/transaction.ts";
import type { OfferItemsFrom, SandboxTradeOffersTable } from "../../storage/schema.ts";
import type { PlatformTradeOffer } from "../../domain/platform/game-platform.ts";
import { parseTradeUrl } from "../../domain/platform/trade-url.ts";
import { requirePlatformAccount } from "./require-platform-account.ts";

/**
 * Trade offers on the sandbox platform: `active` until the receiver accepts or declines, the
 * sender cancels, or it expires. An offer gives the sender's items (`items_from` `sender`) or asks
 * for the receiver's (`receiver`: a buyer's offer for the items they bought). Accepting moves each
 * item to the other side under a new assetid and starts a trade cooldown there.
 */
export const OFFER_LIFETIME_MS = 12 * 3600 * 1000;
export const TRADE_COOLDOWN_MS = 7 * 24 * 3600 * 1000;

type OfferRow = Selectable<SandboxTradeOffersTable>;

export function toPlatformOffer(row: OfferRow, received?: Record<string, string>): PlatformTradeOffer {
  return {
    tradeofferid: String(row.tradeofferid),
    sender: row.sender,
    receiver: row.receiver,
    assetids: row.assetids.map(String),
    itemsFrom: row.items_from,
    state: row.state,
    message: row.message,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    expiresAt: row.expires_at,
    reversibleUntil: row.reversible_until,
    ...(received ? { receivedAssetids: received } : {}),
  };
}

export interface CreateOfferInput {
  sender: string;
  tradeUrl: string;
  assetids: string[];
  /** Whose items these are; the sender's when absent. */
  itemsFrom?: OfferItemsFrom;
  message?: string;
  /**
   * The sender confirms the offer on the mobile authenticator before the receiver sees it, as on
   * Steam (offers sent through the Steam face that give items; docs/design/steam-face.md#confirmations).
   */
  awaitingConfirmation?: boolean;
  /**
   * The id of an active offer the sender received from this partner and answers with this one
   * (Steam's `tradeofferid_countered`): it ends countered, and this offer needs no trade token.
   */
  counters?: string;
}

/** The account whose items an offer moves. */
function holderOf(row: { sender: string; receiver: string; items_from: OfferItemsFrom }): string {
  return row.items_from === "sender" ? row.sender : row.receiver;
}

export async function createOffer(
  ctx: DomainContext,
  input: CreateOfferInput,
): Promise<Result<PlatformTradeOffer>> {
  const up = await requirePlatformUp(ctx);
  if (!up.ok) return up;
  const target = parseTradeUrl(input.tradeUrl, { tokenOptional: input.counters !== undefined });
  if (!target)
    return invalidArgument(
      "trade_url",
      "not a trade URL of the form https://steamcommunity.com/tradeoffer/new/?partner=...&token=...",
    );
  if (input.assetids.length === 0 || input.assetids.length > 256)
    return invalidArgument("assetids", "give 1 to 256 items");
  if (new Set(input.assetids).size !== input.assetids.length)
    return invalidArgument("assetids", "an item is listed twice");
  if (input.assetids.some((assetid) => !/^\d{1,18}$/.test(assetid)))
    return invalidArgument("assetids", "must be numeric strings");
  if (input.counters !== undefined) await expireIfDue(ctx, input.counters);
  const offer = await inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    const sender = await requirePlatformAccount(tx, input.sender);
    if (!sender.ok) return sender;
    // The countered offer ends first, so that its items are free for the counter-offer.
    const countered =
      input.counters === undefined
        ? undefined
        : await endCounteredOffer(tx, input.counters, input.sender, target.platformid);
    if (countered && !countered.ok) return countered;
    const receiver = await requirePlatformAccount(tx, target.platformid);
    if (!receiver.ok || (receiver.value.trade_token !== target.token && !countered)) {
      return fail("Invalid State", "the trade URL is not valid any more (unknown partner or wrong token)");
    }
    if (target.platformid === input.sender)
      return invalidArgument("trade_url", "an account cannot trade with itself");
    const assetids = input.assetids.map(Number);
    const itemsFrom = input.itemsFrom ?? "sender";
    const holder = itemsFrom === "sender" ? input.sender : target.platformid;
    const available = await lockTradableAssets(tx, holder, assetids, itemsFrom);
    if (!available.ok) return available;
    const now = tx.clock.now();
    const row = await tx.db
      .insertInto("sandbox_trade_offers")
      .values({
        tradeofferid: sql<number>`nextval('sandbox_tradeofferid_seq')`,
        sender: input.sender,
        receiver: target.platformid,
        assetids: JSON.stringify(assetids),
        items_from: itemsFrom,
        message: input.message ?? "",
        state: "active",
        created_at: now,
        updated_at: now,
        expires_at: new Date(now.getTime() + OFFER_LIFETIME_MS),
        confirmation_nonce: input.awaitingConfirmation ? newConfirmationNonce() : null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    if (countered)
      await tx.db
        .updateTable("sandbox_trade_offers")
        .set({ countered_by: row.tradeofferid })
        .where("tradeofferid", "=", countered.value.tradeofferid)
        .execute();
    await recordAudit(tx, {
      action: "platform.offer.create",
      subject: `offer:${row.tradeofferid}`,
      details: {
        sender: row.sender,
        receiver: row.receiver,
        assetids,
        items_from: itemsFrom,
        ...(countered ? { counters: countered.value.tradeofferid } : {}),
      },
    });
    return ok({ row, autoAccept: receiver.value.auto_accept && !input.awaitingConfirmation });
  });
  if (!offer.ok) return offer;
  if (offer.value.autoAccept)
    return respondToOffer(ctx, {
      platformid: offer.value.row.receiver,
      tradeofferid: String(offer.value.row.tradeofferid),
      accept: true,
    });
  return ok(toPlatformOffer(offer.value.row));
}

/**
 * The holder (the sender, or the receiver of an offer asking for their items) still holds every
 * item, none is in cooldown, and none is already promised in another active offer, whichever way
 * that offer goes. Rows are locked so that two offers cannot take the same item.
 */
async function lockTradableAssets(
  ctx: DomainContext,
  holder: string,
  assetids: number[],
  side: OfferItemsFrom,
): Promise<Result<void>> {
  const held = await ctx.db
    .selectFrom("sandbox_assets")
    .select(["assetid", "tradable_after"])
    .where("platformid", "=", holder)
    .where("assetid", "in", assetids)
    .where("traded_to_assetid", "is", null)
    .orderBy("assetid")
    .forUpdate()
    .execute();
  const now = ctx.clock.now();
  for (const assetid of assetids) {
    const asset = held.find((row) => row.assetid === assetid);
    if (!asset) return fail("Invalid State", `item ${assetid} is not in the ${side}'s inventory`);
    if (asset.tradable_after && asset.tradable_after > now) {
      return fail(
        "Invalid State",
        `item ${assetid} is in trade cooldown until ${asset.tradable_after.toISOString()}`,
      );
    }
  }
  const promised = await sql<{ assetid: string }>`
    SELECT a.value AS assetid FROM sandbox_trade_offers o, jsonb_array_elements_text(o.assetids) a
    WHERE CASE o.items_from WHEN 'sender' THEN o.sender ELSE o.receiver END = ${holder}
      AND o.state = 'active' AND o.expires_at > ${now}
      AND a.value = ANY(${assetids.map(String)}::text[])
    LIMIT 1
  `.execute(ctx.db);
  if (promised.rows[0])
    return fail("Invalid State", `item ${promised.rows[0].assetid} is already in an active trade offer`);
  return ok(undefined);
}

/**
 * A counter-offer's original: active, received by the counter's sender from its receiver. It
 * ends `declined` (for the marketplace its receiver did not accept it; the face reads it as
 * Steam's Countered through `countered_by`).
 */
async function endCounteredOffer(
  ctx: DomainContext,
  tradeofferid: string,
  sender: string,
  partner: string,
): Promise<Result<OfferRow>> {
  const original = await lockActiveOffer(ctx, tradeofferid, { receiver: sender });
  if (!original.ok) return original;
  if (original.value.sender !== partner)
    return invalidArgument("tradeofferid_countered", "the countered offer is not one from this partner");
  const ended = await settle(ctx, original.value, "declined");
  await recordAudit(ctx, { action: "platform.offer.countered", subject: `offer:${tradeofferid}` });
  return ok(ended);
}

async function lockOffer(ctx: DomainContext, tradeofferid: string): Promise<Result<OfferRow>> {
  if (!/^\d{1,18}$/.test(tradeofferid))
    return fail("Not Found", `trade offer ${tradeofferid} does not exist`);
  const row = await ctx.db
    .selectFrom("sandbox_trade_offers")
    .selectAll()
    .where("tradeofferid", "=", Number(tradeofferid))
    .forUpdate()
    .executeTakeFirst();
  return row ? ok(row) : fail("Not Found", `trade offer ${tradeofferid} does not exist`);
}

/** The `ck` of a mobile confirmation, as Steam's are: a random unsigned 64-bit number. */
function newConfirmationNonce(): string {
  return randomBytes(8).readBigUInt64BE().toString();
}

async function settle(
  ctx: DomainContext,
  row: OfferRow,
  state: OfferRow["state"],
  now = ctx.clock.now(),
): Promise<OfferRow> {
  // An accepted offer's trade stays reversible for the protection window (Steam's trade protection).
  const reversibleUntil =
    state === "accepted" ? new Date(now.getTime() + ctx.rules.tradeProtectionHours * 3600 * 1000) : null;
  const updated = await ctx.db
    .updateTable("sandbox_trade_offers")
    // An acceptance waiting for its confirmation ends with the offer.
    .set({ state, updated_at: now, reversible_until: reversibleUntil, acceptance_nonce: null })
    .where("tradeofferid", "=", row.tradeofferid)
    .returningAll()
    .executeTakeFirstOrThrow();
  await recordAudit(ctx, { action: `platform.offer.${state}`, subject: `offer:${row.tradeofferid}` });
  return updated;
}

/**
 * The offer, locked, if it is active and the account is its receiver (or sender); an offer of
 * other accounts answers like an unknown one.
 */
async function lockActiveOffer(
  ctx: DomainContext,
  tradeofferid: string,
  party: { receiver: string } | { sender: string },
): Promise<Result<OfferRow>> {
  const locked = await lockOffer(ctx, tradeofferid);
  if (!locked.ok) return locked;
  // An offer waiting for its sender's confirmation is not yet the receiver's to see.
  const own =
    "receiver" in party
      ? locked.value.receiver === party.receiver && locked.value.confirmation_nonce === null
      : locked.value.sender === party.sender;
  if (!own) return fail("Not Found", `trade offer ${tradeofferid} does not exist`);
  return activeOffer(locked.value);
}

function activeOffer(row: OfferRow): Result<OfferRow> {
  if (row.state === "expired") return fail("Invalid State", `trade offer ${row.tradeofferid} has expired`);
  if (row.state !== "active") return fail("Invalid State", `trade offer ${row.tradeofferid} is ${row.state}`);
  return ok(row);
}

/**
 * An active offer whose time has passed is expired by whoever looks at it first, in a transaction
 * of its own: the answer to the caller is a refusal, and a refusal rolls its own transaction back.
 */
async function expireIfDue(ctx: DomainContext, tradeofferid: string): Promise<void> {
  if (!/^\d{1,15}$/.test(tradeofferid)) return;
  await inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    const now = tx.clock.now();
    const expired = await tx.db
      .updateTable("sandbox_trade_offers")
      .set({ state: "expired", updated_at: now })
      .where("tradeofferid", "=", Number(tradeofferid))
      .where("state", "=", "active")
      .where("expires_at", "<=", now)
      .returning("tradeofferid")
      .executeTakeFirst();
    if (expired)
      await recordAudit(tx, { action: "platform.offer.expired", subject: `offer:${tradeofferid}` });
    return ok(undefined);
  });
}

export interface RespondToOfferInput {
  platformid: string;
  tradeofferid: string;
  accept: boolean;
  /**
   * An acceptance that gives the receiver's items waits for the receiver's mobile confirmation, as
   * on Steam (acceptances through the Steam face; docs/design/steam-face.md#confirmations): the
   * offer stays active and the answer is that active offer.
   */
  confirmOnDevice?: boolean;
}

export async function respondToOffer(
  ctx: DomainContext,
  input: RespondToOfferInput,
): Promise<Result<PlatformTradeOffer>> {
  const up = await requirePlatformUp(ctx);
  if (!up.ok) return up;
  await expireIfDue(ctx, input.tradeofferid);
  return inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    const offer = await lockActiveOffer(tx, input.tradeofferid, { receiver: input.platformid });
    if (!offer.ok) return offer;
    if (!input.accept) return ok(toPlatformOffer(await settle(tx, offer.value, "declined")));
    if (input.confirmOnDevice && offer.value.items_from === "receiver")
      return ok(toPlatformOffer(await awaitAcceptanceConfirmation(tx, offer.value)));
    return acceptLockedOffer(tx, offer.value);
  });
}

/** The acceptance waits for the receiver's confirmation; accepting again keeps the one it waits for. */
async function awaitAcceptanceConfirmation(ctx: DomainContext, row: OfferRow): Promise<OfferRow> {
  if (row.acceptance_nonce !== null) return row;
  const updated = await ctx.db
    .updateTable("sandbox_trade_offers")
    .set({ acceptance_nonce: newConfirmationNonce(), updated_at: ctx.clock.now() })
    .where("tradeofferid", "=", row.tradeofferid)
    .returningAll()
    .executeTakeFirstOrThrow();
  await recordAudit(ctx, { action: "platform.offer.accepting", subject: `offer:${row.tradeofferid}` });
  return updated;
}

/**
 * Accepts an active offer locked by the caller's transaction: the items move, or, when one is
 * gone, the offer ends cancelled (as Steam's item server ends it).
 */
export async function acceptLockedOffer(
  ctx: DomainContext,
  row: OfferRow,
): Promise<Result<PlatformTradeOffer>> {
  const available = await checkStillHeld(ctx, holderOf(row), row.assetids);
  if (!available.ok) {
    await settle(ctx, row, "cancelled");
    return ok(toPlatformOffer({ ...row, state: "cancelled" }));
  }
  // One moment for the whole acceptance: the items' cooldown runs from the offer's answer.
  const now = ctx.clock.now();
  const received = await moveAssets(ctx, row, now);
  return ok(toPlatformOffer(await settle(ctx, row, "accepted", now), received));
}

async function checkStillHeld(ctx: DomainContext, sender: string, assetids: number[]): Promise<Result<void>> {
  const held = await ctx.db
    .selectFrom("sandbox_assets")
    .select("assetid")
    .where("platformid", "=", sender)
    .where("assetid", "in", assetids)
    .where("traded_to_assetid", "is", null)
    .forUpdate()
    .execute();
  return held.length === assetids.length
    ? ok(undefined)
    : fail("Invalid State", "an item of the offer is gone");
}

/**
 * Each item leaves its holder and arrives at the other side under a new assetid, in cooldown; the
 * holder's listings of them on the marketplace are withdrawn.
 */
async function moveAssets(ctx: DomainContext, offer: OfferRow, now: Date): Promise<Record<string, string>> {
  const received: Record<string, string> = {};
  const destination = offer.items_from === "sender" ? offer.receiver : offer.sender;
  for (const assetid of offer.assetids) {
    const moved = await sql<{ assetid: number }>`
      INSERT INTO sandbox_assets (assetid, platformid, goods_id, classid, instanceid, paintwear, paintseed, paintindex,
        stickers, keychains, nametag, tradable_after, acquired_at, traded_from_assetid)
      SELECT nextval('sandbox_assetid_seq'), ${destination}, goods_id, classid, instanceid, paintwear, paintseed,
        paintindex, stickers, keychains, nametag, ${new Date(now.getTime() + TRADE_COOLDOWN_MS)}, ${now}, assetid
      FROM sandbox_assets WHERE assetid = ${assetid}
      RETURNING assetid
    `.execute(ctx.db);
    const newAssetid = moved.rows[0]!.assetid;
    await ctx.db
      .updateTable("sandbox_assets")
      .set({ traded_to_assetid: newAssetid })
      .where("assetid", "=", assetid)
      .execute();
    received[String(assetid)] = String(newAssetid);
  }
  // The marketplace learns in the same transaction that these items left the holder's account.
  await withdrawListingsOfItems(ctx, offer.assetids);
  return received;
}

export async function cancelOffer(
  ctx: DomainContext,
  input: { platformid: string; tradeofferid: string },
): Promise<Result<PlatformTradeOffer>> {
  const up = await requirePlatformUp(ctx);
  if (!up.ok) return up;
  await expireIfDue(ctx, input.tradeofferid);
  return inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    const offer = await lockActiveOffer(tx, input.tradeofferid, { sender: input.platformid });
    if (!offer.ok) return offer;
    return ok(toPlatformOffer(await settle(tx, offer.value, "cancelled")));
  });
}

/** The job: active offers past their expiry become `expired`. */
export async function expireTradeOffers(ctx: DomainContext): Promise<number> {
  const now = ctx.clock.now();
  const expired = await ctx.db
    .updateTable("sandbox_trade_offers")
    .set({ state: "expired", updated_at: now })
    .where("state", "=", "active")
    .where("expires_at", "<=", now)
    .executeTakeFirst();
  return Number(expired.numUpdatedRows);
}
