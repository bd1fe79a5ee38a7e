import type { listLedgerEntries, OperationResponse } from "@skinmarket/contract";
import { useEffect, useState } from "preact/hooks";
import { own } from "../../api.ts";
import { dateTime, money } from "../../format.ts";
import { t } from "../../i18n.ts";
import { useAction, useLoad } from "../../use-data.tsx";

type LedgerPage = OperationResponse<typeof listLedgerEntries>;
type LedgerEntry = LedgerPage["items"][number];

/** The accounts by the names the ledger route answers, as the figures above call them. */
const ACCOUNT_LABELS: Record<string, string> = {
  market_balance: "Balance",
  margin_balance: "Buy-order funds",
  wallet_balance: "Wallet",
  frozen_amount: "In trades (escrow)",
};

const KIND_LABELS: Record<string, string> = {
  deposit: "Deposit",
  withdrawal: "Withdrawal",
  purchase_payment: "Purchase paid",
  card_payment: "Card payment",
  trade_payout: "Trade settled",
  trade_release: "Sale released after trade protection",
  trade_refund: "Trade refunded",
  trade_rollback: "Trade rolled back",
  margin_expiry: "Buy-order funds expired",
};

function referenceOf(entry: LedgerEntry): string {
  if (entry.trade_id) return t("Trade {id}", { id: entry.trade_id });
  if (entry.sell_order_id) return t("Listing {id}", { id: entry.sell_order_id });
  if (entry.buy_order_id) return t("Buy order {id}", { id: entry.buy_order_id });
  return "";
}

function readPage(account: string, before?: string): Promise<LedgerPage> {
  return own<typeof listLedgerEntries>("GET", "/api/market/developer/balance/entries", {
    query: { limit: 20, account, before },
  });
}

/**
 * Every movement of the user's money, newest first, from the official ledger route with the
 * session (`balance/entries`): why, when, each account's change and its balance after. Older pages
 * are read on with `before`; a live event reloads the newest (and drops the older ones read).
 */
export function Movements(props: { version: number }) {
  const [account, setAccount] = useState("");
  const newest = useLoad(() => readPage(account), [props.version, account]);
  const [older, setOlder] = useState<LedgerPage | null>(null);
  const [, olderError, run] = useAction();
  useEffect(() => setOlder(null), [newest.value]);

  const entries = newest.value ? [...newest.value.items, ...(older?.items ?? [])] : null;
  const more = (older ?? newest.value)?.has_more ?? false;
  const readOlder = (before: string) =>
    run(async () => {
      const page = await readPage(account, before);
      setOlder({ ...page, items: [...(older?.items ?? []), ...page.items] });
      return "";
    });
  const error = olderError || newest.error;
  return (
    <>
      <div class="row">
        <h3 id="movements-title">{t("Movements")}</h3>
        <label>
          {t("Account")}
          <select value={account} onChange={(event) => setAccount(event.currentTarget.value)}>
            <option value="">{t("All accounts")}</option>
            {Object.entries(ACCOUNT_LABELS).map(([name, label]) => (
              <option key={name} value={name}>
                {t(label)}
              </option>
            ))}
          </select>
        </label>
      </div>
      {error ? <p role="alert">{error}</p> : null}
      {entries === null ? <p aria-busy="true">{t("Loading…")}</p> : null}
      {entries && entries.length === 0 ? <p class="muted">{t("No movements yet.")}</p> : null}
      {entries && entries.length > 0 ? (
        <table aria-labelledby="movements-title">
          <thead>
            <tr>
              <th scope="col">{t("Time")}</th>
              <th scope="col">{t("What")}</th>
              <th scope="col">{t("Account")}</th>
              <th scope="col">{t("Amount")}</th>
              <th scope="col">{t("Balance after")}</th>
            </tr>
          </thead>
          <tbody>
            {entries.flatMap((entry) =>
              entry.lines.map((line, index) => (
                <tr key={`${entry.id}-${line.account}`}>
                  <td>{index === 0 ? dateTime(entry.created_at) : ""}</td>
                  <td>
                    {index === 0 ? (
                      <>
                        {t(KIND_LABELS[entry.kind] ?? entry.kind)}
                        <br />
                        <span class="muted small">{referenceOf(entry)}</span>
                      </>
                    ) : null}
                  </td>
                  <td>{t(ACCOUNT_LABELS[line.account] ?? line.account)}</td>
                  <td class={`price ${line.amount.startsWith("-") ? "out" : "in"}`}>
                    {line.amount.startsWith("-") ? "−" : "+"}
                    {money(line.amount.replace(/^-/, ""))}
                  </td>
                  <td class="price">{money(line.balance_after)}</td>
                </tr>
              )),
            )}
          </tbody>
        </table>
      ) : null}
      {more && entries ? (
        <button type="button" onClick={() => readOlder(entries.at(-1)!.id)}>
          {t("Older movements")}
        </button>
      ) : null}
    </>
  );
}
