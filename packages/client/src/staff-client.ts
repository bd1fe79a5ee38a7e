import {
  createStaff,
  disableStaff,
  getStaffMe,
  listStaff,
  listStaffActions,
  staffSignIn,
  staffSignOut,
  staffAdjustBalance,
  staffFindUsers,
  staffFreezeAccount,
  staffGetUser,
  staffRefundTrade,
  staffSignOutUser,
  type OperationBody,
  type OperationDefinition,
  type OperationQuery,
  type OperationResponse,
} from "@skinmarket/contract";
import { callOperation, type CallInput, type TransportOptions } from "./transport.ts";

/**
 * The back office's operations (docs/design/back-office.md#staff-and-roles), keeping the staff
 * session (`staff_session`) and echoing its CSRF token (`ops_csrf_token`) on writes, apart from a
 * user's website session.
 */
export class StaffClient {
  readonly #options: TransportOptions;
  #session: string | undefined;
  #csrfToken: string | undefined;

  constructor(options: TransportOptions) {
    this.#options = options;
  }

  get signedIn(): boolean {
    return this.#session !== undefined;
  }

  async signIn(email: string, password: string): Promise<OperationResponse<typeof staffSignIn>> {
    const answer = await callOperation(this.#options, staffSignIn, { body: { email, password } });
    this.#session = cookieValue(answer.headers, "staff_session");
    this.#csrfToken = cookieValue(answer.headers, "ops_csrf_token");
    return answer.body;
  }

  async signOut(): Promise<OperationResponse<typeof staffSignOut>> {
    const answer = await this.#call(staffSignOut);
    this.#session = undefined;
    this.#csrfToken = undefined;
    return answer;
  }

  async me(): Promise<OperationResponse<typeof getStaffMe>> {
    return this.#call(getStaffMe);
  }

  async createStaff(body: OperationBody<typeof createStaff>): Promise<OperationResponse<typeof createStaff>> {
    return this.#call(createStaff, { body });
  }

  /** Disables a staff account (someone who leaves); its sessions end at once. */
  async disableStaff(staffId: string, reason: string): Promise<OperationResponse<typeof disableStaff>> {
    return this.#call(disableStaff, { params: { staff_id: staffId }, body: { reason } });
  }

  async listStaff(): Promise<OperationResponse<typeof listStaff>> {
    return this.#call(listStaff);
  }

  /** Ends every session and token of a user, with the reason the audit keeps. */
  async signOutUser(userId: string, reason: string): Promise<OperationResponse<typeof staffSignOutUser>> {
    return this.#call(staffSignOutUser, { params: { user_id: userId }, body: { reason } });
  }

  /** Users by nickname (from its start), user id or bound platform id; at most 20. */
  async findUsers(q: string): Promise<OperationResponse<typeof staffFindUsers>> {
    return this.#call(staffFindUsers, { query: { q } });
  }

  /** A user's page: balances, recent trades, sign-ins and staff actions on them. */
  async getUser(userId: string): Promise<OperationResponse<typeof staffGetUser>> {
    return this.#call(staffGetUser, { params: { user_id: userId } });
  }

  /** Credits or debits a user's balance by hand, within the role's limit, with the reason the audit keeps. */
  async adjustBalance(
    userId: string,
    body: OperationBody<typeof staffAdjustBalance>,
  ): Promise<OperationResponse<typeof staffAdjustBalance>> {
    return this.#call(staffAdjustBalance, { params: { user_id: userId }, body });
  }

  /** Freezes (true) or unfreezes (false) a user's trading and/or withdrawals, with the reason. */
  async freezeAccount(
    userId: string,
    body: OperationBody<typeof staffFreezeAccount>,
  ): Promise<OperationResponse<typeof staffFreezeAccount>> {
    return this.#call(staffFreezeAccount, { params: { user_id: userId }, body });
  }

  /** Refunds a completed trade to its buyer, in full (no amount) or in part, from the seller or the house. */
  async refundTrade(
    tradeId: string,
    body: OperationBody<typeof staffRefundTrade>,
  ): Promise<OperationResponse<typeof staffRefundTrade>> {
    return this.#call(staffRefundTrade, { params: { trade_id: tradeId }, body });
  }

  /** The staff actions, newest first. */
  async listActions(
    query: Partial<OperationQuery<typeof listStaffActions>> = {},
  ): Promise<OperationResponse<typeof listStaffActions>> {
    return this.#call(listStaffActions, { query: query as OperationQuery<typeof listStaffActions> });
  }

  async #call<Operation extends OperationDefinition>(
    operation: Operation,
    input: Omit<CallInput<Operation>, "headers"> = {},
  ): Promise<OperationResponse<Operation>> {
    const headers: Record<string, string> = {};
    if (this.#session)
      headers.cookie = `staff_session=${this.#session}; ops_csrf_token=${this.#csrfToken ?? ""}`;
    if (this.#csrfToken) headers["x-csrftoken"] = this.#csrfToken;
    return (await callOperation(this.#options, operation, { ...input, headers })).body;
  }
}

function cookieValue(headers: Headers, name: string): string | undefined {
  const cookie = headers.getSetCookie().find((value) => value.startsWith(`${name}=`));
  return cookie?.split(";")[0]?.slice(name.length + 1);
}
