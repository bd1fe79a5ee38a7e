// The parts of steamcommunity and steam-tradeoffer-manager that the Steam face's tests drive, as
// the libraries' own sources define them (their DefinitelyTyped packages disagree with the
// sources: callbacks without their results, an option typed as the wrong thing).

declare module "steamcommunity" {
  import type { CoreOptions, Request, RequestAPI, RequiredUriUrl } from "request";

  class SteamCommunity {
    constructor(options?: { request?: RequestAPI<Request, CoreOptions, RequiredUriUrl> });
    setCookies(cookies: string[]): void;
    /** A GET on the library's own session (its cookies, its `request`). */
    httpRequestGet(
      options: { uri: string; qs?: Record<string, string>; json?: boolean },
      callback: (error: Error | null, response: { statusCode: number }, body: unknown) => void,
    ): void;
    getUserInventoryContents(
      steamid: string,
      appid: number,
      contextid: number,
      tradableOnly: boolean,
      language: string,
      callback: (error: Error | null, inventory: unknown[], currency: unknown[], totalCount: number) => void,
    ): void;
    getTradeURL(callback: (error: Error | null, url: string, token: string) => void): void;
    acknowledgeTradeProtection(callback: (error: Error | null) => void): void;
    getWebApiKey(domain: string, callback: (error: Error | null, key: string) => void): void;
    createWebApiKey(
      options: { domain: string },
      callback: (error: Error | null, result: { confirmationRequired: boolean; apiKey?: string }) => void,
    ): void;
    acceptConfirmationForObject(
      identitySecret: string,
      objectId: string,
      callback: (error: Error | null) => void,
    ): void;
    getConfirmations(
      time: number,
      key: { tag: string; key: string },
      callback: (error: Error | null, confirmations: SteamCommunity.Confirmation[]) => void,
    ): void;
    getConfirmationOfferID(
      id: string,
      time: number,
      key: string,
      callback: (error: Error | null, offerId: string | null) => void,
    ): void;
    respondToConfirmation(
      ids: string | string[],
      nonces: string | string[],
      time: number,
      key: { tag: string; key: string },
      accept: boolean,
      callback: (error: Error | null) => void,
    ): void;
  }
  namespace SteamCommunity {
    interface Confirmation {
      id: string;
      type: number;
      creator: string;
      key: string;
      title: string;
    }
  }
  export = SteamCommunity;
}

declare module "steam-tradeoffer-manager" {
  import type { EventEmitter } from "node:events";
  type ExchangeDetailsCallback = (
    error: Error | null,
    status: number,
    tradeInitTime: Date,
    received: ExchangedItem[],
    given: ExchangedItem[],
  ) => void;

  import type SteamCommunity from "steamcommunity";

  interface OfferItem {
    appid: number;
    contextid: string | number;
    assetid: string;
  }
  type Callback = (error: (Error & { eresult?: number }) | null) => void;

  class TradeOffer {
    id?: string;
    state: number;
    /** EConfirmationMethod: 0 none, 1 e-mail, 2 the mobile app. */
    confirmationMethod: number | null;
    message: string;
    isOurOffer: boolean;
    itemsToGive: OfferItem[];
    itemsToReceive: OfferItem[];
    addMyItem(item: OfferItem): boolean;
    addTheirItem(item: OfferItem): boolean;
    counter(): TradeOffer;
    setMessage(message: string): void;
    send(callback: (error: (Error & { eresult?: number }) | null, status: string) => void): void;
    accept(callback: (error: (Error & { eresult?: number }) | null, status: string) => void): void;
    cancel(callback: Callback): void;
    decline(callback: Callback): void;
    update(callback: Callback): void;
    getUserDetails(callback: (error: Error | null, me: UserDetails, them: UserDetails) => void): void;
    /** `getDetailsIfFailed`: answer for a trade whose status is not complete (reversed, failed) too. */
    getExchangeDetails(getDetailsIfFailed: boolean, callback: ExchangeDetailsCallback): void;
    getExchangeDetails(callback: ExchangeDetailsCallback): void;
  }

  interface UserDetails {
    personaName: string;
    contexts: Record<string, { rgContexts: Record<string, { asset_count: number }> }>;
    escrowDays: number;
    probation?: boolean;
  }

  interface ExchangedItem {
    assetid: string;
    new_assetid: string;
    classid: string;
    market_hash_name?: string;
  }

  class TradeOfferManager extends EventEmitter {
    constructor(options: {
      community: SteamCommunity;
      pollInterval?: number;
      language?: string;
      domain?: string;
      useAccessToken?: boolean;
    });
    apiKey: string | null;
    static ETradeOfferState: {
      Active: 2;
      Accepted: 3;
      Countered: 4;
      Expired: 5;
      Canceled: 6;
      Declined: 7;
      CreatedNeedsConfirmation: 9;
      CanceledBySecondFactor: 10;
    };
    static EConfirmationMethod: { None: 0; Email: 1; MobileApp: 2 };
    static EOfferFilter: { ActiveOnly: 1; HistoricalOnly: 2; All: 3 };
    setCookies(cookies: string[], callback: Callback): void;
    createOffer(tradeUrl: string): TradeOffer;
    getOffer(id: string, callback: (error: Error | null, offer: TradeOffer) => void): void;
    getOffers(
      filter: number,
      callback: (error: Error | null, sent: TradeOffer[], received: TradeOffer[]) => void,
    ): void;
  }
  export = TradeOfferManager;
}
