import { useEffect, useRef, useState } from "preact/hooks";
import type { listCatalogGoods, OperationResponse } from "@skinmarket/contract";
import { ApiError, web } from "../api.ts";
import { ItemImage } from "../components/item-image.tsx";
import { goodsName, money } from "../format.ts";
import { language, t } from "../i18n.ts";
import { navigate } from "../router.ts";
import { currentUser } from "../session.ts";
import { useStore } from "../store.ts";
import TAGS from "../tags.json";

/** What the catalog route answers, typed by the contract (erased at build: no schema reaches the page). */
type CatalogPage = OperationResponse<typeof listCatalogGoods>["data"];

const FILTERS = [
  ["category_group", "Type"],
  ["category", "Weapon"],
  ["exterior", "Exterior"],
  ["quality", "Quality"],
  ["rarity", "Rarity"],
] as const;
const SORTS = [
  ["sell_num.desc", "Most listings"],
  ["price.asc", "Price: low to high"],
  ["price.desc", "Price: high to low"],
  ["transacted_num.desc", "Most traded"],
  ["created.desc", "Newest"],
] as const;
const QUERY_KEYS = [
  "search",
  ...FILTERS.map(([key]) => key),
  "min_price",
  "max_price",
  "sort_by",
  "page_num",
];

function readQuery(query: URLSearchParams): Record<string, string> {
  const values: Record<string, string> = {};
  for (const key of QUERY_KEYS) {
    const value = query.get(key);
    if (value) values[key] = value;
  }
  return values;
}

function urlOf(values: Record<string, string>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) if (value) params.set(key, value);
  const text = params.toString();
  return text ? `/?${text}` : "/";
}

/** The catalog: every goods, searched, filtered, sorted and paged by the server (signed in). */
export function CatalogPage(props: { query: URLSearchParams }) {
  const user = useStore(currentUser);
  const [refused, setRefused] = useState(false);
  useStore(language);
  // The catalog is asked for at once, beside the user's own record: a visitor's 401 shows the
  // popular listings instead, without a round trip spent on finding out who is there first.
  if (user === null || refused) return <PopularListings />;
  return <Catalog query={props.query} onRefused={() => setRefused(true)} />;
}

function Catalog(props: { query: URLSearchParams; onRefused: () => void }) {
  const values = readQuery(props.query);
  const [page, setPage] = useState<CatalogPage | null>(null);
  const [error, setError] = useState("");
  const key = urlOf(values);

  useEffect(() => {
    let current = true;
    setError("");
    web<CatalogPage>("GET", "/api/market/goods", {
      query: { game: "csgo", page_size: 24, sort_by: "sell_num.desc", ...values },
    })
      .then((answer) => current && setPage(answer))
      .catch((failure: Error) => {
        if (!current) return;
        if (failure instanceof ApiError && failure.status === 401) props.onRefused();
        else setError(failure.message);
      });
    return () => {
      current = false;
    };
  }, [key]);

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
          update({
            min_price: String(form.get("min_price") ?? ""),
            max_price: String(form.get("max_price") ?? ""),
          });
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
          <input name="min_price" inputMode="decimal" size={7} defaultValue={values.min_price ?? ""} />
        </label>
        <label>
          {t("Max price")}
          <input name="max_price" inputMode="decimal" size={7} defaultValue={values.max_price ?? ""} />
        </label>
        <button type="submit">{t("Apply prices")}</button>
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
                <a href={`/goods/${item.id}`}>
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
          <nav class="pager" aria-label={t("Pages")}>
            <button
              type="button"
              disabled={page.page_num <= 1}
              onClick={() => update({ page_num: String(page.page_num - 1) })}
            >
              {t("Previous")}
            </button>
            <span>{t("Page {n} of {m}", { n: page.page_num, m: Math.max(page.total_page, 1) })}</span>
            <button
              type="button"
              disabled={page.page_num >= page.total_page}
              onClick={() => update({ page_num: String(page.page_num + 1) })}
            >
              {t("Next")}
            </button>
          </nav>
        </>
      ) : error ? null : (
        <p aria-busy="true">{t("Loading…")}</p>
      )}
    </div>
  );
}

