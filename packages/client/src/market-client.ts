import {
  getMarketItems,
  getFloatItems,
  getEnterpriseItems,
  getEnterpriseFloatItems,
  getLiquidityRanks,
  getEnterpriseSellOrders,
  cancelBuyOrders,
  createBuyOrder,
  listBuyOrders,
  supplyBuyOrder,
  type SupplyBuyOrderAnswer,
  cancelPurchaseOrders,
  listPurchaseOrders,
  purchaseOrders,
  purchaseQuantity,
  sellOrderHistory,
  sendOffer,
  delistItems,
  getOnSale,
  listItems,
  repriceItems,
  getBalance,
  listLedgerEntries,
  listEvents,
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  redeliverWebhook,
  rollWebhookSecret,
  updateWebhookEndpoint,
  getBuyOrderStatus,
  getPlatformInventory,
  setBuyOrderStatus,
  setupPlatformAccount,
  uploadPlatformCookies,
  type ListItemsAnswer,
  type MarketplaceEvent,
  type OperationBody,
  type OperationQuery,
  type OperationResponse,
} from "@skinmarket/contract";
import { streamEvents, type EventsOptions } from "./event-stream.ts";
import { pollEventsWith, type PollEventsOptions } from "./poll-events.ts";
import { LimitTracker, type RateLimitState } from "./rate-limits.ts";
import { callOperation, type TransportOptions } from "./transport.ts";

/** Query of the inventory operation; fields with defaults may be left out. */
export type InventoryQuery = Pick<OperationQuery<typeof getPlatformInventory>, "platformid"> &
  Partial<Omit<OperationQuery<typeof getPlatformInventory>, "platformid">>;

export type MarketClientOptions = TransportOptions & { token: string };

/**
 * The official operations, called with a developer's bearer token. Each method answers the
 * operation's success body and raises `MarketApiError` (code, msg, status) on failure. The calls
 * of one client share the token's rate buckets and its limit state.
 */
export class MarketClient {
  readonly #options: MarketClientOptions;
  readonly #limits: LimitTracker;

  constructor(options: MarketClientOptions) {
    this.#limits = options.limitTracker ?? new LimitTracker();
    this.#options = { ...options, limitTracker: this.#limits };
  }

  /** What the server's `RateLimit-*` headers said in the operation's last answer, if any came. */
  rateLimitState(operationId: string): RateLimitState | undefined {
    return this.#limits.rateLimitState(operationId);
  }

  /** The `req_remaining` of the operation's last answer that had one: its daily allowance left. */
  requestsRemaining(operationId: string): number | undefined {
    return this.#limits.requestsRemaining(operationId);
  }

