import type { createWebSellOrders, getWebInventory } from "@skinmarket/contract";
import { useRef, useState } from "preact/hooks";
import { web, type WebData } from "../../api.ts";
import { ItemImage } from "../../components/item-image.tsx";
import { ListTable, usePaging } from "../../components/paged-list.tsx";
import { WearBar } from "../../components/wear-bar.tsx";
import { dateTime, goodsName, money } from "../../format.ts";
import { t } from "../../i18n.ts";
import { Feedback, useAction, useLoad } from "../../use-data.tsx";
import { BatchOutcome, useLiveRefresh } from "./live-refresh.tsx";
import { SalePreview } from "./sale-preview.tsx";
import { SellNowDialog, type SellNowItem } from "./sell-now-dialog.tsx";

type InventoryItem = WebData<typeof getWebInventory>["items"][number];

/** Items of the inventory a page. */
const PAGE_SIZE = 50;

/**
 * The bound platform account's items, a page at a time; several can be listed at once, each
 * priced with its fee and what the seller receives, chosen on one page or across several (the
 * choice and prices outlive a page change); an item wanted by a buy order sells to it at once.
 * A live event reloads the page shown only when it concerns the inventory: a listing's change
 * from the marketplace's records, a trade's also from the platform (`force`), since a trade moves
 * items (docs/design/website-actions.md#live-refresh-of-the-inventory).
 */
export function Inventory() {
  const fromPlatform = useRef(true);
  const [version, refresh] = useLiveRefresh((event) => {
    if (event.kind === "trade") fromPlatform.current = true;
    return event.kind === "trade" || event.kind === "listing";
  });
  const paging = usePaging(PAGE_SIZE);
  const inventory = useLoad(() => {
    const force = fromPlatform.current ? 1 : 0;
    fromPlatform.current = false;
    return web<typeof getWebInventory>("GET", "/api/market/steam_inventory", {
      query: { game: "csgo", force, ...paging.query },
    });
  }, [version, paging.pageNum]);
  const [prices, setPrices] = useState<Record<string, string>>({});
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [names, setNames] = useState<Record<string, string>>({});
  const [results, setResults] = useState<Record<string, string> | null>(null);
  const [selling, setSelling] = useState<SellNowItem | null>(null);
  const [, listError, run, busy] = useAction();

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
  if (inventory.error && !answer) return <Feedback message="" error={inventory.error} />;
  if (!answer) return <p aria-busy="true">{t("Loading…")}</p>;
  const items = answer.items;
  const select = (item: InventoryItem, checked: boolean) => {
    const next = new Set(selected);
    if (checked) next.add(item.assetid);
    else next.delete(item.assetid);
    setSelected(next);
    setNames({ ...names, [item.assetid]: goodsName(item) });
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
          const canList = item.progress === 0 && item.open_trade_id === null;
          const paid = answer.bought_prices[item.assetid];
          const previewId = `sale-${item.assetid}`;
          const outcome = results?.[item.assetid];
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
              <td>
                {/* A flex box inside the cell: a cell of its own display would leave the table's rows. */}
                <div class="with-image">
                  <ItemImage
                    iconUrl={item.icon_url}
                    name={name}
                    rarity={answer.goods_infos[String(item.goods_id)]?.tags?.rarity?.internal_name}
                  />
                  <a href={`/goods/${item.goods_id}`}>{name}</a>
                </div>
              </td>
              <td>
                <WearBar paintwear={item.asset_info.paintwear} />
              </td>
              <td>{Number(item.sell_min_price) > 0 ? money(item.sell_min_price) : t("No listings")}</td>
              <td>
                {canList ? (
                  <>
                    <input
                      aria-label={t("Price for {name}", { name })}
                      aria-describedby={prices[item.assetid] ? previewId : undefined}
                      inputMode="decimal"
                      size={8}
                      value={prices[item.assetid] ?? ""}
                      onInput={(event) => setPrices({ ...prices, [item.assetid]: event.currentTarget.value })}
                    />
                    <SalePreview
                      id={previewId}
                      price={prices[item.assetid] ?? ""}
                      rule={answer.seller_fee}
                      paid={paid}
                    />
                  </>
                ) : (
                  money(item.sell_order_price)
                )}
              </td>
              <td>
                {item.progress === 1 ? (
                  t("On sale")
                ) : item.open_trade_id !== null ? (
                  <a href="/me/sales">{t("Sold, awaiting delivery")}</a>
                ) : item.tradable ? (
                  t("Tradable")
                ) : (
                  t("Trade cooldown until {d}", { d: dateTime(item.tradable_time) })
                )}
                {/* Offered only when someone else bids: the user's own order is no buyer. */}
                {canList && Number(item.sell_now_price) > 0 ? (
                  <button
                    type="button"
                    class="sell-now"
                    aria-label={t("Sell now for {p}: {name} to the highest buy order", {
                      name,
                      p: money(item.sell_now_price),
                    })}
                    onClick={() => setSelling({ assetid: item.assetid, goods_id: item.goods_id, name, paid })}
                  >
                    {t("Sell now for {p}", { p: money(item.sell_now_price) })}
                  </button>
                ) : null}
                {outcome && outcome !== "OK" ? <span class="outcome error small">{outcome}</span> : null}
              </td>
            </tr>
          );
        })}
      </ListTable>
      <div class="action-bar">
        <button type="button" class="primary" disabled={selected.size === 0 || busy} onClick={list}>
          {t("List {n} selected for sale", { n: selected.size })}
        </button>
        <BatchOutcome results={results} error={listError || inventory.error} names={names} />
      </div>
      {selling ? (
        <SellNowDialog
          item={selling}
          rule={answer.seller_fee}
          onClose={(sold) => {
            setSelling(null);
            if (sold) refresh();
          }}
        />
      ) : null}
    </section>
  );
}
