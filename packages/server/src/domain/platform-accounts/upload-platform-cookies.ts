import type { CookieState, PlatformCookie } from "../platform/game-platform.ts";
import { recordAudit } from "../audit.ts";
import type { DomainContext } from "../context.ts";
import { invalidArgument, ok, type Result } from "../result.ts";
import { inTransaction, noteNoMarketChange } from "../transaction.ts";
import { requireBoundAccount } from "./require-bound-account.ts";

const MAX_COOKIES = 50;
const FORM = "must be a JSON-encoded array of {domain, key, value} strings";

/**
 * Stores a bound account's platform session cookies, sealed, with the state the platform reports
 * for them. Cookies that are not a live session are stored too (their state says so), so that
 * later operations can tell the caller exactly what to fix.
 */
export async function uploadPlatformCookies(
  ctx: DomainContext,
  input: { platformid: string; platformCookies: string },
): Promise<Result<{ platformid: string; cookieState: CookieState }>> {
  const cookies = parseCookies(input.platformCookies);
  if (!cookies.ok) return cookies;
  return inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    const account = await requireBoundAccount(tx, input.platformid);
    if (!account.ok) return account;
    const cookieState = await tx.platform.validateSession(tx, {
      platformid: input.platformid,
      cookies: cookies.value,
    });
    await tx.db
      .updateTable("bound_platform_accounts")
      .set({
        cookies_sealed: tx.secretBox.seal(JSON.stringify(cookies.value), input.platformid),
        cookie_state: cookieState,
        cookies_checked_at: tx.clock.now(),
      })
      .where("platformid", "=", input.platformid)
      .execute();
    // The cookie values never go into the audit log, only what was done and the outcome.
    await recordAudit(tx, {
      action: "platform.cookies.upload",
      subject: `platform:${input.platformid}`,
      details: { cookie_state: cookieState, count: cookies.value.length },
    });
    return ok({ platformid: input.platformid, cookieState });
  });
}

export function parseCookies(text: string): Result<PlatformCookie[]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return invalidArgument("platform_cookies", `${FORM}; this is not JSON`);
  }
  if (!Array.isArray(parsed) || parsed.length === 0) return invalidArgument("platform_cookies", FORM);
  if (parsed.length > MAX_COOKIES)
    return invalidArgument("platform_cookies", `at most ${MAX_COOKIES} cookies`);
  const cookies: PlatformCookie[] = [];
  for (const [index, entry] of parsed.entries()) {
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
      return invalidArgument(`platform_cookies[${index}]`, "must be an object {domain, key, value}");
    }
    const { domain, key, value, ...rest } = entry as Record<string, unknown>;
    for (const [name, field] of Object.entries({ domain, key, value })) {
      if (typeof field !== "string" || (name !== "value" && field.length === 0)) {
        return invalidArgument(`platform_cookies[${index}].${name}`, "must be a non-empty string");
      }
      if (CONTROL_CHARACTER.test(field))
        return invalidArgument(`platform_cookies[${index}].${name}`, "must not contain control characters");
    }
    // Cookie values are stored percent-encoded, and the platform decodes them (its login
    // cookie holds `platformid||secret`): one that cannot be decoded is no cookie a browser kept.
    if (!isPercentEncoded(value as string))
      return invalidArgument(`platform_cookies[${index}].value`, "must be valid percent-encoding");
    const unknown = Object.keys(rest)[0];
    if (unknown !== undefined)
      return invalidArgument(`platform_cookies[${index}].${unknown}`, "unknown field");
    cookies.push({ domain: domain as string, key: key as string, value: value as string });
  }
  return ok(cookies);
}

const CONTROL_CHARACTER = /[\p{Cc}\p{Cs}]/u;

function isPercentEncoded(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}
