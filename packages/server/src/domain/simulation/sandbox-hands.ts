import type { DomainContext } from "../context.ts";
import type { Fen } from "@skinmarket/contract";
import type { Result } from "../result.ts";

/**
 * What the simulator needs from the sandbox platform, passed in by whoever starts it (the domain
 * reaches the sandbox's own modules only through ports: docs/design/architecture.md#layout-and-the-rules-between-parts). Every call is
 * the sandbox verb its API route calls, with the caller's context.
 */
export interface SandboxHands {
  /** A platform account bound to the user, its cookies uploaded and setup run. */
  createReadyAccount(
    admin: DomainContext,
    user: DomainContext,
    userId: number,
  ): Promise<Result<{ platformid: string }>>;
  /** New items of one goods in a platform account (the sandbox's grant). */
  grantItems(
    admin: DomainContext,
    input: { platformid: string; goodsId: number; count: number },
  ): Promise<Result<void>>;
  /**
   * Items the account holds that could be listed now: tradable, committed to nothing, of these
   * goods; oldest first (`assetid`).
   */
  listableAssets(
    ctx: DomainContext,
    input: { platformid: string; goodsIds: readonly number[]; limit: number },
  ): Promise<Array<{ assetid: string; goodsId: number }>>;
  /** Offers to this account still waiting for an answer, oldest first. */
  incomingOffers(ctx: DomainContext, platformid: string): Promise<string[]>;
  /** Ends every session cookie the platform issued for the account (the sandbox's cookie expiry). */
  expireCookies(admin: DomainContext, platformid: string): Promise<Result<unknown>>;
  /** The account's owner signs in again: fresh cookies from the platform, uploaded as the user would. */
  signInAgain(admin: DomainContext, user: DomainContext, platformid: string): Promise<Result<unknown>>;
  /** The platform's fault switch: down (inventories and offers fail) or up. */
  setPlatformDown(admin: DomainContext, down: boolean): Promise<Result<unknown>>;
  /** The platform reverses a delivered trade (item and money back; `rollback_by`). */
  rollbackTrade(admin: DomainContext, tradeId: number): Promise<Result<unknown>>;
  /** The receiver accepts the offer (the sandbox's `respondToOffer`). */
  acceptOffer(
    user: DomainContext,
    input: { platformid: string; tradeofferid: string },
  ): Promise<Result<unknown>>;
  /** The sandbox Steam market's reference prices of these goods (absent: none yet). */
  steamMarketPrices(ctx: DomainContext, goodsIds: readonly number[]): Promise<Map<number, Fen>>;
  /** Sets the sandbox Steam market's prices and 24-hour volumes, and today's history points. */
  recordSteamMarketPrices(
    ctx: DomainContext,
    points: ReadonlyArray<{ goodsId: number; price: Fen; volume: number }>,
  ): Promise<void>;
}
