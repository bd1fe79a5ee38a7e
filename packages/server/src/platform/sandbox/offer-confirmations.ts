import { createHmac, timingSafeEqual } from "node:crypto";
import { recordAudit } from "../../domain/audit.ts";
import type { DomainContext } from "../../domain/context.ts";
import { fail, ok, type Result } from "../../domain/result.ts";
import { inTransaction, noteNoMarketChange } from "../../domain/transaction.ts";
import { readSteamCredentials } from "./steam-credentials.ts";
import { authenticatorTimes } from "./steam-guard.ts";
import { acceptLockedOffer, respondToOffer } from "./trade-offers.ts";

/**
 * Mobile confirmations (docs/design/steam-face.md#confirmations): an offer sent through the Steam
 * face that gives items waits for its sender's confirmation, and an acceptance through the face
 * that gives the receiver's items waits for the receiver's; the account's authenticator lists,
 * confirms or cancels them with keys made from its `identity_secret`. A confirmation is named by its
 * offer's id (an account never waits on both for one offer) and carries the nonce drawn for it.
 */
export interface PendingConfirmation {
  tradeofferid: string;
  nonce: string;
  /** What is confirmed: sending the offer, or accepting it. */
  kind: "send" | "accept";
  /** The other party of the offer. */
  partner: string;
  itemCount: number;
  createdAt: Date;
}

/** How far a key's time may be from the authenticator's time (docs/design/steam-face.md#time): its clock drifts a little. */
export const CONFIRMATION_KEY_WINDOW_SECONDS = 300;

/**
 * The key is base64(HMAC-SHA1(identity_secret, u64be(time) ‖ tag)), the tag cut at 32 bytes, as
 * the authenticator makes it; refused when it does not match or its time is out of the window.
 */
export async function checkConfirmationKey(
  ctx: DomainContext,
  input: { platformid: string; time: string; tag: string; key: string },
): Promise<Result<void>> {
  const refused = fail("Access Denied", "invalid authenticator: the confirmation key does not match");
  const credentials = await readSteamCredentials(ctx, input.platformid);
  if (!credentials || credentials === "no account" || !/^\d{1,12}$/.test(input.time)) return refused;
  const time = Number(input.time);
  if (authenticatorTimes(ctx.clock).every((now) => Math.abs(time - now) > CONFIRMATION_KEY_WINDOW_SECONDS))
    return refused;
  const data = Buffer.alloc(8);
  data.writeBigUInt64BE(BigInt(time));
  const expected = createHmac("sha1", Buffer.from(credentials.identitySecret, "base64"))
    .update(Buffer.concat([data, Buffer.from(input.tag, "utf8").subarray(0, 32)]))
    .digest();
  const given = Buffer.from(input.key, "base64");
  return given.length === expected.length && timingSafeEqual(given, expected) ? ok(undefined) : refused;
}

/** The account's offers and acceptances waiting for its confirmation, newest first. */
export async function pendingConfirmations(
  ctx: DomainContext,
  platformid: string,
): Promise<PendingConfirmation[]> {
  const rows = await ctx.db
    .selectFrom("sandbox_trade_offers")
    .select([
      "tradeofferid",
      "sender",
      "receiver",
      "confirmation_nonce",
      "acceptance_nonce",
      "assetids",
      "created_at",
      "updated_at",
    ])
    .where((eb) =>
      eb.or([
        eb.and([eb("sender", "=", platformid), eb("confirmation_nonce", "is not", null)]),
        eb.and([eb("receiver", "=", platformid), eb("acceptance_nonce", "is not", null)]),
      ]),
    )
    .where("state", "=", "active")
    .where("expires_at", ">", ctx.clock.now())
    .orderBy("tradeofferid", "desc")
    .execute();
  return rows.map((row) => {
    const sending = row.sender === platformid;
    return {
      tradeofferid: String(row.tradeofferid),
      nonce: (sending ? row.confirmation_nonce : row.acceptance_nonce) ?? "",
      kind: sending ? "send" : "accept",
      partner: sending ? row.receiver : row.sender,
      itemCount: row.assetids.length,
      // An acceptance's confirmation is made when the receiver accepts.
      createdAt: sending ? row.created_at : row.updated_at,
    };
  });
}

