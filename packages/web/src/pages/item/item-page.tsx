import type { addBookmark, getGoodsInfo, removeBookmark } from "@skinmarket/contract";
import { useEffect, useState } from "preact/hooks";
import { web, type WebData } from "../../api.ts";
import { ItemImage } from "../../components/item-image.tsx";
import { goodsName, priceOrNone, tagName } from "../../format.ts";
import { language, t } from "../../i18n.ts";
import { watchGoods } from "../../live-stream.ts";
import { onLiveEvent } from "../../live.ts";
import { currentUser } from "../../session.ts";
import { useStore } from "../../store.ts";
import { Feedback, useAction, useLoad } from "../../use-data.tsx";
import { Book } from "./book.tsx";
import { ItemTabs, type ItemTab } from "./item-tabs.tsx";
import { listingFiltersOf, Listings } from "./listings.tsx";
import { PriceChart } from "./price-chart.tsx";
import { Sales } from "./sales.tsx";

/** The goods as `goods/info` answers it. */
export type GoodsInfo = WebData<typeof getGoodsInfo>;

/** The tag groups the head lists, of the five `goods/info` answers. */
const DETAIL_TAGS = ["exterior", "quality", "rarity"] as const;

/** One goods: its figures, listings, buy-order book, recent sales and price history. */
export function ItemPage(props: { goodsId: number; query: URLSearchParams }) {
  const lang = useStore(language);
  const user = useStore(currentUser);
  const [tab, setTab] = useState<ItemTab>("listings");
  const [version, setVersion] = useState(0);
  const goods = useLoad(
    () =>
      web<typeof getGoodsInfo>("GET", "/api/market/goods/info", {
        query: { game: "csgo", goods_id: props.goodsId },
      }),
    [props.goodsId, version, user],
  );
  const [, bookmarkError, run] = useAction();
  const info = goods.value;

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

  if (goods.error) return <p role="alert">{goods.error}</p>;
  if (!info) return <p aria-busy="true">{t("Loading…")}</p>;
  const tags = info.goods_info.info.tags;

  const toggleBookmark = () =>
    run(async () => {
      const body = { type: "goods" as const, id: String(info.id) };
      const answer = info.bookmarked
        ? await web<typeof removeBookmark>("DELETE", "/api/market/goods/bookmark", { body })
        : await web<typeof addBookmark>("POST", "/api/market/goods/bookmark", { body });
      goods.set({ ...info, bookmarked: answer.bookmarked });
      return "";
    });

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
            {DETAIL_TAGS.map((key) => {
              const tag = tags[key];
              return tag ? <li key={key}>{tagName(key, tag)}</li> : null;
            })}
          </ul>
          <dl class="figures">
            <div>
              <dt>{t("Lowest listing")}</dt>
              {/* Every listing on sale, those still in their trade cooldown too (the listings list them). */}
              <dd>{priceOrNone(info.market_min_price)}</dd>
            </div>
            <div>
              <dt>{t("Steam price")}</dt>
              <dd>
                {priceOrNone(info.goods_info.steam_price)}
                <SteamDifference ours={info.market_min_price} steam={info.goods_info.steam_price} />
              </dd>
            </div>
            <div>
              <dt>{t("Highest buy order")}</dt>
              <dd>{priceOrNone(info.buy_max_price)}</dd>
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
            <>
              <button type="button" aria-pressed={info.bookmarked} onClick={toggleBookmark}>
                {info.bookmarked ? t("Bookmarked") : t("Bookmark")}
              </button>
              <Feedback message="" error={bookmarkError} />
            </>
          ) : (
            <p class="muted">
              <a href="/signin">{t("Sign in")}</a> {t("to buy, bid and bookmark.")}
            </p>
          )}
        </div>
      </header>
      <PriceChart goodsId={info.id} everSold={info.has_buff_price_history} />
      <ItemTabs
        tabs={[
          ["listings", t("Listings ({n})", { n: info.sell_num + info.pre_sell_num })],
          ["book", t("Buy orders ({n})", { n: info.buy_num })],
          ["sales", t("Recent sales")],
        ]}
        selected={tab}
        onSelect={setTab}
      />
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} tabIndex={0}>
        {tab === "listings" ? (
          <Listings
            goodsId={info.id}
            filters={listingFiltersOf(props.query)}
            version={version}
            onBought={() => setVersion((value) => value + 1)}
          />
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

/** Fen of a money string ("12.50" -> 1250), without floating point. */
function fen(amount: string): number {
  const [yuan = "0", cents = "00"] = amount.split(".");
  return Number(yuan) * 100 + Number(cents.padEnd(2, "0").slice(0, 2));
}

/** How our lowest listing compares with Steam's price, as a whole percentage; nothing without both. */
function SteamDifference(props: { ours: string; steam: string }) {
  const ours = fen(props.ours);
  const steam = fen(props.steam);
  if (ours <= 0 || steam <= 0) return null;
  const percent = Math.round(((ours - steam) * 100) / steam);
  const text =
    percent < 0
      ? t("{n}% below Steam", { n: -percent })
      : percent > 0
        ? t("{n}% above Steam", { n: percent })
        : t("same as Steam");
  return <span class="small muted"> ({text})</span>;
}
