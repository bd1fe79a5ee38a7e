import type { listLedgerEntries, OperationResponse } from "@skinmarket/contract";
import { useState } from "preact/hooks";
import { own } from "../../api.ts";
import { ListTable, type PageRange } from "../../components/paged-list.tsx";
import { dateTime, money, signedMoney } from "../../format.ts";
import { t } from "../../i18n.ts";
import { useLoad } from "../../use-data.tsx";

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

/** Movements a page. */
const PAGE_SIZE = 20;

function readPage(account: string, before: string | undefined): Promise<LedgerPage> {
  return own<typeof listLedgerEntries>("GET", "/api/market/developer/balance/entries", {
    query: { limit: PAGE_SIZE, account, before },
  });
}

/**
 * Every movement of the user's money, newest first, from the official ledger route with the
 * session (`balance/entries`): why, when, each account's change and its balance after. The route
 * pages back in time with a cursor (`before`, the last id of the page before), so the pager keeps
 * the cursors of the pages passed to step back; a live event reloads the page shown.
 */
export function Movements(props: { version: number }) {
  const [account, setAccount] = useState("");
  const [cursors, setCursors] = useState<string[]>([]);
  const newest = useLoad(() => readPage(account, cursors.at(-1)), [props.version, account, cursors]);
  const entries = newest.value?.items ?? null;
  const before = cursors.length * PAGE_SIZE;
  const range: PageRange | undefined = newest.value
    ? {
        from: entries!.length > 0 ? before + 1 : 0,
        to: before + entries!.length,
        total: newest.value.total_count,
        previous: cursors.length > 0 ? () => setCursors(cursors.slice(0, -1)) : undefined,
        next: newest.value.has_more ? () => setCursors([...cursors, entries!.at(-1)!.id]) : undefined,
        beyondEnd: entries!.length === 0 && cursors.length > 0 ? () => setCursors([]) : undefined,
      }
    : undefined;
  const error = newest.error;
  return (
    <>
      <div class="row">
        <h3 id="movements-title">{t("Movements")}</h3>
        <label>
          {t("Account")}
          <select
            value={account}
            onChange={(event) => {
              setAccount(event.currentTarget.value);
              setCursors([]);
            }}
          >
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
      {newest.value?.total_count === 0 ? <p class="muted">{t("No movements yet.")}</p> : null}
      {entries && newest.value!.total_count > 0 ? (
        <ListTable
          label={t("Movements")}
          range={range}
          headers={[t("Time"), t("What"), t("Account"), t("Amount"), t("Balance after")]}
        >
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
                <td class={`price ${signedMoney(line.amount).kind}`}>{signedMoney(line.amount).text}</td>
                <td class="price">{money(line.balance_after)}</td>
              </tr>
            )),
          )}
        </ListTable>
      ) : null}
    </>
  );
}
