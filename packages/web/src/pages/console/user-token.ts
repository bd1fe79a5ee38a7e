import type { OperationDefinition, OperationResponse, sandboxCreateToken } from "@skinmarket/contract";
import { ApiError, type CallOptions, official, sandbox } from "../../api.ts";
import { t } from "../../i18n.ts";

/**
 * The console manages a user's webhook endpoints (turning off and on, deleting, the delivery log,
 * redelivering) through the official operations, with an API token of that user's: what a
 * developer's bot would call, so the console tests those operations too
 * (docs/design/website-console.md#the-consoles-events-and-webhooks). The token is created only when the
 * operator asks for it ("Act as this user"), never as a side effect of looking: the event log and
 * the endpoint list are read as the admin. One token per user and browser tab, kept in this tab's
 * sessionStorage; one revoked meanwhile is forgotten at its first refusal.
 */
const STORAGE_KEY = "skinmarket.consoleUserTokens";

function stored(): Record<string, string> {
  try {
    return JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? "{}") as Record<string, string>;
  } catch {
    return {};
  }
}

function keep(userId: string, token: string | undefined): void {
  const { [userId]: _dropped, ...others } = stored();
  sessionStorage.setItem(STORAGE_KEY, JSON.stringify(token ? { ...others, [userId]: token } : others));
}

/** Whether this tab holds a console token for the user. */
export function hasUserToken(userId: string): boolean {
  return Boolean(stored()[userId]);
}

/** Creates the console's token for the user, at the operator's explicit request. */
export async function createUserToken(adminToken: string, userId: string): Promise<string> {
  const issued = await sandbox<typeof sandboxCreateToken>(
    "POST",
    `/sandbox/users/${userId}/tokens`,
    adminToken,
  );
  keep(userId, issued.token);
  return issued.token;
}

/** An official operation as user `userId`, with the token the operator created for it. */
export async function asUser<Operation extends OperationDefinition = never>(
  userId: string,
  method: Operation["method"],
  path: string,
  options: CallOptions<Operation> = {},
): Promise<OperationResponse<Operation>> {
  const token = stored()[userId];
  if (!token) throw new Error(t("Act as this user first: the console needs an API token of theirs."));
  try {
    return await official<Operation>(method, path, token, options);
  } catch (failure) {
    if (failure instanceof ApiError && failure.status === 401) {
      keep(userId, undefined);
      throw new Error(t("The console's token for this user was revoked: act as this user again."));
    }
    throw failure;
  }
}
