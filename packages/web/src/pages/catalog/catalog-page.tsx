import type { listCatalogGoods } from "@skinmarket/contract";
import { useState } from "preact/hooks";
import { web } from "../../api.ts";
import { ItemImage } from "../../components/item-image.tsx";
import { Pager } from "../../components/paged-list.tsx";
import { goodsName, money } from "../../format.ts";
import { language, t } from "../../i18n.ts";
import { navigate } from "../../router.ts";
import { currentUser } from "../../session.ts";
import { useStore } from "../../store.ts";
import TAGS from "../../tags.json";
import { useLoad } from "../../use-data.tsx";
import {
  FILTERS,
  LISTING_FILTERS,
  listingFiltersQuery,
  priceRangeError,
  readQuery,
  SORTS,
  urlOf,
} from "./catalog-query.ts";
import { PopularListings } from "./popular-listings.tsx";
import { SearchBox } from "./search-box.tsx";

/**
 * The catalog: every goods, searched, filtered, sorted and paged by the server, for anyone; a
 * visitor who is not searching also sees the popular listings below it.
 */
export function CatalogPage(props: { query: URLSearchParams }) {
  const user = useStore(currentUser);
  useStore(language);
  return <Catalog query={props.query} visitor={user === null} />;
}

function Catalog(props: { query: URLSearchParams; visitor: boolean }) {
  const values = readQuery(props.query);
  const key = urlOf(values);
  const catalog = useLoad(
    () =>
      web<typeof listCatalogGoods>("GET", "/api/market/goods", {
        query: { game: "csgo", page_size: 24, sort_by: "sell_num.desc", ...values },
      }),
    [key],
  );
  // A refused query shows its reason in place of the results it did not replace.
  const error = catalog.error;
  const page = error ? undefined : catalog.value;
  const [priceError, setPriceError] = useState("");

  const update = (changes: Record<string, string>) => {
    const next = { ...values, ...changes };
    if (!("page_num" in changes)) delete next.page_num;
    navigate(urlOf(next));
  };

  return (
    <div class="catalog">
      <h1>{t("Market")}</h1>
      <SearchBox initial={values.search ?? ""} onSearch={(search) => update({ search })} />
      <form
        class="filters"
        aria-label={t("Filters")}
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          const typed = ["min_price", "max_price", ...LISTING_FILTERS.map(([key]) => key)];
          const values = Object.fromEntries(typed.map((key) => [key, String(form.get(key) ?? "").trim()]));
          const refusal = priceRangeError(values.min_price ?? "", values.max_price ?? "");
          setPriceError(refusal);
          if (!refusal) update(values);
        }}
      >
        {FILTERS.map(([key, label]) => (
          <label key={key}>
            {t(label)}
            <select
              value={values[key] ?? ""}
              onChange={(event) => update({ [key]: event.currentTarget.value })}
            >
              <option value="">{t("Any")}</option>
              {(TAGS as Record<string, Array<{ name: string; zh: string; en: string }>>)[key]!.map((tag) => (
                <option key={tag.name} value={tag.name}>
                  {language.value === "zh" ? tag.zh : tag.en}
                </option>
              ))}
            </select>
          </label>
        ))}
        <label>
          {t("Min price")}
          <input
            name="min_price"
            inputMode="decimal"
            size={7}
            defaultValue={values.min_price ?? ""}
            aria-invalid={priceError ? "true" : undefined}
            aria-describedby={priceError ? "price-range-error" : undefined}
          />
        </label>
        <label>
          {t("Max price")}
          <input name="max_price" inputMode="decimal" size={7} defaultValue={values.max_price ?? ""} />
        </label>
        {LISTING_FILTERS.map(([key, label, mode]) => (
          <label key={key}>
            {t(label)}
            <input
              name={key}
              inputMode={mode}
              size={key === "sticker" ? 14 : 7}
              defaultValue={values[key] ?? ""}
              {...(key === "sticker" ? { placeholder: t("Name, e.g. Crown (Foil)") } : {})}
            />
          </label>
        ))}
        <button type="submit">{t("Apply filters")}</button>
        {priceError ? (
          <p id="price-range-error" role="alert" aria-live="assertive" class="outcome error">
            {priceError}
          </p>
        ) : null}
        <label>
          {t("Sort by")}
          <select
            value={values.sort_by ?? "sell_num.desc"}
            onChange={(event) => update({ sort_by: event.currentTarget.value })}
          >
            {SORTS.map(([value, label]) => (
              <option key={value} value={value}>
                {t(label)}
              </option>
            ))}
          </select>
        </label>
      </form>
      {error ? <p role="alert">{error}</p> : null}
      {page ? (
        <>
          <p class="muted count" aria-live="polite">
            {t("{n} goods", { n: page.total_count })}
          </p>
          <ul class="grid" aria-label={t("Goods")}>
            {page.items.map((item) => (
              <li key={item.id} class="card">
                <a href={`/goods/${item.id}${listingFiltersQuery(values)}`}>
                  <ItemImage
                    iconUrl={item.goods_info.icon_url}
                    name={goodsName(item)}
                    rarity={item.goods_info.info.tags.rarity?.internal_name}
                  />
                  <span class="name">{goodsName(item)}</span>
                </a>
                <span class="price">
                  {Number(item.sell_min_price) > 0 ? money(item.sell_min_price) : t("No listings")}
                </span>
                <span class="muted small">
                  {t("{n} on sale", { n: item.sell_num })} · {t("{n} traded", { n: item.transacted_num })}
                </span>
              </li>
            ))}
          </ul>
          <Pager
            label={t("Goods")}
            range={{
              from: page.items.length > 0 ? (page.page_num - 1) * page.page_size + 1 : 0,
              to: (page.page_num - 1) * page.page_size + page.items.length,
              total: page.total_count,
              previous: page.page_num > 1 ? () => update({ page_num: String(page.page_num - 1) }) : undefined,
              next:
                page.page_num < page.total_page
                  ? () => update({ page_num: String(page.page_num + 1) })
                  : undefined,
            }}
          />
        </>
      ) : error ? null : (
        <p aria-busy="true">{t("Loading…")}</p>
      )}
      {/* Drawn once the goods are there, below them: arriving first, it would be pushed down. */}
      {props.visitor && !values.search && (page || error) ? <PopularListings /> : null}
    </div>
  );
}
