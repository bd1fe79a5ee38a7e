import {
  sandboxRecomputeLiquidityRanks,
  sandboxCancelBuyOrders,
  sandboxCreateBuyOrder,
  sandboxListBuyOrders,
  sandboxAcceptOffer,
  sandboxBindPlatformAccount,
  sandboxCreateOffer,
  sandboxCreatePlatformAccount,
  sandboxDeclineOffer,
  sandboxExpirePlatformCookies,
  sandboxShowSteamSecrets,
  sandboxGetPlatformAccount,
  sandboxGrantItems,
  sandboxIssuePlatformCookies,
  sandboxListOffers,
  sandboxSetAutoAccept,
  sandboxUnbindPlatformAccount,
  sandboxUpdatePlatformAccount,
  sandboxAdvanceClock,
  sandboxCreateToken,
  sandboxCreateUser,
  sandboxFundAccount,
  sandboxWithdrawFunds,
  sandboxListUserEvents,
  sandboxGetBalances,
  sandboxGetClock,
  sandboxGetUser,
  sandboxListUsers,
  sandboxListMails,
  sandboxReset,
  sandboxRevokeToken,
  sandboxResetTokenLimits,
  sandboxRunJobs,
  sandboxGetSimulation,
  sandboxListScenarios,
  sandboxRunScenario,
  sandboxEndScenario,
  sandboxGetPlatformFault,
  sandboxSetPlatformFault,
  sandboxRollbackTrade,
  type ScenarioDefinition,
  sandboxStartSimulation,
  sandboxStopSimulation,
  sandboxUpdateUserSettings,
  sandboxCreateWebhookEndpoint,
  sandboxListWebhookEndpoints,
  sandboxSendTestWebhook,
  sandboxUpdateWebhookEndpoint,
  sandboxDeleteWebhookEndpoint,
  sandboxListWebhookDeliveries,
  sandboxRedeliverWebhook,
  type OperationBody,
  type OperationQuery,
  type OperationResponse,
} from "@skinmarket/contract";
import { callOperation, type TransportOptions } from "./transport.ts";

type Answer<Operation> = Operation extends Parameters<typeof callOperation>[1]
  ? OperationResponse<Operation>
  : never;

/** The sandbox API (docs/design/platform-and-sandbox.md#game-platform-and-the-sandbox), called with the sandbox admin token. */
export class SandboxClient {
  readonly #options: TransportOptions;

  constructor(options: TransportOptions & { token: string }) {
    this.#options = options;
  }

  async createUser(
    body: OperationBody<typeof sandboxCreateUser> = {},
  ): Promise<Answer<typeof sandboxCreateUser>> {
    return (await callOperation(this.#options, sandboxCreateUser, { body })).body;
  }

  /** The mails the marketplace sent, newest first, as the sandbox's mailbox keeps them. */
  async listMails(
    query: Partial<OperationQuery<typeof sandboxListMails>> = {},
  ): Promise<Answer<typeof sandboxListMails>> {
    return (
      await callOperation(this.#options, sandboxListMails, {
        query: query as OperationQuery<typeof sandboxListMails>,
      })
    ).body;
  }

  async listUsers(
    query: Partial<OperationQuery<typeof sandboxListUsers>> = {},
  ): Promise<Answer<typeof sandboxListUsers>> {
    return (
      await callOperation(this.#options, sandboxListUsers, {
        query: query as OperationQuery<typeof sandboxListUsers>,
      })
    ).body;
  }

