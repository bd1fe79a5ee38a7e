import {
  formatMoney,
  RECORD_GAME,
  WEB_PAY_METHOD_CODES,
  type AssetInfo,
  type WebPayAccount,
} from "@skinmarket/contract";
import type { Selectable } from "kysely";
import type { ListingsTable } from "../../storage/schema.ts";
import { fadeCalculatorOf } from "../market/specific.ts";
import { phasePaintIndex, phaseTagsOf } from "../catalog/phases.ts";
import { toUnixSeconds } from "../clock.ts";
import type { ListingFigures } from "./listing-figures.ts";
import type { GoodsRecord } from "./find-goods.ts";

type ListingRow = Selectable<ListingsTable>;

/** The colours the website gives Doppler-style phases. */
const PHASE_COLORS: Readonly<Record<string, string>> = {
  ruby: "#E0115F",
  sapphire: "#0F52BA",
  black_pearl: "#3B3B4F",
  emerald: "#50C878",
  phase_1: "#6A5ACD",
  phase_2: "#C71585",
  phase_3: "#2E8B57",
  phase_4: "#1E90FF",
};

/**
 * How a buyer may pay for a listing (docs/design/website-buying-routes.md#the-websites-buying-routes): marketplace balance and buy-order
 * funds always, the authorized wallet and a bank card where the seller accepts them; each as the
 * code `goods/buy` takes (`WEB_PAY_METHOD_CODES`).
 */
export function listingPayAccounts(
  row: Pick<ListingRow, "allow_wallet_zft" | "allow_epay">,
): WebPayAccount[] {
  const accounts: WebPayAccount[] = ["balance", "margin"];
  if (row.allow_wallet_zft) accounts.push("wallet");
  if (row.allow_epay) accounts.push("bankcard");
  return accounts;
}

function payMethods(row: ListingRow): { channels: string[]; codes: number[] } {
  const channels = listingPayAccounts(row);
  return { channels, codes: channels.map((account) => WEB_PAY_METHOD_CODES[account]) };
}

/** The listed item's phase (Doppler-style goods) or empty strings. */
function phaseData(goods: GoodsRecord, paintindex: number | null) {
  const tag = phaseTagsOf(goods).find((phase) => phasePaintIndex(goods, phase.internal_name) === paintindex);
  return tag
    ? { color: PHASE_COLORS[tag.internal_name] ?? "", name: tag.localized_name }
    : { color: "", name: "" };
}

/** The fade percentage of a Fade-style item, the website's `metaphysic` line; empty otherwise. */
function metaphysic(goods: GoodsRecord, paintseed: number | null) {
  const fade = fadeCalculatorOf(goods);
  if (!fade || paintseed === null) return { data: { color: "", name: "" }, title: "" };
  // The calculator knows the seeds 0-999; an item outside them has no fade percentage.
  const fadePercentage = fade.calculator.getFadePercentage(fade.weapon, paintseed) as
    { percentage: number } | undefined;
  if (!fadePercentage) return { data: { color: "", name: "" }, title: "" };
  return { data: { color: "#E67E22", name: `${fadePercentage.percentage.toFixed(1)}%` }, title: "渐变" };
}

/** A listing on sale as the website shows it (reference: Internal sell listing item). */
export function toWebListing(
  row: ListingRow,
  context: {
    goods: GoodsRecord;
    now: Date;
    viewerId: number | undefined;
    bookmarked: boolean;
    /** The figures every listing record carries (`readListingFigures`). */
    figures: ListingFigures;
  },
) {
  const asset = row.asset as AssetInfo;
  const cooling = row.tradable_after !== null && row.tradable_after > context.now;
  const days = cooling ? Math.ceil((row.tradable_after!.getTime() - context.now.getTime()) / 86_400_000) : 0;
  const inspectUrl = asset.info.inspect_info.inspect_url ?? "";
  const pay = payMethods(row);
  const ownListing = context.viewerId === row.user_id;
  return {
    id: String(row.listing_id),
    user_id: String(row.user_id),
    user_platformid: row.platformid,
    game: RECORD_GAME,
    price: formatMoney(row.price),
    fee: formatMoney(row.fee),
    income: formatMoney(row.price - row.fee),
    deliver_deposit: formatMoney(0),
    description: row.description,
    state_text: "出售中",
    cannot_bargain_reason: row.allow_bargain ? "" : "the seller does not accept offers",
    appid: 730,
    goods_id: row.goods_id,
    created_at: toUnixSeconds(row.created_at),
    updated_at: toUnixSeconds(row.updated_at),
    featured: 0,
    mode: row.force_buyer_send_offer ? 2 : 1,
    order_type: 1,
    state: 1,
    ...context.figures,
    allow_bargain: row.allow_bargain,
    allow_bargain_chat: false,
    allow_bargain_swap: false,
    allow_pending_divide_balance: row.allow_pending_divide_balance,
    bookmarked: context.bookmarked,
    can_bargain: row.allow_bargain && !ownListing,
    can_bargain_chat: false,
    can_bargain_swap: false,
    tradable_cooldown: null,
    supported_pay_channels: pay.channels,
    supported_pay_methods: pay.codes,
    asset_info: {
      assetid: asset.assetid,
      classid: asset.classid,
      contextid: asset.contextid,
      goods_id: asset.goods_id,
      id: asset.id,
      instanceid: asset.instanceid,
      paintwear: asset.paintwear,
      action_link: inspectUrl,
      appid: 730,
      has_tradable_cooldown: cooling,
      tradable_cooldown_text: cooling ? `${days}天后可交易` : "",
      tradable_unfrozen_time: cooling ? toUnixSeconds(row.tradable_after!) : null,
      info: {
        ...asset.info,
        inspect_en_size: "",
        inspect_en_url: "",
        inspect_mobile_size: "",
        inspect_mobile_url: "",
        inspect_size: "",
        inspect_start_at: 0,
        inspect_state: 0,
        inspect_trn_size: "",
        inspect_trn_url: "",
        inspect_url: inspectUrl,
        inspect_version: 0,
        inspected_at: 0,
        metaphysic: metaphysic(context.goods, row.paintseed),
        phase_data: phaseData(context.goods, row.paintindex),
      },
    },
  };
}
