import type { getBuyOrderDepth } from "@skinmarket/contract";
import { web } from "../../api.ts";
import { ListTable } from "../../components/paged-list.tsx";
import { money } from "../../format.ts";
import { t } from "../../i18n.ts";
import { useLoad } from "../../use-data.tsx";

/** Price levels shown: the best ones, as Steam's order book shows its top bids. */
const LEVELS = 10;

/**
 * The buy-order book summed by price (`goods/buy_order_depth`): each price with the units wanted
 * there and at every higher price, which is what a seller can sell at once down to that price.
 */
export function Depth(props: { goodsId: number; version: number }) {
  const depth = useLoad(
    () =>
      web<typeof getBuyOrderDepth>("GET", "/api/market/goods/buy_order_depth", {
        query: { game: "csgo", goods_id: props.goodsId, levels: LEVELS },
      }),
    [props.goodsId, props.version],
  );
  const answer = depth.value;
  if (depth.error) return <p role="alert">{depth.error}</p>;
  if (!answer || answer.total_levels === 0) return null;
  let atOrAbove = 0;
  return (
    <section class="depth" aria-labelledby="depth-title">
      <h2 id="depth-title">{t("Bids by price")}</h2>
      <p class="muted small">
        {t("{n} wanted at {levels} prices", { n: answer.total_num, levels: answer.total_levels })}
      </p>
      <ListTable
        label={t("Bids by price")}
        headers={[t("Price"), t("Quantity"), t("Orders"), t("At this price or higher")]}
      >
        {answer.levels.map((level) => {
          atOrAbove += level.num;
          return (
            <tr key={level.price}>
              <td class="price">{money(level.price)}</td>
              <td>{level.num}</td>
              <td>{level.orders}</td>
              <td>{atOrAbove}</td>
            </tr>
          );
        })}
      </ListTable>
    </section>
  );
}
