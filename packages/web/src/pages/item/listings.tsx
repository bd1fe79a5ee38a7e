import type { getGoodsSellOrders, getPaintwearRank } from "@skinmarket/contract";
import { useState } from "preact/hooks";
import { web, type WebData } from "../../api.ts";
import { ListTable, usePaging } from "../../components/paged-list.tsx";
import { WearBar } from "../../components/wear-bar.tsx";
import { dateTime, money } from "../../format.ts";
import { t } from "../../i18n.ts";
import { currentUser } from "../../session.ts";
import { useStore } from "../../store.ts";
import { useLoad } from "../../use-data.tsx";
import { BuyDialog } from "./buy-dialog.tsx";

/** One listing as the goods' listings page answers it. */
export type Listing = WebData<typeof getGoodsSellOrders>["items"][number];

/** The catalog's listing filters an item page's address may carry (`listingFiltersQuery`). */
export interface ListingFilters {
  min_paintwear?: string;
  max_paintwear?: string;
  paintseed?: string;
}

/** The listing filters of an item page's address: those the catalog's card carried over. */
export function listingFiltersOf(query: URLSearchParams): ListingFilters {
  const filters: ListingFilters = {};
  for (const key of ["min_paintwear", "max_paintwear", "paintseed"] as const) {
    const value = query.get(key);
    if (value) filters[key] = value;
  }
  return filters;
}

/** The filters in words: "float 0.1–0.2, paint seed 661". */
function filtersInWords(filters: ListingFilters): string {
  const { min_paintwear: min, max_paintwear: max, paintseed } = filters;
  const parts = [
    min && max
      ? t("float {min}–{max}", { min, max })
      : min
        ? t("float at least {min}", { min })
        : max
          ? t("float at most {max}", { max })
          : "",
    paintseed ? t("paint seed {seed}", { seed: paintseed }) : "",
  ];
  return parts.filter(Boolean).join(", ");
}

/**
 * The goods' listings, sorted and paged by the server, each with what a buyer looks at; "Buy" is
 * the price itself, in the first column, so a phone shows it without scrolling the table.
 */
export function Listings(props: {
  goodsId: number;
  filters: ListingFilters;
  version: number;
  onBought: () => void;
}) {
  const user = useStore(currentUser);
  const paging = usePaging(10);
  const [sortBy, setSortBy] = useState("default");
  const [buying, setBuying] = useState<Listing | null>(null);
  // Each listing comes with where its float ranks among every listing of the goods (CSFloat's
  // "#3 of 40"), read before the table is drawn: rows growing by a rank line later would move the page.
  const { min_paintwear: min, max_paintwear: max, paintseed: seed } = props.filters;
  const filtered = filtersInWords(props.filters);
  const listings = useLoad(async () => {
    const page = await web<typeof getGoodsSellOrders>("GET", "/api/market/goods/sell_order", {
      query: {
        game: "csgo",
        goods_id: props.goodsId,
        ...paging.query,
        sort_by: sortBy,
        ...(min ? { min_paintwear: Number(min) } : {}),
        ...(max ? { max_paintwear: Number(max) } : {}),
        ...(seed ? { paintseed: Number(seed) } : {}),
      },
    });
    const worn = page.items.filter((listing) => listing.asset_info.paintwear);
    const ranks =
      worn.length === 0
        ? undefined
        : // The listings are shown without ranks rather than not at all.
          await web<typeof getPaintwearRank>("GET", "/api/market/goods/paintwear_rank", {
            query: {
              game: "csgo",
              goods_id: props.goodsId,
              sell_order_ids: worn.map((listing) => listing.id).join(","),
            },
          }).catch(() => undefined);
    return { page, ranks };
  }, [props.goodsId, props.version, paging.pageNum, sortBy, min, max, seed]);
  const page = listings.value?.page;
  const ranks = listings.value?.ranks;

  if (listings.error) return <p role="alert">{listings.error}</p>;
  if (!page) return <p aria-busy="true">{t("Loading…")}</p>;
  return (
    <>
      <label class="inline">
        {t("Sort by")}
        <select
          value={sortBy}
          onChange={(event) => {
            setSortBy(event.currentTarget.value);
            paging.restart();
          }}
        >
          <option value="default">{t("Price: low to high")}</option>
          <option value="price.desc">{t("Price: high to low")}</option>
          <option value="paintwear.asc">{t("Float: low to high")}</option>
          <option value="created.desc">{t("Newest")}</option>
        </select>
      </label>
      {filtered ? (
        // The market's listing filters, carried over from the catalog, hold here too until dropped.
        <p class="notice">
          {t("Listings with {filters}, as the market was filtered.", { filters: filtered })}{" "}
          <a href={`/goods/${props.goodsId}`}>{t("Show every listing")}</a>
        </p>
      ) : null}
      {page.total_count === 0 ? <p class="muted">{t("Nothing on sale.")}</p> : null}
      <ListTable
        label={t("Listings")}
        range={paging.range(page)}
        headers={[t("Price"), t("Float"), t("Paint seed"), t("Details"), t("Seller")]}
      >
        {page.items.map((listing) => {
          const info = listing.asset_info.info;
          const nameTag = info.fraudwarnings?.match(/Name Tag: ''(.*)''/)?.[1];
          const inspect = info.inspect_info?.inspect_url || listing.asset_info.action_link;
          return (
            <tr key={listing.id}>
              <td class="price">
                {user && user.user_id !== listing.user_id ? (
                  <button type="button" onClick={() => setBuying(listing)}>
                    {t("Buy for {p}", { p: money(listing.price) })}
                  </button>
                ) : (
                  money(listing.price)
                )}
              </td>
              <td>
                <WearBar paintwear={listing.asset_info.paintwear} />
                {ranks?.ranks[listing.id] ? (
                  <span class="small muted rank">
                    {t("#{rank} lowest float of {n} listings", {
                      rank: ranks.ranks[listing.id]!,
                      n: ranks.total_count,
                    })}
                  </span>
                ) : null}
              </td>
              <td>{info.paintseed ?? "—"}</td>
              <td>
                <div class="details">
                  {info.phase_data?.name ? <span class="badge">{info.phase_data.name}</span> : null}
                  {info.metaphysic?.data.name ? (
                    <span class="badge">
                      {t("Fade")} {info.metaphysic.data.name}
                    </span>
                  ) : null}
                  {nameTag ? (
                    <span class="badge">
                      {t("Name tag")}: “{nameTag}”
                    </span>
                  ) : null}
                  {info.stickers.length > 0 ? (
                    <span class="stickers">
                      {t("Stickers")}:{" "}
                      {info.stickers
                        .map((sticker) => sticker.market_hash_name.replace(/^Sticker \| /, ""))
                        .join(", ")}
                    </span>
                  ) : null}
                  {listing.asset_info.has_tradable_cooldown ? (
                    <span class="badge warn">
                      {t("Trade cooldown until {d}", {
                        d: dateTime(listing.asset_info.tradable_unfrozen_time),
                      })}
                    </span>
                  ) : null}
                  {inspect ? (
                    <a href={inspect} class="small">
                      {t("Inspect in game")}
                    </a>
                  ) : null}
                </div>
              </td>
              <td>{page.user_infos[listing.user_id]?.nickname ?? listing.user_id}</td>
            </tr>
          );
        })}
      </ListTable>
      {buying ? (
        <BuyDialog
          listing={buying}
          goodsId={props.goodsId}
          onClose={(bought) => {
            setBuying(null);
            if (bought) props.onBought();
          }}
        />
      ) : null}
    </>
  );
}