/**
 * Confirms or cancels the named confirmations, all or none: each must be the account's, still
 * waiting, and carry its own nonce. A confirmed offer is seen by its receiver from then on (a
 * receiver that accepts every offer at once, `auto_accept`, accepts it then); a cancelled one ends
 * cancelled. A confirmed acceptance moves the items in the same transaction; a cancelled one ends
 * the offer declined, keeping its nonce (Steam's CanceledBySecondFactor).
 */
export async function answerConfirmations(
  ctx: DomainContext,
  input: { platformid: string; confirmations: Array<{ id: string; nonce: string }>; accept: boolean },
): Promise<Result<void>> {
  if (input.confirmations.length === 0 || input.confirmations.some((each) => !/^\d{1,15}$/.test(each.id)))
    return fail("Invalid Argument", "cid: give the ids of the confirmations");
  const answered = await inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    const now = tx.clock.now();
    const autoAccepted: Array<{ receiver: string; id: string }> = [];
    for (const { id, nonce } of input.confirmations) {
      const acceptance = await answerAcceptance(
        tx,
        { platformid: input.platformid, id, nonce },
        input.accept,
      );
      if (acceptance === "answered") continue;
      const row = await tx.db
        .updateTable("sandbox_trade_offers")
        .set(
          input.accept
            ? { confirmation_nonce: null, updated_at: now }
            : { state: "cancelled", updated_at: now },
        )
        .where("tradeofferid", "=", Number(id))
        .where("sender", "=", input.platformid)
        .where("state", "=", "active")
        .where("expires_at", ">", now)
        .where("confirmation_nonce", "=", nonce)
        .returning("receiver")
        .executeTakeFirst();
      if (!row) return fail("Invalid State", `confirmation ${id} is not waiting for this account`);
      await recordAudit(tx, {
        action: input.accept ? "platform.offer.confirmed" : "platform.offer.cancelled",
        subject: `offer:${id}`,
      });
      const receiver = await tx.db
        .selectFrom("sandbox_platform_accounts")
        .select("auto_accept")
        .where("platformid", "=", row.receiver)
        .executeTakeFirst();
      if (input.accept && receiver?.auto_accept) autoAccepted.push({ receiver: row.receiver, id });
    }
    return ok(autoAccepted);
  });
  if (!answered.ok) return answered;
  for (const { receiver, id } of answered.value)
    await respondToOffer(ctx, { platformid: receiver, tradeofferid: id, accept: true });
  return ok(undefined);
}

/**
 * The receiver's confirmation of its acceptance, if `id` names one of the account's that carries
 * `nonce`: allowed, the offer is accepted now; cancelled, it ends declined.
 */
async function answerAcceptance(
  ctx: DomainContext,
  confirmation: { platformid: string; id: string; nonce: string },
  accept: boolean,
): Promise<"answered" | "none"> {
  const now = ctx.clock.now();
  const row = await ctx.db
    .selectFrom("sandbox_trade_offers")
    .selectAll()
    .where("tradeofferid", "=", Number(confirmation.id))
    .where("receiver", "=", confirmation.platformid)
    .where("state", "=", "active")
    .where("expires_at", ">", now)
    .where("acceptance_nonce", "=", confirmation.nonce)
    .forUpdate()
    .executeTakeFirst();
  if (!row) return "none";
  if (accept) {
    await acceptLockedOffer(ctx, row);
    return "answered";
  }
  await ctx.db
    .updateTable("sandbox_trade_offers")
    .set({ state: "declined", updated_at: now })
    .where("tradeofferid", "=", row.tradeofferid)
    .execute();
  await recordAudit(ctx, { action: "platform.offer.declined", subject: `offer:${confirmation.id}` });
  return "answered";
}
