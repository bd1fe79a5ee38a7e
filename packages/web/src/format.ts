import { language } from "./i18n.ts";
import TAGS from "./tags.json";

const TAG_NAMES = new Map<string, string>();
for (const [category, tags] of Object.entries(TAGS as Record<string, Array<{ name: string; en: string }>>))
  for (const tag of tags) TAG_NAMES.set(`${category}:${tag.name}`, tag.en);

/** A tag's name in the page's language: the server names tags in Chinese, `tags.json` has English. */
export function tagName(category: string, tag: { internal_name: string; localized_name: string }): string {
  if (language.value === "zh") return tag.localized_name;
  return TAG_NAMES.get(`${category}:${tag.internal_name}`) ?? tag.localized_name;
}

export function money(amount: string | number | null | undefined): string {
  if (amount === null || amount === undefined || amount === "") return "—";
  return `¥ ${Number(amount).toFixed(2)}`;
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
