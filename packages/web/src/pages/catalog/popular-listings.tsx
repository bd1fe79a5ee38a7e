import type { getPopularSellOrders } from "@skinmarket/contract";
import { web } from "../../api.ts";
import { ItemImage } from "../../components/item-image.tsx";
import { goodsName, money } from "../../format.ts";
import { t } from "../../i18n.ts";
import { useLoad } from "../../use-data.tsx";

/** What a visitor sees below the catalog: the cheapest listings of the most traded goods (anonymous). */
export function PopularListings() {
  const popular = useLoad(
    () =>
      web<typeof getPopularSellOrders>("GET", "/api/index/popular_sell_order", { query: { game: "csgo" } }),
    [],
  );
  const answer = popular.value;
  const error = popular.error;
  return (
    <section class="popular">
      <h2>{t("Popular listings")}</h2>
      {error ? <p role="alert">{error}</p> : null}
      {answer ? (
        <ul class="grid" aria-label={t("Popular listings")}>
          {answer.items.map((item) => {
            const goods = answer.goods_infos[String(item.goods_id)];
            return (
              <li key={item.id} class="card">
                <a href={`/goods/${item.goods_id}`}>
                  <ItemImage
                    iconUrl={goods?.icon_url}
                    name={goodsName(goods)}
                    rarity={goods?.tags?.rarity?.internal_name}
                  />
                  <span class="name">{goodsName(goods)}</span>
                </a>
                <span class="price">{money(item.price)}</span>
              </li>
            );
          })}
        </ul>
      ) : error ? null : (
        <p aria-busy="true">{t("Loading…")}</p>
      )}
    </section>
  );
}
