import {
  getBalance,
  getBuyOrderStatus,
  setBuyOrderStatus,
  type OperationBody,
  type OperationResponse,
} from "@skinmarket/contract";
import { callOperation, type TransportOptions } from "./transport.ts";

export type MarketClientOptions = TransportOptions & { token: string };

/**
 * The official operations, called with a developer's bearer token. Each method answers the
 * operation's success body and raises `MarketApiError` (code, msg, status) on failure.
 */
export class MarketClient {
  readonly #options: MarketClientOptions;

  constructor(options: MarketClientOptions) {
    this.#options = options;
  }

  async getBalance(): Promise<OperationResponse<typeof getBalance>> {
    return (await callOperation(this.#options, getBalance)).body;
  }

  async getBuyOrderStatus(): Promise<OperationResponse<typeof getBuyOrderStatus>> {
    return (await callOperation(this.#options, getBuyOrderStatus)).body;
  }

  async setBuyOrderStatus(
    body: OperationBody<typeof setBuyOrderStatus>,
  ): Promise<OperationResponse<typeof setBuyOrderStatus>> {
    return (await callOperation(this.#options, setBuyOrderStatus, { body })).body;
  }
}
