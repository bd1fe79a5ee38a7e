import {
  addBookmark,
  getBillOrders,
  getBuffPriceHistory,
  getBuffPriceHistoryV2,
  getBuyOrderBook,
  getGoodsInfo,
  getGoodsSellOrders,
  getPopularSellOrders,
  getPriceHistory,
  getUserInfo,
  listBuyingGoods,
  listCatalogGoods,
  login,
  logout,
  removeBookmark,
  searchSuggest,
  type OperationQuery,
  type OperationResponse,
} from "@skinmarket/contract";
import { callOperation, type TransportOptions } from "./transport.ts";

/** The website's routes: sign-in (keeping the `session` cookie between calls) and market pages. */
export class WebClient {
  readonly #options: TransportOptions;
  #session: string | undefined;

  constructor(options: TransportOptions) {
    this.#options = options;
  }

  get signedIn(): boolean {
    return this.#session !== undefined;
  }

  async login(nickname: string, password: string): Promise<OperationResponse<typeof login>> {
    const answer = await callOperation(this.#options, login, { body: { nickname, password } });
    const cookie = answer.headers.getSetCookie().find((value) => value.startsWith("session="));
    this.#session = cookie?.split(";")[0]?.slice("session=".length);
    return answer.body;
  }

  async getUserInfo(): Promise<OperationResponse<typeof getUserInfo>> {
    return (await callOperation(this.#options, getUserInfo, { headers: this.#cookieHeader() })).body;
  }

  async logout(): Promise<OperationResponse<typeof logout>> {
    const answer = await callOperation(this.#options, logout, { headers: this.#cookieHeader() });
    this.#session = undefined;
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

  #cookieHeader(): Record<string, string> {
    return this.#session ? { cookie: `session=${this.#session}` } : {};
  }
}
