import { t } from "../i18n.ts";

const EXTERIORS: Array<[number, number, string]> = [
  [0, 0.07, "#3fa34d"],
  [0.07, 0.15, "#7cb342"],
  [0.15, 0.38, "#e0b020"],
  [0.38, 0.45, "#e07b20"],
  [0.45, 1, "#d0453a"],
];

/** The float on the five exterior bands, with a marker where this item's wear is. */
export function WearBar(props: { paintwear: string | null | undefined }) {
  if (!props.paintwear) return <span class="muted">—</span>;
  const wear = Number(props.paintwear);
  return (
    <div class="wear">
      <span class="wear-value">{wear.toFixed(6)}</span>
      <div
        class="wear-bar"
        role="meter"
        aria-label={t("Float")}
        aria-valuemin={0}
        aria-valuemax={1}
        aria-valuenow={wear}
      >
        {EXTERIORS.map(([from, to, colour]) => (
          <span
            key={from}
            style={{ left: `${from * 100}%`, width: `${(to - from) * 100}%`, background: colour }}
          />
        ))}
        <i style={{ left: `${wear * 100}%` }} />
      </div>
    </div>
  );
}
