import type { getBuyOrderBook, supplyBuyOrder, SupplyBuyOrderAnswer } from "@skinmarket/contract";
import { useState } from "preact/hooks";
import { own, web } from "../../api.ts";
import { useModal } from "../../components/modal.ts";
import { fenOf, money, yuanOf } from "../../format.ts";
import { t } from "../../i18n.ts";
import { currentUser } from "../../session.ts";
import { Feedback, useAction, useLoad } from "../../use-data.tsx";
import { feeOf, type SellerFeeRule } from "./sale-preview.tsx";

/** What the dialog needs of an inventory item. */
export interface SellNowItem {
  assetid: string;
  goods_id: number;
  name: string;
  paid: string | undefined;
}

/**
 * "Sell now to the highest buy order" (docs/design/website-actions.md#selling-help), in a modal
 * dialog: it reads the goods' book (`goods/buy_order`, best price first), offers the best order not
 * the user's own with its fee and what the user receives (and a warning below what they paid),
 * and on confirmation supplies it (`buy_order/supply`, the official operation, with the session).
 * The order's conditions are the server's to check: a refusal shows in the dialog with its reason.
 */
export function SellNowDialog(props: {
  item: SellNowItem;
  rule: SellerFeeRule;
  onClose: (sold: boolean) => void;
}) {
  const [sold, setSold] = useState(false);
  const [message, error, run, busy] = useAction();
  const dialog = useModal<HTMLDialogElement>(() => props.onClose(sold));
  const book = useLoad(
    () =>
      web<typeof getBuyOrderBook>("GET", "/api/market/goods/buy_order", {
        query: { game: "csgo", goods_id: props.item.goods_id, page_num: 1, page_size: 20 },
      }),
    [props.item.goods_id],
  );
  const me = currentUser.value?.id;
  const order = book.value?.items.find((entry) => entry.user_id !== me);
  const price = order ? (fenOf(order.price) ?? 0) : 0;
  const fee = feeOf(price, props.rule);
  const paid = props.item.paid ? fenOf(props.item.paid) : null;

  const sell = () =>
    run(async () => {
      if (!order) return "";
      const answer: SupplyBuyOrderAnswer = await own<typeof supplyBuyOrder>(
        "POST",
        "/api/market/developer/buy_order/supply",
        {
          body: { game: "csgo", buy_order_id: order.id, assets: [props.item.assetid] },
        },
      );
      const outcome = answer[props.item.assetid];
      if (outcome !== "OK") throw new Error(typeof outcome === "string" ? outcome : t("Not sold."));
      setSold(true);
      return t("Sold {name} for {p}. Send the trade offer from your sales.", {
        name: props.item.name,
        p: money(order.price),
      });
    });

  return (
    <dialog ref={dialog} aria-labelledby="sell-now-title" class="dialog">
      <h2 id="sell-now-title">{t("Sell {name} now", { name: props.item.name })}</h2>
      {book.error ? <Feedback message="" error={book.error} /> : null}
      {!book.value && !book.error ? <p aria-busy="true">{t("Loading…")}</p> : null}
      {book.value && !order ? <p>{t("No buy order to sell to right now.")}</p> : null}
      {order && !sold ? (
        <dl class="sale-terms">
          <dt>{t("Highest buy order")}</dt>
          <dd>{money(order.price)}</dd>
          <dt>{t("Fee")}</dt>
          <dd>{money(yuanOf(fee))}</dd>
          <dt>{t("You receive")}</dt>
          <dd>{money(yuanOf(Math.max(0, price - fee)))}</dd>
        </dl>
      ) : null}
      {order && !sold && paid !== null && price < paid ? (
        <p class="warning">{t("Below the {paid} you paid for it", { paid: money(props.item.paid) })}</p>
      ) : null}
      <Feedback message={message} error={error} />
      <div class="row">
        {order && !sold ? (
          <button type="button" class="primary" disabled={busy} onClick={sell}>
            {t("Sell for {p}", { p: money(order.price) })}
          </button>
        ) : null}
        <button type="button" onClick={() => props.onClose(sold)}>
          {sold ? t("Close") : t("Cancel")}
        </button>
      </div>
    </dialog>
  );
}
