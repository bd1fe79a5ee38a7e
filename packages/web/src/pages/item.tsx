import { useEffect, useState } from "preact/hooks";
import type { getGoodsSellOrders, OperationResponse } from "@skinmarket/contract";
import { ApiError, web } from "../api.ts";
import { BuyOrderForm } from "../components/buy-order-form.tsx";
import { ItemImage } from "../components/item-image.tsx";
import { PriceChart } from "../components/price-chart.tsx";
import { WearBar } from "../components/wear-bar.tsx";
import { dateTime, goodsName, money, tagName } from "../format.ts";
import { language, t } from "../i18n.ts";
import { watchGoods } from "../live-stream.ts";
import { onLiveEvent } from "../live.ts";
import { currentUser } from "../session.ts";
import { useStore } from "../store.ts";

interface Tag {
  internal_name: string;
  localized_name: string;
}
export interface GoodsInfo {
  id: number;
  name: string;
  market_hash_name: string;
  sell_min_price: string;
  buy_max_price: string;
  sell_num: number;
  buy_num: number;
  pre_sell_num: number;
  transacted_num: number;
  recent_sold_count: number;
  bookmarked: boolean;
  can_buy: boolean;
  paintwear_range: [string, string] | null;
  fade_choices: Array<[string, string]>;
  asset_tags: Array<{ name: string; items: Array<{ id: number; name: string }> }>;
  paintseed_filters: unknown[];
  goods_info: { icon_url: string; info: { tags: Record<string, Tag | undefined> } };
}
/** The listings page and one listing, typed by the contract (erased at build). */
type ListingPage = OperationResponse<typeof getGoodsSellOrders>["data"];
export type Listing = ListingPage["items"][number];

interface BookOrder {
  id: string;
  price: string;
  num: number;
  specific: Array<{ type: string; values: string[] }>;
  user_id: string;
}
interface Sale {
  id: string;
  price: string;
  transact_time: number;
  type: number;
  asset_info: { paintwear: string; paintseed: number | null };
}

