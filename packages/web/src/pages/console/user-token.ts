import type { OperationDefinition, OperationResponse, sandboxCreateToken } from "@skinmarket/contract";
import { ApiError, type CallOptions, official, sandbox } from "../../api.ts";

/**
 * The console acts for a chosen user on the official operations (webhook endpoints and their
 * deliveries, the event log) with an API token it creates for that user through the sandbox API
 * (docs/design/website.md#the-consoles-events-and-webhooks): what a developer's bot would call, so the console tests those
 * operations too. One token per user and browser tab, kept in this tab's sessionStorage; one
 * revoked meanwhile (the console's own "Revoke") is replaced at the next call.
 */
const STORAGE_KEY = "skinmarket.consoleUserTokens";

function stored(): Record<string, string> {
  try {
    return JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? "{}") as Record<string, string>;
  } catch {
    return {};
  }
}

async function userToken(adminToken: string, userId: string, fresh: boolean): Promise<string> {
  const tokens = stored();
  if (!fresh && tokens[userId]) return tokens[userId];
  const issued = await sandbox<typeof sandboxCreateToken>(
    "POST",
    `/sandbox/users/${userId}/tokens`,
    adminToken,
  );
  sessionStorage.setItem(STORAGE_KEY, JSON.stringify({ ...tokens, [userId]: issued.token }));
  return issued.token;
}

/** An official operation as user `userId`. */
export async function asUser<Operation extends OperationDefinition = never>(
  adminToken: string,
  userId: string,
  method: Operation["method"],
  path: string,
  options: CallOptions<Operation> = {},
): Promise<OperationResponse<Operation>> {
  try {
    return await official<Operation>(method, path, await userToken(adminToken, userId, false), options);
  } catch (failure) {
    if (!(failure instanceof ApiError) || failure.status !== 401) throw failure;
    return official<Operation>(method, path, await userToken(adminToken, userId, true), options);
  }
}
