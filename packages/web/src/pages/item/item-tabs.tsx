import { useRef } from "preact/hooks";
import { t } from "../../i18n.ts";

export type ItemTab = "listings" | "book" | "sales";

/**
 * The item page's tabs as the WAI-ARIA tabs pattern has them: one tab stop (the selected tab),
 * Left and Right arrows move to the previous and next tab (wrapping) and select it, Home and End
 * the first and last; the panel follows at once (automatic activation).
 */
export function ItemTabs(props: {
  tabs: readonly (readonly [ItemTab, string])[];
  selected: ItemTab;
  onSelect: (tab: ItemTab) => void;
}) {
  const list = useRef<HTMLDivElement>(null);
  const keys = props.tabs.map(([key]) => key);
  const move = (event: KeyboardEvent) => {
    const index = keys.indexOf(props.selected);
    const last = keys.length - 1;
    const target =
      event.key === "ArrowRight"
        ? index === last
          ? 0
          : index + 1
        : event.key === "ArrowLeft"
          ? index === 0
            ? last
            : index - 1
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? last
              : undefined;
    if (target === undefined) return;
    event.preventDefault();
    props.onSelect(keys[target]!);
    list.current?.querySelector<HTMLElement>(`#tab-${keys[target]}`)?.focus();
  };
  return (
    <div role="tablist" aria-label={t("Market of this item")} class="tabs" ref={list} onKeyDown={move}>
      {props.tabs.map(([key, label]) => (
        <button
          type="button"
          role="tab"
          key={key}
          id={`tab-${key}`}
          aria-selected={props.selected === key}
          aria-controls={props.selected === key ? `panel-${key}` : undefined}
          tabIndex={props.selected === key ? 0 : -1}
          onClick={() => props.onSelect(key)}
        >
          {label}
        </button>
      ))}
    </div>
  );
}
