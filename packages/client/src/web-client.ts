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
  removeBookmark,
  type OperationQuery,
  type OperationResponse,
} from "@skinmarket/contract";
import { callOperation, type TransportOptions } from "./transport.ts";

/** The website's routes: sign-in (keeping the `session` cookie between calls) and market pages. */
export class WebClient {
  readonly #options: TransportOptions;
  #session: string | undefined;
  #csrfToken: string | undefined;

  constructor(options: TransportOptions) {
    this.#options = options;
  }

  get signedIn(): boolean {
    return this.#session !== undefined;
  }

  async login(nickname: string, password: string): Promise<OperationResponse<typeof login>> {
    const answer = await callOperation(this.#options, login, { body: { nickname, password } });
    this.#session = cookieValue(answer.headers, "session");
    this.#csrfToken = cookieValue(answer.headers, "csrf_token");
    return answer.body;
  }

  async getUserInfo(): Promise<OperationResponse<typeof getUserInfo>> {
    return (await callOperation(this.#options, getUserInfo, { headers: this.#cookieHeader() })).body;
  }

  /** The trades the signed-in user must act on now: offers to send or sent as seller, to accept as buyer. */
  async getSteamTrades(): Promise<OperationResponse<typeof getSteamTrades>> {
    return (await callOperation(this.#options, getSteamTrades, { headers: this.#cookieHeader() })).body;
  }

  /** Notification counts: sales to deliver, offers to send and offers to accept, per game. */
  async getNotification(): Promise<OperationResponse<typeof getNotification>> {
    return (await callOperation(this.#options, getNotification, { headers: this.#cookieHeader() })).body;
  }

  /** The signed-in user's balances under the real website's names (`cash_amount`, ...). */
  async getBriefAsset(): Promise<OperationResponse<typeof getBriefAsset>> {
    return (await callOperation(this.#options, getBriefAsset, { headers: this.#cookieHeader() })).body;
  }

  async logout(): Promise<OperationResponse<typeof logout>> {
    const answer = await callOperation(this.#options, logout, { headers: this.#cookieHeader() });
    this.#session = undefined;
    this.#csrfToken = undefined;
    return answer.body;
  }

  /** The public buy-order book of one goods, best price first, 10 orders a page unless told (up to 80). */
  async getBuyOrderBook(
    goodsId: number,
    pageNum = 1,
    pageSize = 10,
  ): Promise<OperationResponse<typeof getBuyOrderBook>> {
    return (
      await callOperation(this.#options, getBuyOrderBook, {
        query: { game: "csgo", goods_id: goodsId, page_num: pageNum, page_size: pageSize },
        headers: this.#cookieHeader(),
      })
    ).body;
  }

  /** One goods' details; `bookmarked` is the signed-in user's. */
  async getGoodsInfo(goodsId: number): Promise<OperationResponse<typeof getGoodsInfo>> {
    return (
      await callOperation(this.#options, getGoodsInfo, {
        query: { game: "csgo", goods_id: goodsId },
        headers: this.#cookieHeader(),
      })
    ).body;
  }

  /** The listings of one goods, 10 a page unless `page_size` says (up to 80), cheapest first unless `sort_by` does. */
  async getGoodsSellOrders(
    goodsId: number,
    options: Partial<Omit<OperationQuery<typeof getGoodsSellOrders>, "game" | "goods_id">> = {},
  ): Promise<OperationResponse<typeof getGoodsSellOrders>> {
    return (
      await callOperation(this.#options, getGoodsSellOrders, {
        query: {
          page_num: 1,
          page_size: 10,
          sort_by: "default",
          allow_tradable_cooldown: 1,
          ...options,
          game: "csgo",
          goods_id: goodsId,
        },
        headers: this.#cookieHeader(),
      })
    ).body;
  }

  /** The catalog with market figures; needs a signed-in session. */
  async listCatalogGoods(
    options: Partial<Omit<OperationQuery<typeof listCatalogGoods>, "game">> = {},
  ): Promise<OperationResponse<typeof listCatalogGoods>> {
    return (
      await callOperation(this.#options, listCatalogGoods, {
        query: { page_num: 1, page_size: 20, sort_by: "sell_num.desc", ...options, game: "csgo" },
        headers: this.#cookieHeader(),
      })
    ).body;
  }

  /** Daily median prices of completed trades over 7, 30 or 180 days. */
  async getPriceHistory(
    goodsId: number,
    days: 7 | 30 | 180 = 30,
  ): Promise<OperationResponse<typeof getPriceHistory>> {
    return (
      await callOperation(this.#options, getPriceHistory, {
        query: { game: "csgo", goods_id: goodsId, days },
        headers: this.#cookieHeader(),
      })
    ).body;
  }

  /** The finishes of one weapon for the inspect view, by its class name (`weapon_ak47`). */
  async getInspectSkins(weaponName: string): Promise<OperationResponse<typeof getInspectSkins>> {
    return (
      await callOperation(this.#options, getInspectSkins, {
        query: { weapon_name: weaponName },
        headers: this.#cookieHeader(),
      })
    ).body;
  }

  /** The latest completed trades of one goods. */
  async getBillOrders(goodsId: number): Promise<OperationResponse<typeof getBillOrders>> {
    return (
      await callOperation(this.#options, getBillOrders, {
        query: { game: "csgo", goods_id: goodsId },
        headers: this.#cookieHeader(),
      })
    ).body;
  }

  /** Bookmarks a goods or a listing for the signed-in user. */
  async addBookmark(
    type: "goods" | "sell_order",
    id: string,
  ): Promise<OperationResponse<typeof addBookmark>> {
    return (
      await callOperation(this.#options, addBookmark, { body: { type, id }, headers: this.#cookieHeader() })
    ).body;
  }

  /** The signed-in user's bookmarks of one type, newest first. */
  async listBookmarks(
    options: Partial<Omit<OperationQuery<typeof listBookmarks>, "game">> = {},
  ): Promise<OperationResponse<typeof listBookmarks>> {
    return (
      await callOperation(this.#options, listBookmarks, {
        query: { game: "csgo", type: "goods", page_num: 1, page_size: 20, ...options },
        headers: this.#cookieHeader(),
      })
    ).body;
  }

  /** Removes one of the signed-in user's bookmarks. */
  async removeBookmark(
    type: "goods" | "sell_order",
    id: string,
  ): Promise<OperationResponse<typeof removeBookmark>> {
    return (
      await callOperation(this.#options, removeBookmark, {
        body: { type, id },
        headers: this.#cookieHeader(),
      })
    ).body;
  }

  /** The inventory of the signed-in user's bound platform account, each item with its listing. */
  async getWebInventory(
    options: Partial<Omit<OperationQuery<typeof getWebInventory>, "game">> = {},
  ): Promise<OperationResponse<typeof getWebInventory>> {
    return (
      await callOperation(this.#options, getWebInventory, {
        query: {
          page_num: 1,
          page_size: 50,
          force: 0,
          sort_by: "time.desc",
          state: "all",
          ...options,
          game: "csgo",
        },
        headers: this.#cookieHeader(),
      })
    ).body;
  }

  /** Items the marketplace holds for the user: always none here. */
  async getWebBackpack(pageNum = 1, pageSize = 60): Promise<OperationResponse<typeof getWebBackpack>> {
    return (
      await callOperation(this.#options, getWebBackpack, {
        query: { game: "csgo", page_num: pageNum, page_size: pageSize },
        headers: this.#cookieHeader(),
      })
    ).body;
  }

