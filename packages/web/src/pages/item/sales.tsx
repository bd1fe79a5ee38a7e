import type { getBillOrders } from "@skinmarket/contract";
import { web } from "../../api.ts";
import { ListTable, usePaging } from "../../components/paged-list.tsx";
import { WearBar } from "../../components/wear-bar.tsx";
import { dateTime, money } from "../../format.ts";
import { t } from "../../i18n.ts";
import { useLoad } from "../../use-data.tsx";

/** The goods' completed sales, newest first, a page at a time: a listing bought or a buy order filled. */
export function Sales(props: { goodsId: number; version: number }) {
  const paging = usePaging(20);
  const bills = useLoad(
    () =>
      web<typeof getBillOrders>("GET", "/api/market/goods/bill_order", {
        query: { game: "csgo", goods_id: props.goodsId, ...paging.query },
      }),
    [props.goodsId, props.version, paging.pageNum],
  );
  const sales = bills.value?.items;
  const error = bills.error;
  if (error) return <p role="alert">{error}</p>;
  if (!sales) return <p aria-busy="true">{t("Loading…")}</p>;
  if (bills.value!.total_count === 0) return <p class="muted">{t("No completed sales yet.")}</p>;
  return (
    <ListTable
      label={t("Recent sales")}
      range={paging.range(bills.value)}
      headers={[t("Price"), t("Float"), t("Paint seed"), t("How"), t("When")]}
    >
      {sales.map((sale) => (
        <tr key={sale.id}>
          <td class="price">{money(sale.price)}</td>
          <td>
            <WearBar paintwear={sale.asset_info.paintwear} />
          </td>
          <td>{sale.asset_info.paintseed ?? "—"}</td>
          <td>{sale.type === 1 ? t("Listing bought") : t("Buy order filled")}</td>
          <td>{dateTime(sale.transact_time)}</td>
        </tr>
      ))}
    </ListTable>
  );
}
