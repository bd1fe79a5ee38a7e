import type { cancelWebBuyOrders, listWebBuyOrders } from "@skinmarket/contract";
import { useState } from "preact/hooks";
import { web } from "../../api.ts";
import { HiddenHeader, ListTable, usePaging } from "../../components/paged-list.tsx";
import { goodsName, money } from "../../format.ts";
import { t } from "../../i18n.ts";
import { Feedback, useAction, useLoad } from "../../use-data.tsx";
import { BuyOrderStatus } from "./buy-order-status.tsx";
import { BatchOutcome, useLiveRefresh } from "./live-refresh.tsx";

/** A buy order's state in words (the API's `progressing` and `waiting`, and the ended ones). */
const ORDER_STATES: Record<string, string> = {
  progressing: "Open",
  waiting: "Payment pending",
  success: "Filled",
  failed: "Order failed",
};

type Order = { num: number; real_num: number; frozen_num: number };

/**
 * How far an order got, in words: units delivered, units bought and on their way, units still
 * wanted. A bid that bought at once reads "1 bought, awaiting delivery", not "0 / 1".
 */
function progressOf(order: Order): string {
  const wanted = order.num - order.real_num - order.frozen_num;
  const parts = [
    order.real_num > 0 ? t("{n} delivered", { n: order.real_num }) : "",
    order.frozen_num > 0 ? t("{n} bought, awaiting delivery", { n: order.frozen_num }) : "",
    wanted > 0 ? t("{n} of {total} still wanted", { n: wanted, total: order.num }) : "",
  ];
  return parts.filter(Boolean).join("; ");
}

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
  const [, cancelError, run, busy, at] = useAction();

  // The outcome shows in the row of the order cancelled.
  const cancel = (id: string) =>
    run(async () => {
      setResults(null);
      setResults(
        await web<typeof cancelWebBuyOrders>("POST", "/api/market/buy_order/cancel", {
          body: { game: "csgo", buy_orders: [id] },
        }),
      );
      refresh();
      return "";
    }, id);

  const orders = waiting.value?.items;
  const error = waiting.error;
  return (
    <section aria-labelledby="orders-title">
      <h2 id="orders-title">{t("Buy orders")}</h2>
      <p class="muted">
        {t("Orders waiting for items; filled ones are among the purchases.")}{" "}
        {t("Place new ones from an item's Buy orders tab.")}
      </p>
      {error ? <Feedback message="" error={error} /> : null}
      {at && orders && !orders.some((order) => order.id === at) ? (
        // The cancelled order has left the list: its outcome stays in view above it.
        <BatchOutcome results={results} error={cancelError} names={{}} />
      ) : null}
      {waiting.value?.total_count === 0 ? <p class="muted">{t("No buy orders waiting.")}</p> : null}
      {orders ? (
        <ListTable
          label={t("Buy orders")}
          range={paging.range(waiting.value)}
          headers={[
            t("Order"),
            t("Goods"),
            t("Price"),
            t("Progress"),
            t("Conditions"),
            t("State"),
            <HiddenHeader text={t("Actions")} />,
          ]}
        >
          {orders.map((order) => {
            const name =
              goodsName(waiting.value!.goods_infos[String(order.goods_id)]) || String(order.goods_id);
            return (
              <tr key={order.id}>
                <td>{order.id}</td>
                <td>
                  <a href={`/goods/${order.goods_id}`}>{name}</a>
                </td>
                <td class="price">{money(order.price)}</td>
                <td>{progressOf(order)}</td>
                <td>
                  {order.specific.map((entry) => `${entry.type}: ${entry.values.join("–")}`).join("; ") ||
                    "—"}
                </td>
                <td>{t(ORDER_STATES[order.state] ?? order.state)}</td>
                <td>
                  {order.state === "progressing" || order.state === "waiting" ? (
                    <button type="button" disabled={busy} onClick={() => cancel(order.id)}>
                      {t("Cancel order {id}", { id: order.id })}
                    </button>
                  ) : null}
                  {at === order.id ? (
                    <BatchOutcome results={results} error={cancelError} names={{ [order.id]: name }} />
                  ) : null}
                </td>
              </tr>
            );
          })}
        </ListTable>
      ) : null}
      {waiting.value || error ? (
        // Drawn once the list is there, below it: arriving before it, the list would push it down.
        <>
          <h3>{t("Online or offline")}</h3>
          <BuyOrderStatus />
        </>
      ) : null}
    </section>
  );
}
