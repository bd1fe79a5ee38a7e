import {
  sandboxAdvanceClock,
  sandboxCreateToken,
  sandboxCreateUser,
  sandboxFundAccount,
  sandboxGetBalances,
  sandboxGetClock,
  sandboxReset,
  sandboxRevokeToken,
  sandboxRunJobs,
  sandboxUpdateUserSettings,
  type OperationBody,
  type OperationResponse,
} from "@skinmarket/contract";
import { callOperation, type TransportOptions } from "./transport.ts";

type Answer<Operation> = Operation extends Parameters<typeof callOperation>[1]
  ? OperationResponse<Operation>
  : never;

/** The sandbox API (docs/design.md section 10), called with the sandbox admin token. */
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

  async createToken(userId: string): Promise<Answer<typeof sandboxCreateToken>> {
    return (await callOperation(this.#options, sandboxCreateToken, { params: { user_id: userId } })).body;
  }

  async revokeToken(tokenId: string): Promise<Answer<typeof sandboxRevokeToken>> {
    return (await callOperation(this.#options, sandboxRevokeToken, { params: { token_id: tokenId } })).body;
  }

  async fundAccount(
    userId: string,
    body: OperationBody<typeof sandboxFundAccount>,
  ): Promise<Answer<typeof sandboxFundAccount>> {
    return (await callOperation(this.#options, sandboxFundAccount, { params: { user_id: userId }, body }))
      .body;
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

  async reset(): Promise<Answer<typeof sandboxReset>> {
    return (await callOperation(this.#options, sandboxReset)).body;
  }
}