  async getUser(userId: string): Promise<Answer<typeof sandboxGetUser>> {
    return (await callOperation(this.#options, sandboxGetUser, { params: { user_id: userId } })).body;
  }

  async createToken(userId: string): Promise<Answer<typeof sandboxCreateToken>> {
    return (await callOperation(this.#options, sandboxCreateToken, { params: { user_id: userId } })).body;
  }

  async revokeToken(tokenId: string): Promise<Answer<typeof sandboxRevokeToken>> {
    return (await callOperation(this.#options, sandboxRevokeToken, { params: { token_id: tokenId } })).body;
  }

  /** Forgets a token's counts against every rate limit. */
  async resetTokenLimits(tokenId: string): Promise<Answer<typeof sandboxResetTokenLimits>> {
    return (await callOperation(this.#options, sandboxResetTokenLimits, { params: { token_id: tokenId } }))
      .body;
  }

  async fundAccount(
    userId: string,
    body: OperationBody<typeof sandboxFundAccount>,
  ): Promise<Answer<typeof sandboxFundAccount>> {
    return (await callOperation(this.#options, sandboxFundAccount, { params: { user_id: userId }, body }))
      .body;
  }

  /** Withdraws a positive amount; a deposit never takes a negative one. */
  async withdrawFunds(
    userId: string,
    body: OperationBody<typeof sandboxWithdrawFunds>,
  ): Promise<Answer<typeof sandboxWithdrawFunds>> {
    return (await callOperation(this.#options, sandboxWithdrawFunds, { params: { user_id: userId }, body }))
      .body;
  }

  /** A user's account events after an id, read as the admin (no token of the user's is made). */
  async listUserEvents(
    userId: string,
    query: Partial<OperationQuery<typeof sandboxListUserEvents>> = {},
  ): Promise<Answer<typeof sandboxListUserEvents>> {
    return (
      await callOperation(this.#options, sandboxListUserEvents, {
        params: { user_id: userId },
        query: query as OperationQuery<typeof sandboxListUserEvents>,
      })
    ).body;
  }

  async getBalances(userId: string): Promise<Answer<typeof sandboxGetBalances>> {
    return (await callOperation(this.#options, sandboxGetBalances, { params: { user_id: userId } })).body;
  }

  async updateUserSettings(
    userId: string,
    body: OperationBody<typeof sandboxUpdateUserSettings>,
  ): Promise<Answer<typeof sandboxUpdateUserSettings>> {
    return (
      await callOperation(this.#options, sandboxUpdateUserSettings, { params: { user_id: userId }, body })
    ).body;
  }

  async getClock(): Promise<Answer<typeof sandboxGetClock>> {
    return (await callOperation(this.#options, sandboxGetClock)).body;
  }

  async advanceClock(seconds: number): Promise<Answer<typeof sandboxAdvanceClock>> {
    return (await callOperation(this.#options, sandboxAdvanceClock, { body: { seconds } })).body;
  }

  async runJobs(): Promise<Answer<typeof sandboxRunJobs>> {
    return (await callOperation(this.#options, sandboxRunJobs)).body;
  }

  /** Recomputes the liquidity ranks from the last 30 days' trades now (the daily job does it too). */
  async recomputeLiquidityRanks(): Promise<Answer<typeof sandboxRecomputeLiquidityRanks>> {
    return (await callOperation(this.#options, sandboxRecomputeLiquidityRanks)).body;
  }

  async reset(): Promise<Answer<typeof sandboxReset>> {
    return (await callOperation(this.#options, sandboxReset)).body;
  }

  async createPlatformAccount(userId?: string): Promise<Answer<typeof sandboxCreatePlatformAccount>> {
    const body = userId === undefined ? {} : { user_id: userId };
    return (await callOperation(this.#options, sandboxCreatePlatformAccount, { body })).body;
  }

  async getPlatformAccount(platformid: string): Promise<Answer<typeof sandboxGetPlatformAccount>> {
    return (await callOperation(this.#options, sandboxGetPlatformAccount, { params: { platformid } })).body;
  }

  async updatePlatformAccount(
    platformid: string,
    body: OperationBody<typeof sandboxUpdatePlatformAccount>,
  ): Promise<Answer<typeof sandboxUpdatePlatformAccount>> {
    return (
      await callOperation(this.#options, sandboxUpdatePlatformAccount, { params: { platformid }, body })
    ).body;
  }

  async setAutoAccept(platformid: string, enabled: boolean): Promise<Answer<typeof sandboxSetAutoAccept>> {
    return (
      await callOperation(this.#options, sandboxSetAutoAccept, { params: { platformid }, body: { enabled } })
    ).body;
  }

  async bindPlatformAccount(
    platformid: string,
    userId: string,
  ): Promise<Answer<typeof sandboxBindPlatformAccount>> {
    return (
      await callOperation(this.#options, sandboxBindPlatformAccount, {
        params: { platformid },
        body: { user_id: userId },
      })
    ).body;
  }

  async unbindPlatformAccount(platformid: string): Promise<Answer<typeof sandboxUnbindPlatformAccount>> {
    return (await callOperation(this.#options, sandboxUnbindPlatformAccount, { params: { platformid } }))
      .body;
  }

  async issuePlatformCookies(platformid: string): Promise<Answer<typeof sandboxIssuePlatformCookies>> {
    return (await callOperation(this.#options, sandboxIssuePlatformCookies, { params: { platformid } })).body;
  }

  async expirePlatformCookies(platformid: string): Promise<Answer<typeof sandboxExpirePlatformCookies>> {
    return (await callOperation(this.#options, sandboxExpirePlatformCookies, { params: { platformid } }))
      .body;
  }

  /** The account's secrets on the Steam face (login name, password, shared and identity secrets). */
  async steamSecrets(platformid: string): Promise<Answer<typeof sandboxShowSteamSecrets>> {
    return (await callOperation(this.#options, sandboxShowSteamSecrets, { params: { platformid } })).body;
  }

  async grantItems(
    platformid: string,
    body: OperationBody<typeof sandboxGrantItems>,
  ): Promise<Answer<typeof sandboxGrantItems>> {
    return (await callOperation(this.#options, sandboxGrantItems, { params: { platformid }, body })).body;
  }

  /** Offers of an account (`platformid`), or filtered and paged as `query` says. */
  async listOffers(
    filter: string | Partial<OperationQuery<typeof sandboxListOffers>> = {},
  ): Promise<Answer<typeof sandboxListOffers>> {
    const query = typeof filter === "string" ? { platformid: filter } : filter;
    return (
      await callOperation(this.#options, sandboxListOffers, {
        query: query as OperationQuery<typeof sandboxListOffers>,
      })
    ).body;
  }

  async createOffer(
    body: OperationBody<typeof sandboxCreateOffer>,
  ): Promise<Answer<typeof sandboxCreateOffer>> {
    return (await callOperation(this.#options, sandboxCreateOffer, { body })).body;
  }

  async acceptOffer(tradeofferid: string): Promise<Answer<typeof sandboxAcceptOffer>> {
    return (await callOperation(this.#options, sandboxAcceptOffer, { params: { tradeofferid } })).body;
  }

  async declineOffer(tradeofferid: string): Promise<Answer<typeof sandboxDeclineOffer>> {
    return (await callOperation(this.#options, sandboxDeclineOffer, { params: { tradeofferid } })).body;
  }

  /** Creates a buy order for a user, as the user would. */
  async createBuyOrder(
    userId: string,
    body: OperationBody<typeof sandboxCreateBuyOrder>,
  ): Promise<Answer<typeof sandboxCreateBuyOrder>> {
    return (await callOperation(this.#options, sandboxCreateBuyOrder, { params: { user_id: userId }, body }))
      .body;
  }

  async listBuyOrders(
    userId: string,
    query: Partial<OperationQuery<typeof sandboxListBuyOrders>> = {},
  ): Promise<Answer<typeof sandboxListBuyOrders>> {
    return (
      await callOperation(this.#options, sandboxListBuyOrders, {
        params: { user_id: userId },
        query: query as OperationQuery<typeof sandboxListBuyOrders>,
      })
    ).body;
  }

  async cancelBuyOrders(
    userId: string,
    buyOrderIds: string[],
  ): Promise<Answer<typeof sandboxCancelBuyOrders>> {
    return (
      await callOperation(this.#options, sandboxCancelBuyOrders, {
        params: { user_id: userId },
        body: { buy_order_ids: buyOrderIds },
      })
    ).body;
  }

  /** Registers a webhook endpoint for a user; the answer holds its secret, shown only here. */
  async createWebhookEndpoint(
    userId: string,
    body: OperationBody<typeof sandboxCreateWebhookEndpoint>,
  ): Promise<Answer<typeof sandboxCreateWebhookEndpoint>> {
    return (
      await callOperation(this.#options, sandboxCreateWebhookEndpoint, { params: { user_id: userId }, body })
    ).body;
  }

  async listWebhookEndpoints(userId: string): Promise<Answer<typeof sandboxListWebhookEndpoints>> {
    return (await callOperation(this.#options, sandboxListWebhookEndpoints, { params: { user_id: userId } }))
      .body;
  }

  /** Changes a user's webhook endpoint or turns it off and on, as the user would. */
  async updateWebhookEndpoint(
    userId: string,
    endpointId: string,
    body: OperationBody<typeof sandboxUpdateWebhookEndpoint>,
  ): Promise<Answer<typeof sandboxUpdateWebhookEndpoint>> {
    return (
      await callOperation(this.#options, sandboxUpdateWebhookEndpoint, {
        params: { user_id: userId, endpoint_id: endpointId },
        body,
      })
    ).body;
  }

  /** Deletes a user's webhook endpoint, as the user would. */
  async deleteWebhookEndpoint(
    userId: string,
    endpointId: string,
  ): Promise<Answer<typeof sandboxDeleteWebhookEndpoint>> {
    return (
      await callOperation(this.#options, sandboxDeleteWebhookEndpoint, {
        params: { user_id: userId, endpoint_id: endpointId },
      })
    ).body;
  }

  /** A page of a user's endpoint's deliveries, newest first. */
  async listWebhookDeliveries(
    userId: string,
    endpointId: string,
    query: Partial<OperationQuery<typeof sandboxListWebhookDeliveries>> = {},
  ): Promise<Answer<typeof sandboxListWebhookDeliveries>> {
    return (
      await callOperation(this.#options, sandboxListWebhookDeliveries, {
        params: { user_id: userId, endpoint_id: endpointId },
        query: query as OperationQuery<typeof sandboxListWebhookDeliveries>,
      })
    ).body;
  }

  /** Sends a delivery of a user's endpoint again now, as the user would. */
  async redeliverWebhook(
    userId: string,
    endpointId: string,
    deliveryId: string,
  ): Promise<Answer<typeof sandboxRedeliverWebhook>> {
    return (
      await callOperation(this.#options, sandboxRedeliverWebhook, {
        params: { user_id: userId, endpoint_id: endpointId, delivery_id: deliveryId },
      })
    ).body;
  }

  /** Sends a synthetic, signed event of `type` (id `0`, `Skinmarket-Test: true`) to an endpoint now. */
  async sendTestWebhook(
    endpointId: string,
    type: OperationBody<typeof sandboxSendTestWebhook>["type"],
  ): Promise<Answer<typeof sandboxSendTestWebhook>> {
    return (
      await callOperation(this.#options, sandboxSendTestWebhook, {
        params: { endpoint_id: endpointId },
        body: { type },
      })
    ).body;
  }

  /**
   * Starts simulated traders with these settings (docs/design/simulation.md#the-living-sandbox); the seed of a
   * stopped simulation resumes it.
   */
  async startSimulation(
    settings: OperationBody<typeof sandboxStartSimulation> = {},
  ): Promise<Answer<typeof sandboxStartSimulation>> {
    return (await callOperation(this.#options, sandboxStartSimulation, { body: settings })).body;
  }

  async stopSimulation(): Promise<Answer<typeof sandboxStopSimulation>> {
    return (await callOperation(this.#options, sandboxStopSimulation)).body;
  }

  async getSimulation(): Promise<Answer<typeof sandboxGetSimulation>> {
    return (await callOperation(this.#options, sandboxGetSimulation)).body;
  }

  /**
   * The scenarios that run by name, with their definitions: the built-in ones and the files of the
   * server's scenarios folder, each with its `source`; a broken file with `valid: false` and its
   * `problem` (docs/sandbox.md, "Scenarios").
   */
  async listScenarios(): Promise<Answer<typeof sandboxListScenarios>> {
    return (await callOperation(this.#options, sandboxListScenarios)).body;
  }

  /**
   * Runs a scenario in the started simulation: by name (built-in, or a file of the server's
   * scenarios folder, which wins), or a definition given whole.
   */
  async runScenario(scenario: string | ScenarioDefinition): Promise<Answer<typeof sandboxRunScenario>> {
    const body = typeof scenario === "string" ? { name: scenario } : { scenario };
    return (await callOperation(this.#options, sandboxRunScenario, { body })).body;
  }

  /** Ends the running scenario now (its active effects end). */
  async endScenario(): Promise<Answer<typeof sandboxEndScenario>> {
    return (await callOperation(this.#options, sandboxEndScenario)).body;
  }

  async getPlatformFault(): Promise<Answer<typeof sandboxGetPlatformFault>> {
    return (await callOperation(this.#options, sandboxGetPlatformFault)).body;
  }

  /** Takes the sandbox platform down (for `seconds` of sandbox time, or until brought back) or up. */
  async setPlatformFault(
    body: OperationBody<typeof sandboxSetPlatformFault>,
  ): Promise<Answer<typeof sandboxSetPlatformFault>> {
    return (await callOperation(this.#options, sandboxSetPlatformFault, { body })).body;
  }

  /** The platform reverses a delivered trade: item back to the seller, money back to the buyer. */
  async rollbackTrade(tradeId: string): Promise<Answer<typeof sandboxRollbackTrade>> {
    return (await callOperation(this.#options, sandboxRollbackTrade, { params: { trade_id: tradeId } })).body;
  }
}
