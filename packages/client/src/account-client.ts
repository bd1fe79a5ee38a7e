import {
  closeAccount,
  confirmEmail,
  listSignIns,
  signUp,
  type OperationBody,
  type OperationResponse,
} from "@skinmarket/contract";
import type { WebSession } from "./web-session.ts";

/**
 * Accounts for people (docs/design/back-office.md#accounts-for-people): sign-up and address
 * confirmation need no session; the sign-in history and closing use the `WebClient`'s.
 */
export class AccountClient {
  readonly #web: WebSession;

  constructor(web: WebSession) {
    this.#web = web;
  }

  /** Makes an account; a link to confirm the address is mailed (in the sandbox, to its mailbox). */
  async signUp(body: OperationBody<typeof signUp>): Promise<OperationResponse<typeof signUp>> {
    return this.#web.call(signUp, { body });
  }

  /** Confirms the address with the `code` of the mailed link; the account may then sign in. */
  async confirmEmail(code: string): Promise<OperationResponse<typeof confirmEmail>> {
    return this.#web.call(confirmEmail, { body: { code } });
  }

  /** The signed-in user's sign-ins, newest first (at most `limit`, default 20). */
  async listSignIns(limit = 20): Promise<OperationResponse<typeof listSignIns>> {
    return this.#web.call(listSignIns, { query: { limit } });
  }

  /** Closes the signed-in account, its nickname typed again; every session and token ends. */
  async closeAccount(nickname: string): Promise<OperationResponse<typeof closeAccount>> {
    return this.#web.call(closeAccount, { body: { nickname } });
  }
}
