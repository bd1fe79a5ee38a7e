import type { listBookmarks, removeBookmark } from "@skinmarket/contract";
import { web, type WebData } from "../../api.ts";
import { Pager, usePaging } from "../../components/paged-list.tsx";
import { goodsName, priceOrNone } from "../../format.ts";
import { t } from "../../i18n.ts";
import { Feedback, useAction, useLoad } from "../../use-data.tsx";
import { AlertSummary, BookmarkAlertForm } from "./bookmark-alert-form.tsx";
import { FiredPriceAlerts } from "./fired-price-alerts.tsx";
import { useLiveRefresh } from "./live-refresh.tsx";

type Bookmark = WebData<typeof listBookmarks>["items"][number];

/**
 * The user's bookmarked goods, newest first (`GET /api/market/goods/bookmark`), each removable and
 * with its price alert (set, changed or removed in place), and the alerts received since sign-in.
 */
export function Bookmarks() {
  const [version, refresh] = useLiveRefresh();
  const paging = usePaging(40);
  const bookmarks = useLoad(
    () =>
      web<typeof listBookmarks>("GET", "/api/market/goods/bookmark", {
        query: { game: "csgo", type: "goods", ...paging.query },
      }),
    [version, paging.pageNum],
  );
  const [, removeError, run, busy, at] = useAction();
  const remove = (item: Bookmark) =>
    run(async () => {
      await web<typeof removeBookmark>("DELETE", "/api/market/goods/bookmark", {
        body: { type: "goods", id: item.id },
      });
      refresh();
      return "";
    }, String(item.id));
  const items = bookmarks.value?.items;
  const error = bookmarks.error;
  if (!items) return error ? <Feedback message="" error={error} /> : <p aria-busy="true">{t("Loading…")}</p>;
  return (
    <section aria-labelledby="bookmarks-title">
      <h2 id="bookmarks-title">{t("Bookmarks")}</h2>
      {error ? <Feedback message="" error={error} /> : null}
      {at && !items.some((item) => String(item.id) === at) ? (
        <Feedback message="" error={removeError} />
      ) : null}
      {bookmarks.value?.total_count === 0 ? <p class="muted">{t("No bookmarks yet.")}</p> : null}
      <ul aria-labelledby="bookmarks-title">
        {items.map((item) => (
          <li key={item.id} class="bookmark">
            <div class="row">
              <a href={`/goods/${item.goods.id}`}>{goodsName(item.goods)}</a>
              <span class="price">{priceOrNone(item.goods.sell_min_price)}</span>
              <button type="button" disabled={busy} onClick={() => remove(item)}>
                {t("Remove bookmark of {name}", { name: goodsName(item.goods) })}
              </button>
              <Feedback message="" error={removeError} at={at} here={String(item.id)} />
            </div>
            <AlertSummary alert={item.alert} />
            <BookmarkAlertForm
              goodsId={item.goods.id}
              name={goodsName(item.goods)}
              alert={item.alert}
              onSaved={refresh}
            />
          </li>
        ))}
      </ul>
      <Pager label={t("Bookmarks")} range={paging.range(bookmarks.value)!} />
      <FiredPriceAlerts />
    </section>
  );
}
