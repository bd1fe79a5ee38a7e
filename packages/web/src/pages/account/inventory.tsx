import type { createWebSellOrders, getWebInventory } from "@skinmarket/contract";
import { useState } from "preact/hooks";
import { web, type WebData } from "../../api.ts";
import { ItemImage } from "../../components/item-image.tsx";
import { ListTable, usePaging } from "../../components/paged-list.tsx";
import { WearBar } from "../../components/wear-bar.tsx";
import { dateTime, goodsName, money } from "../../format.ts";
import { t } from "../../i18n.ts";
import { useAction, useLoad } from "../../use-data.tsx";
import { BatchOutcome, useLiveRefresh } from "./live-refresh.tsx";

type InventoryItem = WebData<typeof getWebInventory>["items"][number];

/** Items of the inventory a page. */
const PAGE_SIZE = 50;

/**
 * The bound platform account's items, a page at a time; several can be listed at once, each
 * priced, chosen on one page or across several (the choice and prices outlive a page change).
 */
export function Inventory() {
  const [version, refresh] = useLiveRefresh();
  const paging = usePaging(PAGE_SIZE);
  const inventory = useLoad(
    () =>
      web<typeof getWebInventory>("GET", "/api/market/steam_inventory", {
        query: { game: "csgo", force: 1, ...paging.query },
      }),
    [version, paging.pageNum],
  );
  const [prices, setPrices] = useState<Record<string, string>>({});
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [results, setResults] = useState<Record<string, string> | null>(null);
  const [, listError, run] = useAction();

  const list = () =>
    run(async () => {
      setResults(null);
      const assets = [...selected].map((assetid) => ({ assetid, price: prices[assetid] ?? "" }));
      setResults(
        await web<typeof createWebSellOrders>("POST", "/api/market/sell_order/create/manual_plus", {
          body: { game: "csgo", assets },
        }),
      );
      setSelected(new Set());
      refresh();
      return "";
    });

  const answer = inventory.value;
  if (inventory.error && !answer) return <p role="alert">{inventory.error}</p>;
  if (!answer) return <p aria-busy="true">{t("Loading…")}</p>;
  const items = answer.items;
  const select = (item: InventoryItem, checked: boolean) => {
    const next = new Set(selected);
    if (checked) next.add(item.assetid);
    else next.delete(item.assetid);
    setSelected(next);
    if (!prices[item.assetid] && Number(item.sell_min_price) > 0)
      setPrices({ ...prices, [item.assetid]: item.sell_min_price });
  };
  return (
    <section aria-labelledby="inventory-title">
      <h2 id="inventory-title">{t("Inventory")}</h2>
      {answer.total_count === 0 ? <p class="muted">{t("No items in your bound platform account.")}</p> : null}
      <ListTable
        label={t("Inventory")}
        range={paging.range(answer)}
        headers={[t("Select"), t("Item"), t("Float"), t("Lowest price now"), t("Your price"), t("State")]}
      >
        {items.map((item) => {
          const name = goodsName(item);
          const canList = item.progress === 0;
          return (
            <tr key={item.assetid}>
              <td>
                <input
                  type="checkbox"
                  aria-label={t("Select {name}", { name })}
                  disabled={!canList}
                  checked={selected.has(item.assetid)}
                  onChange={(event) => select(item, event.currentTarget.checked)}
                />
              </td>
              <td class="with-image">
                <ItemImage
                  iconUrl={item.icon_url}
                  name={name}
                  rarity={answer.goods_infos[String(item.goods_id)]?.tags?.rarity?.internal_name}
                />
                <a href={`/goods/${item.goods_id}`}>{name}</a>
              </td>
              <td>
                <WearBar paintwear={item.asset_info.paintwear} />
              </td>
              <td>{Number(item.sell_min_price) > 0 ? money(item.sell_min_price) : t("No listings")}</td>
              <td>
                {canList ? (
                  <input
                    aria-label={t("Price for {name}", { name })}
                    inputMode="decimal"
                    size={8}
                    value={prices[item.assetid] ?? ""}
                    onInput={(event) => setPrices({ ...prices, [item.assetid]: event.currentTarget.value })}
                  />
                ) : (
                  money(item.sell_order_price)
                )}
              </td>
              <td>
                {item.progress === 1
                  ? t("On sale")
                  : item.tradable
                    ? t("Tradable")
                    : t("Trade cooldown until {d}", { d: dateTime(item.tradable_time) })}
              </td>
            </tr>
          );
        })}
      </ListTable>
      <button type="button" class="primary" disabled={selected.size === 0} onClick={list}>
        {t("List {n} selected for sale", { n: selected.size })}
      </button>
      <BatchOutcome results={results} error={listError || inventory.error} />
    </section>
  );
}
