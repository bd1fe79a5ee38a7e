import type { buyGoods, previewGoodsBuy } from "@skinmarket/contract";
import { useState } from "preact/hooks";
import { useModal } from "../../components/modal.ts";
import { web, type WebData } from "../../api.ts";
import { money } from "../../format.ts";
import { t } from "../../i18n.ts";
import { Feedback, useAction, useLoad } from "../../use-data.tsx";
import type { Listing } from "./listings.tsx";

const PAY_NAMES: Record<number, string> = {
  3: "Balance",
  101: "Buy-order funds",
  1: "Bank card",
  102: "Wallet",
};

/**
 * Buy now, in a modal dialog (`useModal`): the preview's ways of paying, then `goods/buy`; the
 * seller then sends the offer. Escape, Cancel and Close close it.
 */
export function BuyDialog(props: { listing: Listing; goodsId: number; onClose: (bought: boolean) => void }) {
  const [picked, setPicked] = useState<number | null>(null);
  const [bought, setBought] = useState<WebData<typeof buyGoods> | null>(null);
  const [, buyError, run, busy] = useAction();
  const dialog = useModal<HTMLDialogElement>(() => props.onClose(bought !== null));
  const cooldown = props.listing.asset_info.has_tradable_cooldown ? 1 : 0;
  const preview = useLoad(
    () =>
      web<typeof previewGoodsBuy>("GET", "/api/market/goods/buy/preview", {
        query: {
          game: "csgo",
          sell_order_id: props.listing.id,
          goods_id: props.goodsId,
          price: props.listing.price,
          allow_tradable_cooldown: cooldown,
        },
      }),
    [props.listing.id],
  );
  const methods = preview.value?.pay_methods;
  // The first way of paying that can pay is chosen until the person picks another.
  const chosen = picked ?? methods?.find((method) => method.error === null)?.value ?? null;
  const error = buyError || preview.error;

  const buy = () =>
    run(async () => {
      if (chosen === null) return "";
      setBought(
        await web<typeof buyGoods>("POST", "/api/market/goods/buy", {
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
      return "";
    });

  return (
    <dialog ref={dialog} aria-labelledby="buy-title" class="dialog">
      <h2 id="buy-title">{t("Buy for {p}", { p: money(props.listing.price) })}</h2>
      {bought ? (
        <>
          <p role="status" aria-live="polite" class="outcome">
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
                    onChange={() => setPicked(method.value)}
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
          <Feedback message="" error={error} />
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
    </dialog>
  );
}
