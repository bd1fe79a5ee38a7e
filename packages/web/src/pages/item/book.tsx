import type { getBuyOrderBook } from "@skinmarket/contract";
import { web } from "../../api.ts";
import { ListTable, usePaging } from "../../components/paged-list.tsx";
import { money } from "../../format.ts";
import { t } from "../../i18n.ts";
import { currentUser } from "../../session.ts";
import { useStore } from "../../store.ts";
import { useLoad } from "../../use-data.tsx";
import { BuyOrderForm } from "./buy-order-form.tsx";
import { Depth } from "./depth.tsx";
import type { GoodsInfo } from "./item-page.tsx";

/** The goods' buy-order book, and placing a buy order for a signed-in user. */
export function Book(props: { goodsId: number; version: number; info: GoodsInfo; onPlaced: () => void }) {
  const user = useStore(currentUser);
  const paging = usePaging(20);
  const book = useLoad(
    () =>
      web<typeof getBuyOrderBook>("GET", "/api/market/goods/buy_order", {
        query: { game: "csgo", goods_id: props.goodsId, ...paging.query },
      }),
    [props.goodsId, props.version, paging.pageNum],
  );
  const orders = book.value?.items;
  const users = book.value?.user_infos ?? {};
  const error = book.error;
  return (
    <>
      <Depth goodsId={props.goodsId} version={props.version} />
      {error ? <p role="alert">{error}</p> : null}
      {book.value?.total_count === 0 ? <p class="muted">{t("No buy orders.")}</p> : null}
      {orders && book.value!.total_count > 0 ? (
        <ListTable
          label={t("Buy orders")}
          range={paging.range(book.value)}
          headers={[t("Price"), t("Wanted"), t("Conditions"), t("Buyer")]}
        >
          {orders.map((order) => (
            <tr key={order.id}>
              <td class="price">{money(order.price)}</td>
              <td>{order.num}</td>
              <td>
                {order.specific.map((entry) => `${entry.type}: ${entry.values.join("–")}`).join("; ") || "—"}
              </td>
              <td>{users[order.user_id]?.nickname ?? order.user_id}</td>
            </tr>
          ))}
        </ListTable>
      ) : null}
      {user ? <BuyOrderForm info={props.info} onPlaced={props.onPlaced} /> : null}
    </>
  );
}
