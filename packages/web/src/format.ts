import { language, t } from "./i18n.ts";
import TAGS from "./tags.json";

const TAG_NAMES = new Map<string, string>();
for (const [category, tags] of Object.entries(TAGS as Record<string, Array<{ name: string; en: string }>>))
  for (const tag of tags) TAG_NAMES.set(`${category}:${tag.name}`, tag.en);

/** A tag's name in the page's language: the server names tags in Chinese, `tags.json` has English. */
export function tagName(category: string, tag: { internal_name: string; localized_name: string }): string {
  if (language.value === "zh") return tag.localized_name;
  return TAG_NAMES.get(`${category}:${tag.internal_name}`) ?? tag.localized_name;
}

/** Yuan with two decimals and thousands separators, the same in both languages ("1,234.50"). */
const YUAN = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** An amount of money as every page writes it: "¥ 12,345.60" ("—" when there is none). */
export function money(amount: string | number | null | undefined): string {
  if (amount === null || amount === undefined || amount === "") return "—";
  return `¥ ${YUAN.format(Number(amount))}`;
}

/**
 * A market price that may not exist: the API says 0 for "no listing" or "no buy order", which
 * reads as a price of nothing, so it is written "none" in the page's language.
 */
export function priceOrNone(amount: string | number | null | undefined): string {
  return amount === null || amount === undefined || Number(amount) <= 0 ? t("none") : money(amount);
}

/**
 * A signed amount of a ledger movement: a minus (U+2212) or a plus, then the money, so a debit
 * and a credit differ in text as well as in colour. `kind` names the colour's class.
 */
export function signedMoney(amount: string): { text: string; kind: "debit" | "credit" } {
  const debit = amount.trim().startsWith("-");
  return {
    text: `${debit ? "−" : "+"}${money(amount.replace(/^\s*-/, ""))}`,
    kind: debit ? "debit" : "credit",
  };
}

export function dateTime(unixSeconds: number | null | undefined): string {
  if (!unixSeconds) return "—";
  return new Date(unixSeconds * 1000).toLocaleString(language.value === "zh" ? "zh-CN" : "en-GB", {
    dateStyle: "medium",
    timeStyle: "short",
  });
}

/** The goods' name in the page's language: the catalog keeps a Chinese and an English one. */
export function goodsName(goods: { name?: string; market_hash_name?: string } | undefined): string {
  if (!goods) return "";
  return (language.value === "zh" ? goods.name : goods.market_hash_name) ?? goods.name ?? "";
}

/** A typed price ("12", "12.5", "12.50") in whole fen, integers only; null when it is not one. */
export function fenOf(text: string): number | null {
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}

/** Whole fen as the API's money text ("12.50"). */
export function yuanOf(fen: number): string {
  return `${Math.trunc(fen / 100)}.${String(fen % 100).padStart(2, "0")}`;
}
