import { getBuyOrderStatus, setBuyOrderStatus } from "./buy-order-status.ts";
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
} from "./sandbox.ts";
import { getBalance } from "./wallet.ts";
import { getUserInfo, login, logout } from "./web-account.ts";

/** Every operation of the contract: the server registers each, the OpenAPI document lists each. */
export const OPERATIONS = [
  getBalance,
  getBuyOrderStatus,
  setBuyOrderStatus,
  login,
  logout,
  getUserInfo,
  sandboxCreateUser,
  sandboxCreateToken,
  sandboxRevokeToken,
  sandboxFundAccount,
  sandboxGetBalances,
  sandboxUpdateUserSettings,
  sandboxGetClock,
  sandboxAdvanceClock,
  sandboxRunJobs,
  sandboxReset,
] as const;
