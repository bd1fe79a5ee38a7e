import {
  addBookmark,
  listBookmarks,
  getBuffPriceHistory,
  getBuffPriceHistoryV2,
  getPopularSellOrders,
  listBuyingGoods,
  searchSuggest,
  askSellerToSendOffer,
  buyGoods,
  getBillOrderBatch,
  listBoughtItems,
  notifyBuyerToSendOffer,
  previewGoodsBuy,
  cancelWebBuyOrders,
  cancelWebPurchase,
  cancelWebSellOrders,
  changeWebSellOrders,
  createWebBuyOrder,
  listWebBuyOrders,
  createWebSellOrders,
  getWebBackpack,
  getWebInventory,
  getWebOnSale,
  getWebSellHistory,
  type OperationBody,
  getBillOrders,
  getBriefAsset,
  getBuyOrderBook,
  getBuyOrderDepth,
  getPaintwearRank,
  getGoodsInfo,
  getGoodsSellOrders,
  getNotification,
  getPriceHistory,
  getSalesToDeliver,
  sellerSendOffer,
  buyerSendOffer,
  setForceBuyerSendOffer,
  getInspectSkins,
  getSteamTrades,
  getUserInfo,
  listCatalogGoods,
  login,
  logout,
  completeSteamSignIn,
  startSteamSignIn,
  removeBookmark,
  setBookmarkAlert,
  type OperationQuery,
  type OperationResponse,
} from "@skinmarket/contract";
import type { TransportOptions } from "./transport.ts";
import { WebSession } from "./web-session.ts";
import { AccountClient } from "./account-client.ts";

/** The website's routes: sign-in (keeping the `session` cookie between calls) and market pages. */
export class WebClient {
  readonly #web: WebSession;
  /** Sign-up, address confirmation, the sign-in history and closing, on this client's session. */
  readonly account: AccountClient;