  async getBalance(): Promise<OperationResponse<typeof getBalance>> {
    return (await callOperation(this.#options, getBalance)).body;
  }

  /**
   * A page of the caller's money movements, newest first, each with its lines on the caller's
   * accounts and the balance after; pass the last `id` as `before` while `has_more`.
   */
  async listLedgerEntries(
    query: Partial<OperationQuery<typeof listLedgerEntries>> = {},
  ): Promise<OperationResponse<typeof listLedgerEntries>> {
    const full = { ...query, limit: query.limit ?? 20 } as OperationQuery<typeof listLedgerEntries>;
    return (await callOperation(this.#options, listLedgerEntries, { query: full })).body;
  }

  /**
   * A page of the caller's account events after `after` (an event id), oldest first; `types` as
   * `["trade.*", "balance.changed"]`. Read on from the last id while `has_more`.
   */
  async listEvents(
    query: { after?: string; types?: readonly string[]; limit?: number } = {},
  ): Promise<OperationResponse<typeof listEvents>> {
    const full = {
      ...(query.after !== undefined ? { after: query.after } : {}),
      ...(query.types?.length ? { types: query.types.join(",") } : {}),
      limit: query.limit ?? 100,
    } as OperationQuery<typeof listEvents>;
    return (await callOperation(this.#options, listEvents, { query: full })).body;
  }

  /**
   * Registers a webhook endpoint for the caller's account events; the answer's `secret` (shown
   * only here) verifies each delivery's `Skinmarket-Signature`.
   */
  async createWebhookEndpoint(
    body: OperationBody<typeof createWebhookEndpoint>,
  ): Promise<OperationResponse<typeof createWebhookEndpoint>> {
    return (await callOperation(this.#options, createWebhookEndpoint, { body })).body;
  }

  async listWebhookEndpoints(): Promise<OperationResponse<typeof listWebhookEndpoints>> {
    return (await callOperation(this.#options, listWebhookEndpoints)).body;
  }

  async getWebhookEndpoint(endpointId: string): Promise<OperationResponse<typeof getWebhookEndpoint>> {
    return (await callOperation(this.#options, getWebhookEndpoint, { params: { endpoint_id: endpointId } }))
      .body;
  }

  /** Changes an endpoint's `url`, `types`, `description`, or turns it off and on (`enabled`). */
  async updateWebhookEndpoint(
    endpointId: string,
    body: OperationBody<typeof updateWebhookEndpoint>,
  ): Promise<OperationResponse<typeof updateWebhookEndpoint>> {
    return (
      await callOperation(this.#options, updateWebhookEndpoint, { params: { endpoint_id: endpointId }, body })
    ).body;
  }

  async deleteWebhookEndpoint(endpointId: string): Promise<OperationResponse<typeof deleteWebhookEndpoint>> {
    return (
      await callOperation(this.#options, deleteWebhookEndpoint, { params: { endpoint_id: endpointId } })
    ).body;
  }

  /** A new signing secret, answered once; the old one stops signing at once. */
  async rollWebhookSecret(endpointId: string): Promise<OperationResponse<typeof rollWebhookSecret>> {
    return (await callOperation(this.#options, rollWebhookSecret, { params: { endpoint_id: endpointId } }))
      .body;
  }

  /** A page of an endpoint's deliveries, newest first; `state` keeps one state. */
  async listWebhookDeliveries(
    endpointId: string,
    query: Partial<OperationQuery<typeof listWebhookDeliveries>> = {},
  ): Promise<OperationResponse<typeof listWebhookDeliveries>> {
    const full = { page_num: 1, page_size: 20, ...query } as OperationQuery<typeof listWebhookDeliveries>;
    return (
      await callOperation(this.#options, listWebhookDeliveries, {
        params: { endpoint_id: endpointId },
        query: full,
      })
    ).body;
  }

  /** Sends a delivery's event again now and answers how the attempt went. */
  async redeliverWebhook(
    endpointId: string,
    deliveryId: string,
  ): Promise<OperationResponse<typeof redeliverWebhook>> {
    return (
      await callOperation(this.#options, redeliverWebhook, {
        params: { endpoint_id: endpointId, delivery_id: deliveryId },
      })
    ).body;
  }

  /**
   * The events of the stream's channels (default `account`), live, in id order, as an async
   * iterator: `for await (const event of market.events({ types: ["trade.*"] }))`. A dropped
   * connection is reopened with backoff and resumes after the last event delivered; a revoked
   * token ends it with a `MarketStreamError`, aborting `signal` ends it quietly.
   */
  events(options: EventsOptions = {}): AsyncGenerator<MarketplaceEvent> {
    return streamEvents(this.#options, options);
  }

  /**
   * The account's events through polling (`listEvents` every `intervalMs`, default a second), for
   * where a WebSocket cannot go; without `after` it starts from now, as `events()` does.
   */
  pollEvents(options: PollEventsOptions = {}): AsyncGenerator<MarketplaceEvent> {
    return pollEventsWith(
      async (query) => (await this.listEvents(query)) as { items: MarketplaceEvent[]; has_more: boolean },
      options,
    );
  }

  async getBuyOrderStatus(): Promise<OperationResponse<typeof getBuyOrderStatus>> {
    return (await callOperation(this.#options, getBuyOrderStatus)).body;
  }

  async setBuyOrderStatus(
    body: OperationBody<typeof setBuyOrderStatus>,
  ): Promise<OperationResponse<typeof setBuyOrderStatus>> {
    return (await callOperation(this.#options, setBuyOrderStatus, { body })).body;
  }

  /** Items of a platform account bound to the caller; `game` defaults to `cs2`. */
  async getPlatformInventory(query: InventoryQuery): Promise<OperationResponse<typeof getPlatformInventory>> {
    const full = { game: "cs2", ...query } as OperationQuery<typeof getPlatformInventory>;
    return (await callOperation(this.#options, getPlatformInventory, { query: full })).body;
  }

  /** Uploads session cookies; `cookies` may be the array or its JSON encoding. */
  async uploadPlatformCookies(
    platformid: string,
    cookies: string | Array<{ domain: string; key: string; value: string }>,
  ): Promise<OperationResponse<typeof uploadPlatformCookies>> {
    const platform_cookies = typeof cookies === "string" ? cookies : JSON.stringify(cookies);
    return (
      await callOperation(this.#options, uploadPlatformCookies, { body: { platformid, platform_cookies } })
    ).body;
  }

  async setupPlatformAccount(platformid: string): Promise<OperationResponse<typeof setupPlatformAccount>> {
    return (await callOperation(this.#options, setupPlatformAccount, { body: { platformid } })).body;
  }

  /** Lists items for sale; the answer maps each assetid to OK or a message, plus `sell_orders`. */
  async listItems(assets: OperationBody<typeof listItems>["assets"]): Promise<ListItemsAnswer> {
    return (await callOperation(this.#options, listItems, { body: { game: "cs2", assets } }))
      .body as ListItemsAnswer;
  }

  async delistItems(sellOrderIds: string[]): Promise<OperationResponse<typeof delistItems>> {
    return (
      await callOperation(this.#options, delistItems, { body: { game: "cs2", sell_orders: sellOrderIds } })
    ).body;
  }

  async repriceItems(
    changes: OperationBody<typeof repriceItems>["sell_orders"],
  ): Promise<OperationResponse<typeof repriceItems>> {
    return (await callOperation(this.#options, repriceItems, { body: { game: "cs2", sell_orders: changes } }))
      .body;
  }

  /** Buys standard goods immediately; `game` defaults to `cs2`. */
  async purchase(
    body: Omit<OperationBody<typeof purchaseOrders>, "game">,
  ): Promise<OperationResponse<typeof purchaseOrders>> {
    return (await callOperation(this.#options, purchaseOrders, { body: { game: "cs2", ...body } })).body;
  }

  async listPurchaseOrders(
    body: Partial<OperationBody<typeof listPurchaseOrders>> = {},
  ): Promise<OperationResponse<typeof listPurchaseOrders>> {
    const full = { game: "cs2", ...body } as OperationBody<typeof listPurchaseOrders>;
    return (await callOperation(this.#options, listPurchaseOrders, { body: full })).body;
  }

  async cancelPurchaseOrders(orderIds: string[]): Promise<OperationResponse<typeof cancelPurchaseOrders>> {
    return (
      await callOperation(this.#options, cancelPurchaseOrders, { body: { game: "cs2", order_ids: orderIds } })
    ).body;
  }

  async purchaseQuantity(
    query: Omit<OperationQuery<typeof purchaseQuantity>, "game">,
  ): Promise<OperationResponse<typeof purchaseQuantity>> {
    return (await callOperation(this.#options, purchaseQuantity, { query: { game: "cs2", ...query } })).body;
  }

  async sendOffer(orderId: string): Promise<OperationResponse<typeof sendOffer>> {
    return (await callOperation(this.#options, sendOffer, { body: { order_id: orderId } })).body;
  }

  async sellOrderHistory(
    body: Partial<OperationBody<typeof sellOrderHistory>> = {},
  ): Promise<OperationResponse<typeof sellOrderHistory>> {
    const full = { game: "cs2", ...body } as OperationBody<typeof sellOrderHistory>;
    return (await callOperation(this.#options, sellOrderHistory, { body: full })).body;
  }

  /** Creates a buy order, which at once buys eligible listings at or below its price. */
  async createBuyOrder(
    body: Omit<OperationBody<typeof createBuyOrder>, "game">,
  ): Promise<OperationResponse<typeof createBuyOrder>> {
    return (await callOperation(this.#options, createBuyOrder, { body: { game: "cs2", ...body } })).body;
  }

  /** The caller's buy orders, newest first; `game` defaults to `cs2`. */
  async listBuyOrders(
    query: Partial<OperationQuery<typeof listBuyOrders>> = {},
  ): Promise<OperationResponse<typeof listBuyOrders>> {
    const full = { game: "cs2", ...query } as OperationQuery<typeof listBuyOrders>;
    return (await callOperation(this.#options, listBuyOrders, { query: full })).body;
  }

  async cancelBuyOrders(buyOrderIds: string[]): Promise<OperationResponse<typeof cancelBuyOrders>> {
    return (
      await callOperation(this.#options, cancelBuyOrders, {
        body: { game: "cs2", buy_order_ids: buyOrderIds },
      })
    ).body;
  }

  /** Sells items of bound platform accounts to a chosen buy order at its price. */
  async supplyBuyOrder(buyOrderId: string, assetids: string[]): Promise<SupplyBuyOrderAnswer> {
    return (
      await callOperation(this.#options, supplyBuyOrder, {
        body: { game: "cs2", buy_order_id: buyOrderId, assets: assetids },
      })
    ).body as SupplyBuyOrderAnswer;
  }

  /**
   * Lowest prices of one goods (`goods_id` or `market_hash_name`) or of the whole market; the
   * answer's `req_remaining` (also `requestsRemaining("getMarketItems")`) is what is left of the
   * 500 requests a day.
   */
  async getMarketItems(
    query: Partial<OperationQuery<typeof getMarketItems>> = {},
  ): Promise<OperationResponse<typeof getMarketItems>> {
    const full = { game: "cs2", include_sticker: 1, ...query } as OperationQuery<typeof getMarketItems>;
    return (await callOperation(this.#options, getMarketItems, { query: full })).body;
  }

  /**
   * Figures per goods, fixed paint-wear interval and variant (phase, fade range) of up to 200
   * goods by id and/or market hash name (500 requests and 200 distinct goods a day).
   */
  async getFloatItems(
    body: Partial<OperationBody<typeof getFloatItems>>,
  ): Promise<OperationResponse<typeof getFloatItems>> {
    const full = { game: "cs2", ...body } as OperationBody<typeof getFloatItems>;
    return (await callOperation(this.#options, getFloatItems, { body: full })).body;
  }

  /** Lowest prices and best buy order, of one goods or the whole market (enterprise; 5,000 a day). */
  async getEnterpriseItems(
    query: Partial<OperationQuery<typeof getEnterpriseItems>> = {},
  ): Promise<OperationResponse<typeof getEnterpriseItems>> {
    const full = { game: "cs2", include_sticker: 1, high_liquidity: 0, ...query } as OperationQuery<
      typeof getEnterpriseItems
    >;
    return (await callOperation(this.#options, getEnterpriseItems, { query: full })).body;
  }

  /** Every figure per goods, paint-wear interval and variant (enterprise; 5,000 a day). */
  async getEnterpriseFloatItems(
    query: Partial<OperationQuery<typeof getEnterpriseFloatItems>> = {},
  ): Promise<OperationResponse<typeof getEnterpriseFloatItems>> {
    const full = { game: "cs2", include_sticker: 1, ...query } as OperationQuery<
      typeof getEnterpriseFloatItems
    >;
    return (await callOperation(this.#options, getEnterpriseFloatItems, { query: full })).body;
  }

  /** Liquidity ranks of one goods or the whole market (enterprise; 5,000 a day). */
  async getLiquidityRanks(
    query: Partial<OperationQuery<typeof getLiquidityRanks>> = {},
  ): Promise<OperationResponse<typeof getLiquidityRanks>> {
    const full = { game: "cs2", include_sticker: 1, ...query } as OperationQuery<typeof getLiquidityRanks>;
    return (await callOperation(this.#options, getLiquidityRanks, { query: full })).body;
  }

  /** The caller's listings on sale; `game` defaults to `cs2`. */
  async getOnSale(
    query: Partial<OperationQuery<typeof getOnSale>> = {},
  ): Promise<OperationResponse<typeof getOnSale>> {
    const full = { game: "cs2", ...query } as OperationQuery<typeof getOnSale>;
    return (await callOperation(this.#options, getOnSale, { query: full })).body;
  }

  /**
   * The listings on sale of one goods (enterprise tokens; 3 requests a second, 200 distinct goods a
   * day); `game` defaults to `cs2`, `sort_by` to `price.asc`.
   */
  async getEnterpriseSellOrders(
    query: Pick<OperationQuery<typeof getEnterpriseSellOrders>, "market_hash_name"> &
      Partial<OperationQuery<typeof getEnterpriseSellOrders>>,
  ): Promise<OperationResponse<typeof getEnterpriseSellOrders>> {
    const full = { game: "cs2", ...query } as OperationQuery<typeof getEnterpriseSellOrders>;
    return (await callOperation(this.#options, getEnterpriseSellOrders, { query: full })).body;
  }
}
