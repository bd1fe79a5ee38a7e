import { fenOf, money, yuanOf } from "../../format.ts";
import { t } from "../../i18n.ts";

/** The marketplace's fee rule as the inventory answers it (`seller_fee`): the server's own rule. */
export interface SellerFeeRule {
  basis_points: number;
  min: string;
}

/**
 * The fee on a sale at `price` fen, as the server takes it (`sellerFee` in its domain): the rate
 * rounded up to the fen, never below the minimum.
 */
export function feeOf(price: number, rule: SellerFeeRule): number {
  return Math.max(fenOf(rule.min) ?? 0, Math.ceil((price * rule.basis_points) / 10_000));
}

/**
 * What a price means to the seller, shown under the price as it is typed
 * (docs/design/website-actions.md#selling-help): the fee and what they receive, and a warning when
 * it is below what they paid for the item here. The input names it with `aria-describedby`, so a
 * screen reader reads it with the field instead of at every keystroke.
 */
export function SalePreview(props: {
  id: string;
  price: string;
  rule: SellerFeeRule;
  paid?: string | undefined;
}) {
  const price = fenOf(props.price);
  if (price === null || price === 0) return null;
  const fee = feeOf(price, props.rule);
  const paid = props.paid ? fenOf(props.paid) : null;
  return (
    <span id={props.id} class="sale-preview small">
      <span>
        {t("Fee {fee} · you receive {income}", {
          fee: money(yuanOf(fee)),
          income: money(yuanOf(Math.max(0, price - fee))),
        })}
      </span>
      {paid !== null && price < paid ? (
        <span class="warning">{t("Below the {paid} you paid for it", { paid: money(props.paid) })}</span>
      ) : null}
    </span>
  );
}
