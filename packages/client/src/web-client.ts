import { getBuyOrderBook, getUserInfo, login, logout, type OperationResponse } from "@skinmarket/contract";
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

  /** The public buy-order book of one goods, best price first. */
  async getBuyOrderBook(goodsId: number, pageNum = 1): Promise<OperationResponse<typeof getBuyOrderBook>> {
    return (
      await callOperation(this.#options, getBuyOrderBook, {
        query: { game: "csgo", goods_id: goodsId, page_num: pageNum },
        headers: this.#cookieHeader(),
      })
    ).body;
  }

  #cookieHeader(): Record<string, string> {
    return this.#session ? { cookie: `session=${this.#session}` } : {};
  }
}