/** One goods: its figures, listings, buy-order book, recent sales and price history. */
export function ItemPage(props: { goodsId: number }) {
  const lang = useStore(language);
  const user = useStore(currentUser);
  const [info, setInfo] = useState<GoodsInfo | null>(null);
  const [error, setError] = useState("");
  const [tab, setTab] = useState<"listings" | "book" | "sales">("listings");
  const [version, setVersion] = useState(0);

  useEffect(() => {
    setError("");
    web<GoodsInfo>("GET", "/api/market/goods/info", { query: { game: "csgo", goods_id: props.goodsId } })
      .then(setInfo)
      .catch((failure: Error) => setError(failure.message));
  }, [props.goodsId, version, user]);

  useEffect(() => watchGoods(props.goodsId), [props.goodsId]);
  useEffect(
    () =>
      onLiveEvent((event) => {
        if ("goodsId" in event && (event.goodsId === undefined || event.goodsId === props.goodsId))
          setVersion((value) => value + 1);
      }),
    [props.goodsId],
  );

  useEffect(() => {
    if (info) document.title = `${goodsName(info)} · skinmarket`;
  }, [info, lang]);

  if (error) return <p role="alert">{error}</p>;
  if (!info) return <p aria-busy="true">{t("Loading…")}</p>;
  const tags = info.goods_info.info.tags;

  const toggleBookmark = async () => {
    const method = info.bookmarked ? "DELETE" : "POST";
    try {
      const answer = await web<{ bookmarked: boolean }>(method, "/api/market/goods/bookmark", {
        body: { type: "goods", id: String(info.id) },
      });
      setInfo({ ...info, bookmarked: answer.bookmarked });
    } catch (failure) {
      setError((failure as Error).message);
    }
  };

  return (
    <div class="item">
      <header class="item-head">
        <ItemImage
          iconUrl={info.goods_info.icon_url}
          name={goodsName(info)}
          rarity={tags.rarity?.internal_name}
          size="large"
        />
        <div>
          <h1>{goodsName(info)}</h1>
          <p class="muted">{lang === "zh" ? info.market_hash_name : info.name}</p>
          <ul class="tags" aria-label={t("Tags")}>
            {["category_group", "category", "exterior", "quality", "rarity"].map((key) =>
              tags[key] ? <li key={key}>{tagName(key, tags[key]!)}</li> : null,
            )}
          </ul>
          <dl class="figures">
            <div>
              <dt>{t("Lowest listing")}</dt>
              <dd>{money(info.sell_min_price)}</dd>
            </div>
            <div>
              <dt>{t("Highest buy order")}</dt>
              <dd>{money(info.buy_max_price)}</dd>
            </div>
            <div>
              <dt>{t("On sale")}</dt>
              <dd>{info.sell_num + info.pre_sell_num}</dd>
            </div>
            <div>
              <dt>{t("Sold in 7 days")}</dt>
              <dd>{info.recent_sold_count}</dd>
            </div>
          </dl>
          {user ? (
            <button type="button" aria-pressed={info.bookmarked} onClick={toggleBookmark}>
              {info.bookmarked ? t("Bookmarked") : t("Bookmark")}
            </button>
          ) : (
            <p class="muted">
              <a href="/signin">{t("Sign in")}</a> {t("to buy, bid and bookmark.")}
            </p>
          )}
        </div>
      </header>
      <PriceChart goodsId={info.id} />
      <div role="tablist" aria-label={t("Market of this item")} class="tabs">
        {(
          [
            ["listings", t("Listings ({n})", { n: info.sell_num + info.pre_sell_num })],
            ["book", t("Buy orders ({n})", { n: info.buy_num })],
            ["sales", t("Recent sales")],
          ] as const
        ).map(([key, label]) => (
          <button
            type="button"
            role="tab"
            key={key}
            id={`tab-${key}`}
            aria-selected={tab === key}
            aria-controls={`panel-${key}`}
            onClick={() => setTab(key)}
          >
            {label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
        {tab === "listings" ? (
          <Listings goodsId={info.id} version={version} onBought={() => setVersion((value) => value + 1)} />
        ) : tab === "book" ? (
          <Book
            goodsId={info.id}
            version={version}
            info={info}
            onPlaced={() => setVersion((value) => value + 1)}
          />
        ) : (
          <Sales goodsId={info.id} version={version} />
        )}
      </div>
    </div>
  );
}

function Listings(props: { goodsId: number; version: number; onBought: () => void }) {
  const user = useStore(currentUser);
  const [page, setPage] = useState<ListingPage | null>(null);
  const [pageNum, setPageNum] = useState(1);
  const [sortBy, setSortBy] = useState("default");
  const [error, setError] = useState("");
  const [buying, setBuying] = useState<Listing | null>(null);

  useEffect(() => {
    web<ListingPage>("GET", "/api/market/goods/sell_order", {
      query: { game: "csgo", goods_id: props.goodsId, page_num: pageNum, page_size: 10, sort_by: sortBy },
    })
      .then(setPage)
      .catch((failure: Error) => setError(failure.message));
  }, [props.goodsId, props.version, pageNum, sortBy]);

  if (error) return <p role="alert">{error}</p>;
  if (!page) return <p aria-busy="true">{t("Loading…")}</p>;
  return (
    <>
      <label class="inline">
        {t("Sort by")}
        <select value={sortBy} onChange={(event) => setSortBy(event.currentTarget.value)}>
          <option value="default">{t("Price: low to high")}</option>
          <option value="price.desc">{t("Price: high to low")}</option>
          <option value="paintwear.asc">{t("Float: low to high")}</option>
          <option value="created.desc">{t("Newest")}</option>
        </select>
      </label>
      {page.items.length === 0 ? <p class="muted">{t("Nothing on sale.")}</p> : null}
      <table aria-label={t("Listings")}>
        <thead>
          <tr>
            <th scope="col">{t("Price")}</th>
            <th scope="col">{t("Float")}</th>
            <th scope="col">{t("Paint seed")}</th>
            <th scope="col">{t("Details")}</th>
            <th scope="col">{t("Seller")}</th>
            <th scope="col">
              <span class="visually-hidden">{t("Actions")}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {page.items.map((listing) => {
            const info = listing.asset_info.info;
            const nameTag = info.fraudwarnings?.match(/Name Tag: ''(.*)''/)?.[1];
            const inspect = info.inspect_info?.inspect_url || listing.asset_info.action_link;
            return (
              <tr key={listing.id}>
                <td class="price">{money(listing.price)}</td>
                <td>
                  <WearBar paintwear={listing.asset_info.paintwear} />
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
                <td>
                  {user && user.user_id !== listing.user_id ? (
                    <button type="button" onClick={() => setBuying(listing)}>
                      {t("Buy for {p}", { p: money(listing.price) })}
                    </button>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <nav class="pager" aria-label={t("Listing pages")}>
        <button type="button" disabled={pageNum <= 1} onClick={() => setPageNum(pageNum - 1)}>
          {t("Previous")}
        </button>
        <span>{t("Page {n} of {m}", { n: page.page_num, m: Math.max(page.total_page, 1) })}</span>
        <button type="button" disabled={pageNum >= page.total_page} onClick={() => setPageNum(pageNum + 1)}>
          {t("Next")}
        </button>
      </nav>
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

interface PayMethod {
  value: number;
  name: string;
  balance: string;
  enough: boolean;
  error: string | null;
}

const PAY_NAMES: Record<number, string> = {
  3: "Balance",
  101: "Buy-order funds",
  1: "Bank card",
  102: "Wallet",
};

/** Buy now: the preview's ways of paying, then `goods/buy`; the seller then sends the offer. */
function BuyDialog(props: { listing: Listing; goodsId: number; onClose: (bought: boolean) => void }) {
  const [methods, setMethods] = useState<PayMethod[] | null>(null);
  const [chosen, setChosen] = useState<number | null>(null);
  const [error, setError] = useState("");
  const [bought, setBought] = useState<{ id: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const cooldown = props.listing.asset_info.has_tradable_cooldown ? 1 : 0;

  useEffect(() => {
    web<{ pay_methods: PayMethod[] }>("GET", "/api/market/goods/buy/preview", {
      query: {
        game: "csgo",
        sell_order_id: props.listing.id,
        goods_id: props.goodsId,
        price: props.listing.price,
        allow_tradable_cooldown: cooldown,
      },
    })
      .then((answer) => {
        setMethods(answer.pay_methods);
        setChosen(answer.pay_methods.find((method) => method.error === null)?.value ?? null);
      })
      .catch((failure: Error) => setError(failure.message));
  }, [props.listing.id]);

  const buy = async () => {
    if (chosen === null) return;
    setBusy(true);
    setError("");
    try {
      setBought(
        await web<{ id: string }>("POST", "/api/market/goods/buy", {
          body: {
            game: "csgo",
            goods_id: props.goodsId,
            sell_order_id: props.listing.id,
            price: props.listing.price,
            pay_method: chosen,
            allow_tradable_cooldown: cooldown,
          },
        }),
      );
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="backdrop">
      <div role="dialog" aria-modal="true" aria-labelledby="buy-title" class="dialog">
        <h2 id="buy-title">{t("Buy for {p}", { p: money(props.listing.price) })}</h2>
        {bought ? (
          <>
            <p role="status">
              {t("Bought. The seller now sends the trade offer; accept it on the platform.")}{" "}
              <a href="/me/purchases">{t("See my purchases")}</a>
            </p>
            <button type="button" onClick={() => props.onClose(true)}>
              {t("Close")}
            </button>
          </>
        ) : (
          <>
            {methods ? (
              <fieldset>
                <legend>{t("Pay with")}</legend>
                {methods.map((method) => (
                  <label key={method.value} class="radio">
                    <input
                      type="radio"
                      name="pay_method"
                      value={method.value}
                      disabled={method.error !== null}
                      checked={chosen === method.value}
                      onChange={() => setChosen(method.value)}
                    />
                    {t(PAY_NAMES[method.value] ?? method.name)}
                    {method.value !== 1 ? ` (${money(method.balance)})` : ""}
                    {method.error ? <span class="muted small"> — {method.error}</span> : null}
                  </label>
                ))}
              </fieldset>
            ) : error ? null : (
              <p aria-busy="true">{t("Loading…")}</p>
            )}
            {error ? <p role="alert">{error}</p> : null}
            <div class="row">
              <button type="button" class="primary" disabled={chosen === null || busy} onClick={buy}>
                {t("Confirm purchase")}
              </button>
              <button type="button" onClick={() => props.onClose(false)}>
                {t("Cancel")}
              </button>
            </div>
          </>
        )}
      </div>
    </div>
  );
}

function Book(props: { goodsId: number; version: number; info: GoodsInfo; onPlaced: () => void }) {
  const user = useStore(currentUser);
  const [orders, setOrders] = useState<BookOrder[] | null>(null);
  const [users, setUsers] = useState<Record<string, { nickname: string }>>({});
  const [error, setError] = useState("");
  useEffect(() => {
    web<{ items: BookOrder[]; user_infos: Record<string, { nickname: string }> }>(
      "GET",
      "/api/market/goods/buy_order",
      {
        query: { game: "csgo", goods_id: props.goodsId, page_size: 20 },
      },
    )
      .then((answer) => {
        setOrders(answer.items);
        setUsers(answer.user_infos);
      })
      .catch((failure: Error) => setError(failure.message));
  }, [props.goodsId, props.version]);
  return (
    <>
      {error ? <p role="alert">{error}</p> : null}
      {orders && orders.length === 0 ? <p class="muted">{t("No buy orders.")}</p> : null}
      {orders && orders.length > 0 ? (
        <table aria-label={t("Buy orders")}>
          <thead>
            <tr>
              <th scope="col">{t("Price")}</th>
              <th scope="col">{t("Wanted")}</th>
              <th scope="col">{t("Conditions")}</th>
              <th scope="col">{t("Buyer")}</th>
            </tr>
          </thead>
          <tbody>
            {orders.map((order) => (
              <tr key={order.id}>
                <td class="price">{money(order.price)}</td>
                <td>{order.num}</td>
                <td>
                  {order.specific.map((entry) => `${entry.type}: ${entry.values.join("–")}`).join("; ") ||
                    "—"}
                </td>
                <td>{users[order.user_id]?.nickname ?? order.user_id}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {user ? <BuyOrderForm info={props.info} onPlaced={props.onPlaced} /> : null}
    </>
  );
}

function Sales(props: { goodsId: number; version: number }) {
  const [sales, setSales] = useState<Sale[] | null>(null);
  const [error, setError] = useState("");
  useEffect(() => {
    web<{ items: Sale[] }>("GET", "/api/market/goods/bill_order", {
      query: { game: "csgo", goods_id: props.goodsId },
    })
      .then((answer) => setSales(answer.items))
      .catch((failure: Error) => setError(failure.message));
  }, [props.goodsId, props.version]);
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