  constructor(options: TransportOptions) {
    this.#web = new WebSession(options);
    this.account = new AccountClient(this.#web);
  }

  get signedIn(): boolean {
    return this.#web.signedIn;
  }

  async login(nickname: string, password: string): Promise<OperationResponse<typeof login>> {
    return this.#web.open(login, { body: { nickname, password } });
  }

  /** Steam's OpenID URL to send a browser to; Steam returns it to the site's sign-in page. */
  async startSteamSignIn(): Promise<OperationResponse<typeof startSteamSignIn>> {
    return this.#web.call(startSteamSignIn);
  }

  /**
   * Signs in with the `openid.*` parameters Steam returned (the query of the sign-in page it sent
   * the browser back to), keeping the session it sets; the first one makes the account.
   */
  async completeSteamSignIn(
    assertion: Record<string, string>,
  ): Promise<OperationResponse<typeof completeSteamSignIn>> {
    return this.#web.open(completeSteamSignIn, { body: assertion });
  }

  async getUserInfo(): Promise<OperationResponse<typeof getUserInfo>> {
    return this.#web.call(getUserInfo);
  }

  /** The trades the signed-in user must act on now: offers to send or sent as seller, to accept as buyer. */
  async getSteamTrades(): Promise<OperationResponse<typeof getSteamTrades>> {
    return this.#web.call(getSteamTrades);
  }

  /** Notification counts: sales to deliver, offers to send and offers to accept, per game. */
  async getNotification(): Promise<OperationResponse<typeof getNotification>> {
    return this.#web.call(getNotification);
  }

  /** The signed-in user's balances under the real website's names (`cash_amount`, ...). */
  async getBriefAsset(): Promise<OperationResponse<typeof getBriefAsset>> {
    return this.#web.call(getBriefAsset);
  }

  async logout(): Promise<OperationResponse<typeof logout>> {
    return this.#web.close(logout);
  }

  /** The public buy-order book of one goods, best price first, 10 orders a page unless told (up to 80). */
  async getBuyOrderBook(
    goodsId: number,
    pageNum = 1,
    pageSize = 10,
  ): Promise<OperationResponse<typeof getBuyOrderBook>> {
    return this.#web.call(getBuyOrderBook, {
      query: { game: "csgo", goods_id: goodsId, page_num: pageNum, page_size: pageSize },
    });
  }

  /** The public buy-order book summed by price: the best `levels` prices (up to 50) with the units wanted. */
  async getBuyOrderDepth(goodsId: number, levels = 20): Promise<OperationResponse<typeof getBuyOrderDepth>> {
    return this.#web.call(getBuyOrderDepth, { query: { game: "csgo", goods_id: goodsId, levels } });
  }

  /** Each listing's wear rank among the goods' listings on sale (1 = lowest wear), up to 80 listings. */
  async getPaintwearRank(
    goodsId: number,
    sellOrderIds: readonly string[],
  ): Promise<OperationResponse<typeof getPaintwearRank>> {
    return this.#web.call(getPaintwearRank, {
      query: { game: "csgo", goods_id: goodsId, sell_order_ids: sellOrderIds.join(",") },
    });
  }

  /** One goods' details; `bookmarked` is the signed-in user's. */
  async getGoodsInfo(goodsId: number): Promise<OperationResponse<typeof getGoodsInfo>> {
    return this.#web.call(getGoodsInfo, {
      query: { game: "csgo", goods_id: goodsId },
    });
  }

  /** The listings of one goods, 10 a page unless `page_size` says (up to 80), cheapest first unless `sort_by` does. */
  async getGoodsSellOrders(
    goodsId: number,
    options: Partial<Omit<OperationQuery<typeof getGoodsSellOrders>, "game" | "goods_id">> = {},
  ): Promise<OperationResponse<typeof getGoodsSellOrders>> {
    return this.#web.call(getGoodsSellOrders, {
      query: {
        page_num: 1,
        page_size: 10,
        sort_by: "default",
        allow_tradable_cooldown: 1,
        ...options,
        game: "csgo",
        goods_id: goodsId,
      },
    });
  }

  /** The catalog with market figures; anyone may read it (a signed-in session adds its bookmarks). */
  async listCatalogGoods(
    options: Partial<Omit<OperationQuery<typeof listCatalogGoods>, "game">> = {},
  ): Promise<OperationResponse<typeof listCatalogGoods>> {
    return this.#web.call(listCatalogGoods, {
      query: { page_num: 1, page_size: 20, sort_by: "sell_num.desc", ...options, game: "csgo" },
    });
  }

  /** Daily median prices of completed trades over 7, 30 or 180 days. */
  async getPriceHistory(
    goodsId: number,
    days: 7 | 30 | 180 = 30,
  ): Promise<OperationResponse<typeof getPriceHistory>> {
    return this.#web.call(getPriceHistory, {
      query: { game: "csgo", goods_id: goodsId, days },
    });
  }

  /** The finishes of one weapon for the inspect view, by its class name (`weapon_ak47`). */
  async getInspectSkins(weaponName: string): Promise<OperationResponse<typeof getInspectSkins>> {
    return this.#web.call(getInspectSkins, {
      query: { weapon_name: weaponName },
    });
  }

  /** The completed trades of one goods, newest first: the 20 latest, or the page asked for. */
  async getBillOrders(
    goodsId: number,
    page: { page_num?: number; page_size?: number } = {},
  ): Promise<OperationResponse<typeof getBillOrders>> {
    return this.#web.call(getBillOrders, {
      query: {
        game: "csgo",
        goods_id: goodsId,
        page_num: page.page_num ?? 1,
        page_size: page.page_size ?? 20,
      },
    });
  }

  /** Bookmarks a goods or a listing for the signed-in user. */
  async addBookmark(
    type: "goods" | "sell_order",
    id: string,
  ): Promise<OperationResponse<typeof addBookmark>> {
    return this.#web.call(addBookmark, { body: { type, id } });
  }

  /** The signed-in user's bookmarks of one type, newest first. */
  async listBookmarks(
    options: Partial<Omit<OperationQuery<typeof listBookmarks>, "game">> = {},
  ): Promise<OperationResponse<typeof listBookmarks>> {
    return this.#web.call(listBookmarks, {
      query: { game: "csgo", type: "goods", page_num: 1, page_size: 20, ...options },
    });
  }

  /** Removes one of the signed-in user's bookmarks. */
  async removeBookmark(
    type: "goods" | "sell_order",
    id: string,
  ): Promise<OperationResponse<typeof removeBookmark>> {
    return this.#web.call(removeBookmark, {
      body: { type, id },
    });
  }

  /**
   * Sets the price alert of a bookmarked goods: `sell_at` (the lowest listing falls to or below
   * it), `buy_at` (the highest buy order rises to or above it); both null clears it.
   */
  async setBookmarkAlert(
    body: OperationBody<typeof setBookmarkAlert>,
  ): Promise<OperationResponse<typeof setBookmarkAlert>> {
    return this.#web.call(setBookmarkAlert, { body });
  }

  /** The inventory of the signed-in user's bound platform account, each item with its listing. */
  async getWebInventory(
    options: Partial<Omit<OperationQuery<typeof getWebInventory>, "game">> = {},
  ): Promise<OperationResponse<typeof getWebInventory>> {
    return this.#web.call(getWebInventory, {
      query: {
        page_num: 1,
        page_size: 50,
        force: 0,
        sort_by: "time.desc",
        state: "all",
        ...options,
        game: "csgo",
      },
    });
  }

  /** Items the marketplace holds for the user: always none here. */
  async getWebBackpack(pageNum = 1, pageSize = 60): Promise<OperationResponse<typeof getWebBackpack>> {
    return this.#web.call(getWebBackpack, {
      query: { game: "csgo", page_num: pageNum, page_size: pageSize },
    });
  }

  /** The signed-in user's listings on sale, up to 1000 a page. */
  async getWebOnSale(
    options: Partial<Omit<OperationQuery<typeof getWebOnSale>, "game">> = {},
  ): Promise<OperationResponse<typeof getWebOnSale>> {
    return this.#web.call(getWebOnSale, {
      query: { page_num: 1, page_size: 20, sort_by: "updated.desc", ...options, game: "csgo" },
    });
  }

  /** Puts items on sale; `data` maps each assetid to "OK" or why not. */
  async createWebSellOrders(
    assets: OperationBody<typeof createWebSellOrders>["assets"],
  ): Promise<OperationResponse<typeof createWebSellOrders>> {
    return this.#web.call(createWebSellOrders, {
      body: { game: "csgo", assets },
    });
  }

  /** Changes the prices of the user's listings; `data` maps each sell order id to "OK" or why not. */
  async changeWebSellOrders(
    sellOrders: OperationBody<typeof changeWebSellOrders>["sell_orders"],
  ): Promise<OperationResponse<typeof changeWebSellOrders>> {
    return this.#web.call(changeWebSellOrders, {
      body: { game: "csgo", sell_orders: sellOrders },
    });
  }

  /** Takes the user's listings off sale; `data` maps each sell order id to "OK" or why not. */
  async cancelWebSellOrders(sellOrderIds: string[]): Promise<OperationResponse<typeof cancelWebSellOrders>> {
    return this.#web.call(cancelWebSellOrders, {
      body: { game: "csgo", sell_orders: sellOrderIds },
    });
  }

  /** The signed-in user's sales in any state, newest first. */
  async getWebSellHistory(
    options: Partial<Omit<OperationQuery<typeof getWebSellHistory>, "game">> = {},
  ): Promise<OperationResponse<typeof getWebSellHistory>> {
    return this.#web.call(getWebSellHistory, {
      query: { page_num: 1, page_size: 20, ...options, game: "csgo" },
    });
  }

  /** What buying one listing costs and which ways of paying can pay for it (`pay_methods`). */
  async previewGoodsBuy(
    goodsId: number,
    sellOrderId: string,
    price: string,
    allowTradableCooldown: 0 | 1 = 0,
  ): Promise<OperationResponse<typeof previewGoodsBuy>> {
    return this.#web.call(previewGoodsBuy, {
      query: {
        game: "csgo",
        goods_id: goodsId,
        sell_order_id: sellOrderId,
        price,
        allow_tradable_cooldown: allowTradableCooldown,
      },
    });
  }

  /**
   * Buys one listing at the price seen; `pay_method` 3 balance, 101 buy-order funds, 102 wallet,
   * 1 bank card (`WEB_PAY_METHOD_CODES`). Answers the bill order.
   */
  async buyGoods(
    order: Omit<OperationBody<typeof buyGoods>, "game">,
  ): Promise<OperationResponse<typeof buyGoods>> {
    return this.#web.call(buyGoods, {
      body: { ...order, game: "csgo" },
    });
  }

  /** The bill orders among `ids` that the signed-in user bought or sold. */
  async getBillOrderBatch(ids: readonly string[]): Promise<OperationResponse<typeof getBillOrderBatch>> {
    return this.#web.call(getBillOrderBatch, {
      query: { bill_orders: ids.join(",") },
    });
  }

  /** Asks the sellers to send the offers of the signed-in user's purchases (refused where a seller asks buyers to). */
  async askSellerToSendOffer(
    ids: readonly string[],
  ): Promise<OperationResponse<typeof askSellerToSendOffer>> {
    return this.#web.call(askSellerToSendOffer, {
      body: { bill_orders: [...ids], game: "csgo" },
    });
  }

  /** Cancels a purchase the seller has not delivered 30 minutes after it; the money comes back. */
  async cancelWebPurchase(id: string): Promise<OperationResponse<typeof cancelWebPurchase>> {
    return this.#web.call(cancelWebPurchase, {
      body: { bill_order_id: id, game: "csgo" },
    });
  }

  /** The signed-in buyer takes on sending a purchase's offer (then `buyerSendOffer`). */
  async notifyBuyerToSendOffer(id: string): Promise<OperationResponse<typeof notifyBuyerToSendOffer>> {
    return this.#web.call(notifyBuyerToSendOffer, {
      body: { bill_order_id: id, game: "csgo" },
    });
  }

  /** The signed-in seller's sales still to deliver, with the offer id once an offer is out. */
  async getSalesToDeliver(): Promise<OperationResponse<typeof getSalesToDeliver>> {
    return this.#web.call(getSalesToDeliver, {
      query: { game: "csgo", appid: 730 },
    });
  }

  /** The signed-in seller sends the offers of these sales; `data` maps each id to OK or why not. */
  async sellerSendOffer(ids: readonly string[]): Promise<OperationResponse<typeof sellerSendOffer>> {
    return this.#web.call(sellerSendOffer, {
      body: { bill_orders: [...ids] },
    });
  }

  /** The signed-in buyer sends the offers of these purchases, each asking the seller for the item. */
  async buyerSendOffer(ids: readonly string[]): Promise<OperationResponse<typeof buyerSendOffer>> {
    return this.#web.call(buyerSendOffer, {
      body: { bill_orders: [...ids] },
    });
  }

  /** Whether buyers send the offers of the signed-in seller's sales opened from now on. */
  async setForceBuyerSendOffer(force: boolean): Promise<OperationResponse<typeof setForceBuyerSendOffer>> {
    return this.#web.call(setForceBuyerSendOffer, {
      body: { force_buyer_send_offer: force },
    });
  }

  /**
   * Places a buy order; `pay_method` 3 draws on the balance, 101 on the buy-order funds, absent on
   * both. Answers the own buy order record, after it bought what it could at once.
   */
  async createWebBuyOrder(
    order: Omit<OperationBody<typeof createWebBuyOrder>, "game">,
  ): Promise<OperationResponse<typeof createWebBuyOrder>> {
    return this.#web.call(createWebBuyOrder, {
      body: { ...order, game: "csgo" },
    });
  }

  /** The signed-in user's buy orders in progress, newest first, 60 a page unless told (up to 500). */
  async listWebBuyOrders(
    options: Partial<Omit<OperationQuery<typeof listWebBuyOrders>, "game">> = {},
  ): Promise<OperationResponse<typeof listWebBuyOrders>> {
    return this.#web.call(listWebBuyOrders, {
      query: { page_num: 1, page_size: 60, ...options, game: "csgo" },
    });
  }

  /** Cancels buy orders; `data` maps each id to "OK" or why not. */
  async cancelWebBuyOrders(ids: readonly string[]): Promise<OperationResponse<typeof cancelWebBuyOrders>> {
    return this.#web.call(cancelWebBuyOrders, {
      body: { buy_orders: [...ids], game: "csgo" },
    });
  }

  /** The signed-in user's purchases as bill orders, newest first, 20 a page unless told (up to 500). */
  async listBoughtItems(
    options: Partial<Omit<OperationQuery<typeof listBoughtItems>, "game">> = {},
  ): Promise<OperationResponse<typeof listBoughtItems>> {
    return this.#web.call(listBoughtItems, {
      query: { page_num: 1, page_size: 20, ...options, game: "csgo" },
    });
  }

  /**
   * Up to 10 goods the forgiving name search finds, each with its lowest listing; anyone may ask,
   * but an ended session is refused (`Login Required`).
   */
  async searchSuggest(text: string): Promise<OperationResponse<typeof searchSuggest>> {
    return this.#web.call(searchSuggest, {
      query: { game: "csgo", text },
    });
  }

  /** The buying tab: goods with buy orders, by the best buy order; needs a signed-in session. */
  async listBuyingGoods(
    options: Partial<Omit<OperationQuery<typeof listBuyingGoods>, "game">> = {},
  ): Promise<OperationResponse<typeof listBuyingGoods>> {
    return this.#web.call(listBuyingGoods, {
      query: { page_num: 1, page_size: 20, sort_by: "buy_num.desc", ...options, game: "csgo" },
    });
  }

  /** The home page's popular listings. */
  async getPopularSellOrders(): Promise<OperationResponse<typeof getPopularSellOrders>> {
    return this.#web.call(getPopularSellOrders, { query: {} });
  }

  /** The price trend as `[milliseconds, yuan]` points: daily medians of completed trades, 1-365 days. */
  async getBuffPriceHistory(
    goodsId: number,
    days = 30,
  ): Promise<OperationResponse<typeof getBuffPriceHistory>> {
    return this.#web.call(getBuffPriceHistory, {
      query: { game: "csgo", goods_id: goodsId, currency: "CNY", days },
    });
  }

  /** The same price trend as chart lines. */
  async getBuffPriceHistoryV2(
    goodsId: number,
    days = 30,
  ): Promise<OperationResponse<typeof getBuffPriceHistoryV2>> {
    return this.#web.call(getBuffPriceHistoryV2, {
      query: { game: "csgo", goods_id: goodsId, currency: "CNY", days },
    });
  }
}
