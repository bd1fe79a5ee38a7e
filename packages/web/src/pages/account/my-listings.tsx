import type { cancelWebSellOrders, changeWebSellOrders, getWebOnSale } from "@skinmarket/contract";
import { useState } from "preact/hooks";
import { web } from "../../api.ts";
import { HiddenHeader, ListTable, usePaging } from "../../components/paged-list.tsx";
import { WearBar } from "../../components/wear-bar.tsx";
import { goodsName, money } from "../../format.ts";
import { t } from "../../i18n.ts";
import { Feedback, useAction, useLoad } from "../../use-data.tsx";
import { BatchOutcome, useLiveRefresh } from "./live-refresh.tsx";

/** The user's listings a page: reprice or withdraw, one or several at once. */
export function MyListings() {
  const [version, refresh] = useLiveRefresh();
  const paging = usePaging(50);
  const onSale = useLoad(
    () =>
      web<typeof getWebOnSale>("GET", "/api/market/sell_order/on_sale", {
        query: { game: "csgo", ...paging.query },
      }),
    [version, paging.pageNum],
  );
  const [prices, setPrices] = useState<Record<string, string>>({});
  const [results, setResults] = useState<Record<string, string> | null>(null);
  const [withdrawn, setWithdrawn] = useState<Record<string, string>>({});
  const [, actionError, run, busy, at] = useAction();

  // The outcome shows in the row of the listing acted on.
  const act = (id: string, write: () => Promise<Record<string, string>>) =>
    run(async () => {
      setResults(null);
      setResults(await write());
      refresh();
      return "";
    }, id);
  const reprice = (id: string) =>
    act(id, () =>
      web<typeof changeWebSellOrders>("POST", "/api/market/sell_order/change", {
        body: { game: "csgo", sell_orders: [{ sell_order_id: id, price: prices[id] ?? "" }] },
      }),
    );
  const withdraw = (id: string, name: string) => {
    setWithdrawn({ [id]: name });
    return act(id, () =>
      web<typeof cancelWebSellOrders>("POST", "/api/market/sell_order/cancel", {
        body: { game: "csgo", sell_orders: [id] },
      }),
    );
  };

  const answer = onSale.value;
  if (!answer)
    return onSale.error ? <p role="alert">{onSale.error}</p> : <p aria-busy="true">{t("Loading…")}</p>;
  return (
    <section aria-labelledby="listings-title">
      <h2 id="listings-title">{t("My listings")}</h2>
      {at && !answer.items.some((listing) => listing.id === at) ? (
        // A withdrawn listing has left the list: its outcome stays in view above it.
        <BatchOutcome results={results} error={actionError} names={withdrawn} />
      ) : null}
      {answer.total_count === 0 ? <p class="muted">{t("Nothing on sale.")}</p> : null}
      <ListTable
        label={t("My listings")}
        range={paging.range(answer)}
        headers={[t("Item"), t("Float"), t("Price"), t("New price"), <HiddenHeader text={t("Actions")} />]}
      >
        {answer.items.map((listing) => {
          const name = goodsName(answer.goods_infos[String(listing.goods_id)]);
          return (
            <tr key={listing.id}>
              <td>
                <a href={`/goods/${listing.goods_id}`}>{name}</a>
              </td>
              <td>
                <WearBar paintwear={listing.asset_info.paintwear} />
              </td>
              <td class="price">{money(listing.price)}</td>
              <td>
                <input
                  aria-label={t("New price for {name}", { name })}
                  inputMode="decimal"
                  size={8}
                  value={prices[listing.id] ?? ""}
                  onInput={(event) => setPrices({ ...prices, [listing.id]: event.currentTarget.value })}
                />
                <button
                  type="button"
                  disabled={!prices[listing.id] || busy}
                  onClick={() => reprice(listing.id)}
                >
                  {t("Reprice")}
                </button>
              </td>
              <td>
                <button type="button" disabled={busy} onClick={() => withdraw(listing.id, name)}>
                  {t("Withdraw")}
                </button>
                {at === listing.id ? (
                  <BatchOutcome results={results} error={actionError} names={{ [listing.id]: name }} />
                ) : null}
              </td>
            </tr>
          );
        })}
      </ListTable>
      {onSale.error ? <Feedback message="" error={onSale.error} /> : null}
    </section>
  );
}
