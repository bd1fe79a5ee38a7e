import type { getBillOrders } from "@skinmarket/contract";
import { web } from "../../api.ts";
import { WearBar } from "../../components/wear-bar.tsx";
import { dateTime, money } from "../../format.ts";
import { t } from "../../i18n.ts";
import { useLoad } from "../../use-data.tsx";

/** The goods' completed sales, newest first: a listing bought or a buy order filled. */
export function Sales(props: { goodsId: number; version: number }) {
  const bills = useLoad(
    () =>
      web<typeof getBillOrders>("GET", "/api/market/goods/bill_order", {
        query: { game: "csgo", goods_id: props.goodsId },
      }),
    [props.goodsId, props.version],
  );
  const sales = bills.value?.items;
  const error = bills.error;
  if (error) return <p role="alert">{error}</p>;
  if (!sales) return <p aria-busy="true">{t("Loading…")}</p>;
  if (sales.length === 0) return <p class="muted">{t("No completed sales yet.")}</p>;
  return (
    <table aria-label={t("Recent sales")}>
      <thead>
        <tr>
          <th scope="col">{t("Price")}</th>
          <th scope="col">{t("Float")}</th>
          <th scope="col">{t("Paint seed")}</th>
          <th scope="col">{t("How")}</th>
          <th scope="col">{t("When")}</th>
        </tr>
      </thead>
      <tbody>
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
      </tbody>
    </table>
  );
}
