import type { Fen } from "@skinmarket/contract";
import type { DomainContext } from "../context.ts";
import type { Result } from "../result.ts";
import type {
  CookieState,
  KeychainRow,
  OfferItemsFrom,
  StickerRow,
  TradeOfferState,
} from "../../storage/schema.ts";

/**
 * The game platform as the marketplace needs it (docs/design/platform-and-sandbox.md#the-platform): inventories, session
 * cookies, account setup and trade offers. The sandbox implementation keeps its world in our
 * database, so its calls join the caller's transaction; a real-platform adapter would make HTTP
 * calls behind the same port.
 */
export interface GamePlatform {
  /** The current holders and attributes of these items (items that changed hands are absent). */
  findAssets(
    ctx: DomainContext,
    input: { assetids: string[] },
  ): Promise<Array<PlatformAsset & { platformid: string }>>;
  /** Whether the platform has this account at all. */
  accountExists(ctx: DomainContext, input: { platformid: string }): Promise<boolean>;
  /** The account's items; without cookies only a public inventory can be read. */
  readInventory(
    ctx: DomainContext,
    input: { platformid: string; cookies?: PlatformCookie[] },
  ): Promise<Result<PlatformAsset[]>>;
  /** Whether uploaded cookies are a live session of this account. */
  validateSession(
    ctx: DomainContext,
    input: { platformid: string; cookies: PlatformCookie[] },
  ): Promise<CookieState>;
  publishInventory(ctx: DomainContext, input: SessionInput): Promise<Result<{ inventoryPublic: true }>>;
  getTradeUrl(ctx: DomainContext, input: SessionInput): Promise<Result<{ tradeUrl: string }>>;
  registerApiKey(ctx: DomainContext, input: SessionInput): Promise<Result<{ apiKey: string }>>;
  /**
   * Sends the sender's items to the owner of `tradeUrl`, or, with `itemsFrom` `receiver`, asks
   * that owner for theirs (a buyer's offer for what they bought).
   */
  createTradeOffer(
    ctx: DomainContext,
    input: SessionInput & {
      tradeUrl: string;
      assetids: string[];
      itemsFrom?: OfferItemsFrom;
      message?: string;
    },
  ): Promise<Result<PlatformTradeOffer>>;
  getTradeOffer(ctx: DomainContext, input: { tradeofferid: string }): Promise<Result<PlatformTradeOffer>>;
  /**
   * The newest offer, active or accepted, in which `sender` gives `assetid` to `receiver`: how the
   * marketplace learns of an offer a seller's own bot sent on the platform.
   */
  findOfferOfItem(
    ctx: DomainContext,
    input: { sender: string; receiver: string; assetid: string },
  ): Promise<PlatformTradeOffer | undefined>;
  cancelTradeOffer(
    ctx: DomainContext,
    input: { platformid: string; tradeofferid: string },
  ): Promise<Result<PlatformTradeOffer>>;
  /** The receiving side's answer: accept moves the items, decline does not. */
  respondToTradeOffer(
    ctx: DomainContext,
    input: { platformid: string; tradeofferid: string; accept: boolean },
  ): Promise<Result<PlatformTradeOffer>>;
  /**
   * The goods' reference prices on the platform's own market (Steam's Community Market: its lowest
   * ask), in fen; a goods the platform's market does not price is absent
   * (docs/design/steam-face.md#market-prices).
   */
  marketPrices(ctx: DomainContext, input: { goodsIds: readonly number[] }): Promise<Map<number, Fen>>;
}

export interface SessionInput {
  platformid: string;
  cookies: PlatformCookie[];
}

/** One cookie as uploaded through `platform/cookie` (reference: Authentication 4). */
export interface PlatformCookie {
  domain: string;
  key: string;
  value: string;
}

export interface PlatformAsset {
  assetid: string;
  classid: string;
  instanceid: string;
  goodsId: number;
  /** Full-precision decimal string; null for items without wear. */
  paintwear: string | null;
  paintseed: number | null;
  paintindex: number | null;
  stickers: StickerRow[];
  keychains: KeychainRow[];
  /** The name tag, in the platform's `fraudwarnings` form. */
  nametag: string | null;
  /** End of the trade cooldown; null when tradable. */
  tradableAfter: Date | null;
  acquiredAt: Date;
  inspectUrl: string | null;
}

export interface PlatformTradeOffer {
  tradeofferid: string;
  sender: string;
  receiver: string;
  assetids: string[];
  /** Whose items `assetids` are: the sender gives them, or asks the receiver for them. */
  itemsFrom: OfferItemsFrom;
  state: TradeOfferState;
  message: string;
  createdAt: Date;
  updatedAt: Date;
  expiresAt: Date;
  /** An accepted offer's end of trade protection: the platform reverses its trade only before it. */
  reversibleUntil: Date | null;
  /** After acceptance: each sent assetid and the new assetid it has on the receiving side. */
  receivedAssetids?: Record<string, string>;
}

export type { CookieState };
