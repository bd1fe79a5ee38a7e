import type { cancelWebSellOrders, changeWebSellOrders, getWebOnSale } from "@skinmarket/contract";
import { useState } from "preact/hooks";
import { web } from "../../api.ts";
import { WearBar } from "../../components/wear-bar.tsx";
import { goodsName, money } from "../../format.ts";
import { t } from "../../i18n.ts";
import { useAction, useLoad } from "../../use-data.tsx";
import { BatchOutcome, useLiveRefresh } from "./live-refresh.tsx";

/** The user's listings: reprice or withdraw, one or several at once. */
export function MyListings() {
  const [version, refresh] = useLiveRefresh();
  const onSale = useLoad(
    () =>
      web<typeof getWebOnSale>("GET", "/api/market/sell_order/on_sale", {
        query: { game: "csgo", page_size: 200 },
      }),
    [version],
  );
  const [prices, setPrices] = useState<Record<string, string>>({});
  const [results, setResults] = useState<Record<string, string> | null>(null);
  const [, actionError, run] = useAction();

  const act = (write: () => Promise<Record<string, string>>) =>
    run(async () => {
      setResults(null);
      setResults(await write());
      refresh();
      return "";
    });
  const reprice = (id: string) =>
    act(() =>
      web<typeof changeWebSellOrders>("POST", "/api/market/sell_order/change", {
        body: { game: "csgo", sell_orders: [{ sell_order_id: id, price: prices[id] ?? "" }] },
      }),
    );
  const withdraw = (id: string) =>
    act(() =>
      web<typeof cancelWebSellOrders>("POST", "/api/market/sell_order/cancel", {
        body: { game: "csgo", sell_orders: [id] },
      }),
    );

  const answer = onSale.value;
  if (!answer)
    return onSale.error ? <p role="alert">{onSale.error}</p> : <p aria-busy="true">{t("Loading…")}</p>;
  return (
    <section aria-labelledby="listings-title">
      <h2 id="listings-title">{t("My listings")}</h2>
      {answer.items.length === 0 ? <p class="muted">{t("Nothing on sale.")}</p> : null}
      <table aria-label={t("My listings")}>
        <thead>
          <tr>
            <th scope="col">{t("Item")}</th>
            <th scope="col">{t("Float")}</th>
            <th scope="col">{t("Price")}</th>
            <th scope="col">{t("New price")}</th>
            <th scope="col">
              <span class="visually-hidden">{t("Actions")}</span>
            </th>
          </tr>
        </thead>
        <tbody>
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
                  <button type="button" disabled={!prices[listing.id]} onClick={() => reprice(listing.id)}>
                    {t("Reprice")}
                  </button>
                </td>
                <td>
                  <button type="button" onClick={() => withdraw(listing.id)}>
                    {t("Withdraw")}
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <BatchOutcome results={results} error={actionError || onSale.error} />
    </section>
  );
}
