import type { createWebBuyOrder, OperationBody } from "@skinmarket/contract";
import { web } from "../../api.ts";
import { t } from "../../i18n.ts";
import { Feedback, useAction } from "../../use-data.tsx";
import type { GoodsInfo } from "./item-page.tsx";

/**
 * Places a buy order with float, paint seed, phase and fade conditions, through the website's
 * `buy_order/create` with the session (docs/design/website.md#how-the-website-authenticates).
 */
export function BuyOrderForm(props: { info: GoodsInfo; onPlaced: () => void }) {
  const [message, error, run, busy] = useAction();
  const info = props.info;

  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const field = (name: string) => String(form.get(name) ?? "").trim();
    const specific: NonNullable<OperationBody<typeof createWebBuyOrder>["specific"]> = [];
    if (field("min_wear") || field("max_wear"))
      specific.push({
        type: "paintwear",
        values: [
          field("min_wear") || info.paintwear_range?.[0] || "0",
          field("max_wear") || info.paintwear_range?.[1] || "1",
        ],
      });
    if (field("seeds"))
      specific.push({
        type: "paintseed",
        values: field("seeds")
          .split(/[\s,]+/)
          .filter(Boolean),
      });
    if (field("phase")) specific.push({ type: "phase", values: [field("phase")] });
    if (field("min_fade") || field("max_fade"))
      specific.push({ type: "fade", values: [field("min_fade") || "80", field("max_fade") || "100"] });
    await run(async () => {
      const order = await web<typeof createWebBuyOrder>("POST", "/api/market/buy_order/create", {
        body: {
          game: "csgo",
          goods_id: info.id,
          price: field("price"),
          num: Number(field("num") || "1"),
          ...(specific.length ? { specific } : {}),
          allow_tradable_cooldown: form.get("cooldown") === "on" ? 1 : 0,
        },
      });
      props.onPlaced();
      return t("Buy order {id} placed ({s}).", { id: order.id, s: order.state });
    });
  };

  return (
    <form class="panel" aria-labelledby="bid-title" onSubmit={submit}>
      <h3 id="bid-title">{t("Place a buy order")}</h3>
      <div class="row">
        <label>
          {t("Price")}
          <input name="price" required inputMode="decimal" size={8} />
        </label>
        <label>
          {t("Quantity")}
          <input name="num" type="number" min={1} max={1000} defaultValue="1" size={4} />
        </label>
      </div>
      {info.paintwear_range ? (
        <div class="row">
          <label>
            {t("Min float")}
            <input name="min_wear" inputMode="decimal" size={8} placeholder={info.paintwear_range[0]} />
          </label>
          <label>
            {t("Max float")}
            <input name="max_wear" inputMode="decimal" size={8} placeholder={info.paintwear_range[1]} />
          </label>
        </div>
      ) : null}
      {info.paintseed_filters.length > 0 ? (
        <label>
          {t("Paint seeds")}
          <input name="seeds" placeholder="661, 670" />
        </label>
      ) : null}
      {info.asset_tags.length > 0 ? (
        <label>
          {t("Phase")}
          <select name="phase">
            <option value="">{t("Any")}</option>
            {info.asset_tags
              .flatMap((group) => group.items)
              .map((tag) => (
                <option key={tag.id} value={tag.name}>
                  {tag.name}
                </option>
              ))}
          </select>
        </label>
      ) : null}
      {info.fade_choices.length > 0 ? (
        <div class="row">
          <label>
            {t("Min fade %")}
            <input name="min_fade" inputMode="decimal" size={5} placeholder="80" />
          </label>
          <label>
            {t("Max fade %")}
            <input name="max_fade" inputMode="decimal" size={5} placeholder="100" />
          </label>
        </div>
      ) : null}
      <label class="radio">
        <input type="checkbox" name="cooldown" /> {t("Accept items in trade cooldown")}
      </label>
      <button type="submit" class="primary" disabled={busy}>
        {t("Place buy order")}
      </button>
      <Feedback message={message} error={error} />
    </form>
  );
}
