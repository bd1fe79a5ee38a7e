import { recordAudit } from "../audit.ts";
import type { DomainContext } from "../context.ts";
import { ok, type Failure, type Result } from "../result.ts";
import { inTransaction, noteNoMarketChange } from "../transaction.ts";
import { requireBoundAccount, storedCookies, UPLOAD_COOKIES_HINT } from "./require-bound-account.ts";

export type SetupOutcome = "success" | "fail";

export interface SetupReport {
  publish_inventory: SetupOutcome;
  setup_trade_url: SetupOutcome;
  setup_api_key: SetupOutcome;
  errors: Record<string, string>;
}

/**
 * Makes a bound account ready to trade (reference: platform/setup): a public inventory, the trade
 * URL known to the marketplace, an API key. Each action runs in its own transaction and reports
 * on its own; one failure never stops the others.
 */
export async function setupPlatformAccount(
  ctx: DomainContext,
  input: { platformid: string },
): Promise<Result<SetupReport>> {
  const account = await requireBoundAccount(ctx, input.platformid);
  if (!account.ok) return account;
  const cookies = storedCookies(ctx, account.value);
  const session = cookies ? { platformid: input.platformid, cookies } : undefined;
  const noCookies: Failure = {
    code: "Invalid State",
    message: `no valid platform cookies are stored; ${UPLOAD_COOKIES_HINT}`,
  };
  const report: SetupReport = {
    publish_inventory: "fail",
    setup_trade_url: "fail",
    setup_api_key: "fail",
    errors: {},
  };

  const actions: Array<[keyof Omit<SetupReport, "errors">, (tx: DomainContext) => Promise<Result<unknown>>]> =
    [
      ["publish_inventory", (tx) => tx.platform.publishInventory(tx, session!)],
      [
        "setup_trade_url",
        async (tx) => {
          const url = await tx.platform.getTradeUrl(tx, session!);
          if (url.ok) {
            await tx.db
              .updateTable("bound_platform_accounts")
              .set({ trade_url: url.value.tradeUrl })
              .where("platformid", "=", input.platformid)
              .execute();
          }
          return url;
        },
      ],
      [
        "setup_api_key",
        async (tx) => {
          const key = await tx.platform.registerApiKey(tx, session!);
          if (key.ok) {
            await tx.db
              .updateTable("bound_platform_accounts")
              .set({ api_key_sealed: tx.secretBox.seal(key.value.apiKey, `${input.platformid}:api-key`) })
              .where("platformid", "=", input.platformid)
              .execute();
          }
          return key;
        },
      ],
    ];
  for (const [name, action] of actions) {
    const outcome = session
      ? await inTransaction(ctx, (tx) => {
          noteNoMarketChange(tx);
          return action(tx);
        })
      : { ok: false as const, failure: noCookies };
    report[name] = outcome.ok ? "success" : "fail";
    if (!outcome.ok) report.errors[name] = outcome.failure.message;
  }
  await inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    await recordAudit(tx, {
      action: "platform.setup",
      subject: `platform:${input.platformid}`,
      details: { ...report },
    });
    return ok(undefined);
  });
  return ok(report);
}
