import type { cancelWebPurchase, getWebSellHistory, listBoughtItems, sendOffer } from "@skinmarket/contract";
import { own, web } from "../../api.ts";
import { ListTable, usePaging } from "../../components/paged-list.tsx";
import { dateTime, goodsName, money } from "../../format.ts";
import { t } from "../../i18n.ts";
import { Feedback, useAction, useLoad } from "../../use-data.tsx";
import { CancelPurchase, useCancelWindows } from "./cancel-purchase.tsx";
import { useLiveRefresh } from "./live-refresh.tsx";
import { nextStep, STATE_NAMES, type Trade, type TradeList, type TradeSide } from "./trade-steps.ts";

function loadTrades(kind: TradeSide, page: { page_num: number; page_size: number }): Promise<TradeList> {
  const query = { game: "csgo", ...page };
  return kind === "purchases"
    ? web<typeof listBoughtItems>("GET", "/api/market/buy_order/history", { query })
    : web<typeof getWebSellHistory>("GET", "/api/market/sell_order/history", { query });
}

/** Purchases (`buy_order/history`) or sales (`sell_order/history`), each with its state and next step. */
export function Trades(props: { kind: TradeSide }) {
  const [version, refresh] = useLiveRefresh();
  const paging = usePaging(50);
  const trades = useLoad(() => loadTrades(props.kind, paging.query), [version, props.kind, paging.pageNum]);
  const [message, actionError, run, busy, at] = useAction();
  useCancelWindows(trades.value, refresh);

  const sendTradeOffer = (trade: Trade) =>
    run(async () => {
      await own<typeof sendOffer>("POST", "/api/market/developer/sell_order/send_offer", {
        body: { order_id: trade.id },
      });
      refresh();
      return t("Offer sent for {id}.", { id: trade.id });
    }, trade.id);

  // Offered only once the seller's 30 minutes have passed (`buyer_cancel_timeout` 0), when it can succeed.
  const cancelPurchase = (trade: Trade) =>
    run(async () => {
      await web<typeof cancelWebPurchase>("POST", "/api/market/bill_order/deliver/cancel", {
        body: { game: "csgo", bill_order_id: trade.id },
      });
      refresh();
      return t("Purchase {id} cancelled; the money is back.", { id: trade.id });
    }, trade.id);

  const title = props.kind === "purchases" ? t("Purchases") : t("Sales");
  const answer = trades.value;
  if (!answer)
    return trades.error ? <p role="alert">{trades.error}</p> : <p aria-busy="true">{t("Loading…")}</p>;
  return (
    <section aria-labelledby="trades-title">
      <div class="row">
        <h2 id="trades-title">{title}</h2>
        <button type="button" onClick={refresh}>
          {t("Refresh")}
        </button>
      </div>
      {answer.total_count === 0 ? <p class="muted">{t("None yet.")}</p> : null}
      <ListTable
        label={title}
        range={paging.range(answer)}
        headers={[t("Trade"), t("Item"), t("Price"), t("State"), t("What happens next")]}
      >
        {answer.items.map((trade: Trade) => (
          <tr key={trade.id}>
            <td>
              {trade.id}
              <br />
              <span class="muted small">{dateTime(trade.created_at)}</span>
            </td>
            <td>
              <a href={`/goods/${trade.goods_id}`}>{goodsName(answer.goods_infos[String(trade.goods_id)])}</a>
            </td>
            <td class="price">{money(trade.price)}</td>
            <td>
              <span class={`state state-${trade.state.toLowerCase()}`}>
                {t(STATE_NAMES[trade.state] ?? trade.state)}
              </span>
            </td>
            <td>
              {nextStep(trade, props.kind)}
              {props.kind === "purchases" && trade.state === "SELLER_TO_SEND_OFFER" ? (
                <CancelPurchase trade={trade} busy={busy} onCancel={() => cancelPurchase(trade)} />
              ) : null}
              {props.kind === "sales" && trade.state === "SELLER_TO_SEND_OFFER" ? (
                <button type="button" disabled={busy} onClick={() => sendTradeOffer(trade)}>
                  {t("Send offer")}
                </button>
              ) : null}
              <Feedback message={message} error={actionError} at={at} here={trade.id} />
            </td>
          </tr>
        ))}
      </ListTable>
      {trades.error ? <Feedback message="" error={trades.error} /> : null}
    </section>
  );
}
