import { useEffect } from "preact/hooks";
import { t } from "../../i18n.ts";
import type { Trade, TradeList } from "./trade-steps.ts";

/**
 * The buyer's cancel of a purchase still waiting for the seller's offer
 * (docs/design/website-actions.md#a-button-only-when-it-can-succeed): the seller has 30 minutes to
 * deliver, during which the server refuses a cancel, so the button is offered only once
 * `buyer_cancel_timeout` (the server's seconds until the buyer may cancel, its own rule) is 0;
 * before that the row says when it will be.
 */
export function CancelPurchase(props: { trade: Trade; busy: boolean; onCancel: () => void }) {
  const wait = "buyer_cancel_timeout" in props.trade ? props.trade.buyer_cancel_timeout : null;
  if (wait === null) return null;
  if (wait > 0)
    return (
      <p class="muted small">
        {t("You can cancel in {n} min if no offer comes.", { n: Math.ceil(wait / 60) })}
      </p>
    );
  return (
    <button type="button" disabled={props.busy} onClick={props.onCancel}>
      {t("Cancel purchase {id}", { id: props.trade.id })}
    </button>
  );
}

/**
 * Reads the list again when the first waiting purchase's cancel window opens, so its button
 * appears then without a reload (the server's seconds, counted from the answer's arrival, so the
 * browser's clock does not matter).
 */
export function useCancelWindows(list: TradeList | undefined, refresh: () => void): void {
  useEffect(() => {
    const waits = (list?.items ?? [])
      .map((trade: Trade) => ("buyer_cancel_timeout" in trade ? trade.buyer_cancel_timeout : null))
      .filter((wait): wait is number => wait !== null && wait > 0);
    if (waits.length === 0) return;
    const timer = setTimeout(refresh, Math.min(...waits) * 1000 + 500);
    return () => clearTimeout(timer);
  }, [list]);
}
