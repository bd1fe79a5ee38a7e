import type { getBuffPriceHistory } from "@skinmarket/contract";
import { useEffect, useRef, useState } from "preact/hooks";
import { web } from "../../api.ts";
import { t } from "../../i18n.ts";
import { useLoad } from "../../use-data.tsx";

/**
 * The daily median price of completed trades (`goods/price_history/buff`), drawn with uPlot,
 * loaded only when an item page is opened so the first page stays small.
 */
export function PriceChart(props: { goodsId: number }) {
  const [days, setDays] = useState(30);
  const history = useLoad(
    () =>
      web<typeof getBuffPriceHistory>("GET", "/api/market/goods/price_history/buff", {
        query: { game: "csgo", goods_id: props.goodsId, days },
      }),
    [props.goodsId, days],
  );
  const points = history.value?.price_history;
  const error = history.error;
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!points || points.length === 0 || !box.current) return;
    let chart: { destroy(): void } | undefined;
    let cancelled = false;
    void Promise.all([import("uplot"), import("uplot/dist/uPlot.min.css")]).then(([{ default: UPlot }]) => {
      if (cancelled || !box.current) return;
      box.current.textContent = "";
      chart = new UPlot(
        {
          width: Math.min(box.current.clientWidth || 640, 900),
          height: 220,
          series: [{}, { label: t("Median price"), stroke: "#e4ae39", width: 2, points: { show: true } }],
          axes: [{ stroke: "#aab" }, { stroke: "#aab" }],
          legend: { show: false },
        },
        [points.map((point) => point[0] / 1000), points.map((point) => point[1])],
        box.current,
      );
    });
    return () => {
      cancelled = true;
      chart?.destroy();
    };
  }, [points]);

  return (
    <section aria-labelledby="chart-title">
      <div class="row">
        <h2 id="chart-title">{t("Price history")}</h2>
        <div role="group" aria-label={t("Days")} class="segmented">
          {[7, 30, 180].map((choice) => (
            <button type="button" key={choice} aria-pressed={days === choice} onClick={() => setDays(choice)}>
              {t("{n} days", { n: choice })}
            </button>
          ))}
        </div>
      </div>
      {error ? <p role="alert">{error}</p> : null}
      {points && points.length === 0 ? <p class="muted">{t("No completed trades in this period.")}</p> : null}
      <div ref={box} class="chart" aria-label={t("Price history chart")} role="img" />
    </section>
  );
}