/** The search field with suggestions as one types (`search/suggest`), an ARIA combobox. */
function SearchBox(props: { initial: string; onSearch: (text: string) => void }) {
  const [text, setText] = useState(props.initial);
  const [suggestions, setSuggestions] = useState<Array<{ goods_ids: string; option: string }>>([]);
  const [active, setActive] = useState(-1);
  const timer = useRef<number | undefined>(undefined);

  useEffect(() => setText(props.initial), [props.initial]);

  const suggest = (value: string) => {
    window.clearTimeout(timer.current);
    if (!value.trim()) return setSuggestions([]);
    timer.current = window.setTimeout(() => {
      web<{ suggestions: Array<{ goods_ids: string; option: string }> }>(
        "GET",
        "/api/market/search/suggest",
        {
          query: { game: "csgo", text: value },
        },
      )
        .then((answer) => {
          setSuggestions(answer.suggestions);
          setActive(-1);
        })
        .catch(() => setSuggestions([]));
    }, 150);
  };

  return (
    <form
      role="search"
      class="search"
      onSubmit={(event) => {
        event.preventDefault();
        const chosen = suggestions[active];
        setSuggestions([]);
        if (chosen) navigate(`/goods/${chosen.goods_ids}`);
        else props.onSearch(text.trim());
      }}
    >
      <input
        type="search"
        role="combobox"
        list={undefined}
        aria-label={t("Search the market")}
        aria-expanded={suggestions.length > 0}
        aria-controls="suggestions"
        aria-autocomplete="list"
        aria-activedescendant={active >= 0 ? `suggestion-${active}` : undefined}
        placeholder={t("Search by name, in English or Chinese")}
        value={text}
        autocomplete="off"
        onInput={(event) => {
          setText(event.currentTarget.value);
          suggest(event.currentTarget.value);
        }}
        onKeyDown={(event) => {
          if (event.key === "ArrowDown") setActive((index) => Math.min(index + 1, suggestions.length - 1));
          else if (event.key === "ArrowUp") setActive((index) => Math.max(index - 1, -1));
          else if (event.key === "Escape") setSuggestions([]);
          else return;
          event.preventDefault();
        }}
      />
      <button type="submit">{t("Search")}</button>
      {suggestions.length > 0 ? (
        <ul id="suggestions" role="listbox" aria-label={t("Suggestions")} class="suggestions">
          {suggestions.map((suggestion, index) => (
            <li
              key={suggestion.goods_ids}
              id={`suggestion-${index}`}
              role="option"
              aria-selected={index === active}
              onMouseDown={(event) => {
                event.preventDefault();
                setSuggestions([]);
                navigate(`/goods/${suggestion.goods_ids}`);
              }}
            >
              {suggestion.option}
            </li>
          ))}
        </ul>
      ) : null}
    </form>
  );
}

interface Tag {
  internal_name: string;
  localized_name: string;
}

interface PopularAnswer {
  items: Array<{ id: string; goods_id: number; price: string; asset_info: { paintwear: string } }>;
  goods_infos: Record<
    string,
    { name: string; market_hash_name: string; icon_url: string; tags?: { rarity?: Tag } }
  >;
}

/** What a visitor sees: the popular listings (anonymous), and why to sign in for the whole catalog. */
function PopularListings() {
  const [answer, setAnswer] = useState<PopularAnswer | null>(null);
  const [error, setError] = useState("");
  useEffect(() => {
    web<PopularAnswer>("GET", "/api/index/popular_sell_order", { query: { game: "csgo" } })
      .then(setAnswer)
      .catch((failure: Error) => setError(failure.message));
  }, []);
  return (
    <div class="catalog">
      <h1>{t("Market")}</h1>
      <p class="notice">
        {t("Sign in to search and browse all 37,000 goods.")} <a href="/signin">{t("Sign in")}</a>
      </p>
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
    </div>
  );
}