  /** The signed-in user's listings on sale, up to 1000 a page. */
  async getWebOnSale(
    options: Partial<Omit<OperationQuery<typeof getWebOnSale>, "game">> = {},
  ): Promise<OperationResponse<typeof getWebOnSale>> {
    return (
      await callOperation(this.#options, getWebOnSale, {
        query: { page_num: 1, page_size: 20, sort_by: "updated.desc", ...options, game: "csgo" },
        headers: this.#cookieHeader(),
      })
    ).body;
  }

  /** Puts items on sale; `data` maps each assetid to "OK" or why not. */
  async createWebSellOrders(
    assets: OperationBody<typeof createWebSellOrders>["assets"],
  ): Promise<OperationResponse<typeof createWebSellOrders>> {
    return (
      await callOperation(this.#options, createWebSellOrders, {
        body: { game: "csgo", assets },
        headers: this.#cookieHeader(),
      })
    ).body;
  }

  /** Changes the prices of the user's listings; `data` maps each sell order id to "OK" or why not. */
  async changeWebSellOrders(
    sellOrders: OperationBody<typeof changeWebSellOrders>["sell_orders"],
  ): Promise<OperationResponse<typeof changeWebSellOrders>> {
    return (
      await callOperation(this.#options, changeWebSellOrders, {
        body: { game: "csgo", sell_orders: sellOrders },
        headers: this.#cookieHeader(),
      })
    ).body;
  }

  /** Takes the user's listings off sale; `data` maps each sell order id to "OK" or why not. */
  async cancelWebSellOrders(sellOrderIds: string[]): Promise<OperationResponse<typeof cancelWebSellOrders>> {
    return (
      await callOperation(this.#options, cancelWebSellOrders, {
        body: { game: "csgo", sell_orders: sellOrderIds },
        headers: this.#cookieHeader(),
      })
    ).body;
  }

  /** The signed-in user's sales in any state, newest first. */
  async getWebSellHistory(
    options: Partial<Omit<OperationQuery<typeof getWebSellHistory>, "game">> = {},
  ): Promise<OperationResponse<typeof getWebSellHistory>> {
    return (
      await callOperation(this.#options, getWebSellHistory, {
        query: { page_num: 1, page_size: 20, ...options, game: "csgo" },
        headers: this.#cookieHeader(),
      })
    ).body;
  }

  /** What buying one listing costs and which ways of paying can pay for it (`pay_methods`). */
  async previewGoodsBuy(
    goodsId: number,
    sellOrderId: string,
    price: string,
    allowTradableCooldown: 0 | 1 = 0,
  ): Promise<OperationResponse<typeof previewGoodsBuy>> {
    return (
      await callOperation(this.#options, previewGoodsBuy, {
        query: {
          game: "csgo",
          goods_id: goodsId,
          sell_order_id: sellOrderId,
          price,
          allow_tradable_cooldown: allowTradableCooldown,
        },
        headers: this.#cookieHeader(),
      })
    ).body;
  }

  /**
   * Buys one listing at the price seen; `pay_method` 3 balance, 101 buy-order funds, 102 wallet,
   * 1 bank card (`WEB_PAY_METHOD_CODES`). Answers the bill order.
   */
  async buyGoods(
    order: Omit<OperationBody<typeof buyGoods>, "game">,
  ): Promise<OperationResponse<typeof buyGoods>> {
    return (
      await callOperation(this.#options, buyGoods, {
        body: { ...order, game: "csgo" },
        headers: this.#cookieHeader(),
      })
    ).body;
  }

  /** The bill orders among `ids` that the signed-in user bought or sold. */
  async getBillOrderBatch(ids: readonly string[]): Promise<OperationResponse<typeof getBillOrderBatch>> {
    return (
      await callOperation(this.#options, getBillOrderBatch, {
        query: { bill_orders: ids.join(",") },
        headers: this.#cookieHeader(),
      })
    ).body;
  }

  /** Asks the sellers to send the offers of the signed-in user's purchases (refused where a seller asks buyers to). */
  async askSellerToSendOffer(
    ids: readonly string[],
  ): Promise<OperationResponse<typeof askSellerToSendOffer>> {
    return (
      await callOperation(this.#options, askSellerToSendOffer, {
        body: { bill_orders: [...ids], game: "csgo" },
        headers: this.#cookieHeader(),
      })
    ).body;
  }

  /** Cancels a purchase the seller has not delivered 30 minutes after it; the money comes back. */
  async cancelWebPurchase(id: string): Promise<OperationResponse<typeof cancelWebPurchase>> {
    return (
      await callOperation(this.#options, cancelWebPurchase, {
        body: { bill_order_id: id, game: "csgo" },
        headers: this.#cookieHeader(),
      })
    ).body;
  }

  /** The signed-in buyer takes on sending a purchase's offer (then `buyerSendOffer`). */
  async notifyBuyerToSendOffer(id: string): Promise<OperationResponse<typeof notifyBuyerToSendOffer>> {
    return (
      await callOperation(this.#options, notifyBuyerToSendOffer, {
        body: { bill_order_id: id, game: "csgo" },
        headers: this.#cookieHeader(),
      })
    ).body;
  }

  /** The signed-in seller's sales still to deliver, with the offer id once an offer is out. */
  async getSalesToDeliver(): Promise<OperationResponse<typeof getSalesToDeliver>> {
    return (
      await callOperation(this.#options, getSalesToDeliver, {
        query: { game: "csgo", appid: 730 },
        headers: this.#cookieHeader(),
      })
    ).body;
  }

  /** The signed-in seller sends the offers of these sales; `data` maps each id to OK or why not. */
  async sellerSendOffer(ids: readonly string[]): Promise<OperationResponse<typeof sellerSendOffer>> {
    return (
      await callOperation(this.#options, sellerSendOffer, {
        body: { bill_orders: [...ids] },
        headers: this.#cookieHeader(),
      })
    ).body;
  }

  /** The signed-in buyer sends the offers of these purchases, each asking the seller for the item. */
  async buyerSendOffer(ids: readonly string[]): Promise<OperationResponse<typeof buyerSendOffer>> {
    return (
      await callOperation(this.#options, buyerSendOffer, {
        body: { bill_orders: [...ids] },
        headers: this.#cookieHeader(),
      })
    ).body;
  }

  /** Whether buyers send the offers of the signed-in seller's sales opened from now on. */
  async setForceBuyerSendOffer(force: boolean): Promise<OperationResponse<typeof setForceBuyerSendOffer>> {
    return (
      await callOperation(this.#options, setForceBuyerSendOffer, {
        body: { force_buyer_send_offer: force },
        headers: this.#cookieHeader(),
      })
    ).body;
  }

  /**
   * Places a buy order; `pay_method` 3 draws on the balance, 101 on the buy-order funds, absent on
   * both. Answers the own buy order record, after it bought what it could at once.
   */
  async createWebBuyOrder(
    order: Omit<OperationBody<typeof createWebBuyOrder>, "game">,
  ): Promise<OperationResponse<typeof createWebBuyOrder>> {
    return (
      await callOperation(this.#options, createWebBuyOrder, {
        body: { ...order, game: "csgo" },
        headers: this.#cookieHeader(),
      })
    ).body;
  }

  /** The signed-in user's buy orders in progress, newest first, 60 a page unless told (up to 500). */
  async listWebBuyOrders(
    options: Partial<Omit<OperationQuery<typeof listWebBuyOrders>, "game">> = {},
  ): Promise<OperationResponse<typeof listWebBuyOrders>> {
    return (
      await callOperation(this.#options, listWebBuyOrders, {
        query: { page_num: 1, page_size: 60, ...options, game: "csgo" },
        headers: this.#cookieHeader(),
      })
    ).body;
  }

  /** Cancels buy orders; `data` maps each id to "OK" or why not. */
  async cancelWebBuyOrders(ids: readonly string[]): Promise<OperationResponse<typeof cancelWebBuyOrders>> {
    return (
      await callOperation(this.#options, cancelWebBuyOrders, {
        body: { buy_orders: [...ids], game: "csgo" },
        headers: this.#cookieHeader(),
      })
    ).body;
  }

  /** The signed-in user's purchases as bill orders, newest first, 20 a page unless told (up to 500). */
  async listBoughtItems(
    options: Partial<Omit<OperationQuery<typeof listBoughtItems>, "game">> = {},
  ): Promise<OperationResponse<typeof listBoughtItems>> {
    return (
      await callOperation(this.#options, listBoughtItems, {
        query: { page_num: 1, page_size: 20, ...options, game: "csgo" },
        headers: this.#cookieHeader(),
      })
    ).body;
  }

  /** Goods names containing the text (up to 10); needs a signed-in session. */
  async searchSuggest(text: string): Promise<OperationResponse<typeof searchSuggest>> {
    return (
      await callOperation(this.#options, searchSuggest, {
        query: { game: "csgo", text },
        headers: this.#cookieHeader(),
      })
    ).body;
  }

  /** The buying tab: goods with buy orders, by the best buy order; needs a signed-in session. */
  async listBuyingGoods(
    options: Partial<Omit<OperationQuery<typeof listBuyingGoods>, "game">> = {},
  ): Promise<OperationResponse<typeof listBuyingGoods>> {
    return (
      await callOperation(this.#options, listBuyingGoods, {
        query: { page_num: 1, page_size: 20, sort_by: "buy_num.desc", ...options, game: "csgo" },
        headers: this.#cookieHeader(),
      })
    ).body;
  }

  /** The home page's popular listings. */
  async getPopularSellOrders(): Promise<OperationResponse<typeof getPopularSellOrders>> {
    return (
      await callOperation(this.#options, getPopularSellOrders, { query: {}, headers: this.#cookieHeader() })
    ).body;
  }

  /** The price trend as `[milliseconds, yuan]` points: daily medians of completed trades, 1-365 days. */
  async getBuffPriceHistory(
    goodsId: number,
    days = 30,
  ): Promise<OperationResponse<typeof getBuffPriceHistory>> {
    return (
      await callOperation(this.#options, getBuffPriceHistory, {
        query: { game: "csgo", goods_id: goodsId, currency: "CNY", days },
        headers: this.#cookieHeader(),
      })
    ).body;
  }

  /** The same price trend as chart lines. */
  async getBuffPriceHistoryV2(
    goodsId: number,
    days = 30,
  ): Promise<OperationResponse<typeof getBuffPriceHistoryV2>> {
    return (
      await callOperation(this.#options, getBuffPriceHistoryV2, {
        query: { game: "csgo", goods_id: goodsId, currency: "CNY", days },
        headers: this.#cookieHeader(),
      })
    ).body;
  }

  /** The session's cookies, and the CSRF token the website wants echoed on writes. */
  #cookieHeader(): Record<string, string> {
    if (!this.#session) return {};
    if (!this.#csrfToken) return { cookie: `session=${this.#session}` };
    return {
      cookie: `session=${this.#session}; csrf_token=${this.#csrfToken}`,
      "x-csrftoken": this.#csrfToken,
    };
  }
}

function cookieValue(headers: Headers, name: string): string | undefined {
  const cookie = headers.getSetCookie().find((value) => value.startsWith(`${name}=`));
  return cookie?.split(";")[0]?.slice(name.length + 1);
}
