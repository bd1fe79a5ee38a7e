import type { cancelWebBuyOrders, listWebBuyOrders } from "@skinmarket/contract";
import { useState } from "preact/hooks";
import { web } from "../../api.ts";
import { HiddenHeader, ListTable, usePaging } from "../../components/paged-list.tsx";
import { money } from "../../format.ts";
import { t } from "../../i18n.ts";
import { useAction, useLoad } from "../../use-data.tsx";
import { BuyOrderStatus } from "./buy-order-status.tsx";
import { BatchOutcome, useLiveRefresh } from "./live-refresh.tsx";

/**
 * The user's buy orders waiting for items (`buy_order/wait_supply`), cancelled through
 * `buy_order/cancel`, and online or offline through the official `buy_order/status`, all with the
 * session (docs/design/website.md#how-the-website-authenticates).
 */
export function MyBuyOrders() {
  const [version, refresh] = useLiveRefresh();
  const paging = usePaging(50);
  const waiting = useLoad(
    () =>
      web<typeof listWebBuyOrders>("GET", "/api/market/buy_order/wait_supply", {
        query: { game: "csgo", ...paging.query },
      }),
    [version, paging.pageNum],
  );
  const [results, setResults] = useState<Record<string, string> | null>(null);
  const [, cancelError, run] = useAction();

  const cancel = (id: string) =>
    run(async () => {
      setResults(
        await web<typeof cancelWebBuyOrders>("POST", "/api/market/buy_order/cancel", {
          body: { game: "csgo", buy_orders: [id] },
        }),
      );
      refresh();
      return "";
    });

  const orders = waiting.value?.items;
  const error = cancelError || waiting.error;
  return (
    <section aria-labelledby="orders-title">
      <h2 id="orders-title">{t("Buy orders")}</h2>
      <p class="muted">
        {t("Orders waiting for items; filled ones are among the purchases.")}{" "}
        {t("Place new ones from an item's Buy orders tab.")}
      </p>
      {error ? <p role="alert">{error}</p> : null}
      {waiting.value?.total_count === 0 ? <p class="muted">{t("No buy orders waiting.")}</p> : null}
      {orders ? (
        <ListTable
          label={t("Buy orders")}
          range={paging.range(waiting.value)}
          headers={[
            t("Order"),
            t("Goods"),
            t("Price"),
            t("Bought / wanted"),
            t("Conditions"),
            t("State"),
            <HiddenHeader text={t("Actions")} />,
          ]}
        >
          {orders.map((order) => (
            <tr key={order.id}>
              <td>{order.id}</td>
              <td>
                <a href={`/goods/${order.goods_id}`}>{order.goods_id}</a>
              </td>
              <td class="price">{money(order.price)}</td>
              <td>
                {order.real_num} / {order.num}
              </td>
              <td>
                {order.specific.map((entry) => `${entry.type}: ${entry.values.join("–")}`).join("; ") || "—"}
              </td>
              <td>{order.state}</td>
              <td>
                {order.state === "progressing" || order.state === "waiting" ? (
                  <button type="button" onClick={() => cancel(order.id)}>
                    {t("Cancel order {id}", { id: order.id })}
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </ListTable>
      ) : null}
      <BatchOutcome results={results} error="" />
      <h3>{t("Online or offline")}</h3>
      <BuyOrderStatus />
    </section>
  );
}
