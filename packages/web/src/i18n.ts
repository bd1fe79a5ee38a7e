import { Store } from "./store.ts";
import { ZH } from "./zh.ts";

export type Language = "en" | "zh";

function initialLanguage(): Language {
  const saved = localStorage.getItem("skinmarket.language");
  if (saved === "en" || saved === "zh") return saved;
  return navigator.language.toLowerCase().startsWith("zh") ? "zh" : "en";
}

/** The page's language, kept in localStorage so that it survives reloads and new visits. */
export const language = new Store<Language>(initialLanguage());
document.documentElement.lang = language.value === "zh" ? "zh-Hans" : "en";

export function setLanguage(next: Language): void {
  localStorage.setItem("skinmarket.language", next);
  document.documentElement.lang = next === "zh" ? "zh-Hans" : "en";
  language.set(next);
}

/** A text in the page's language: English is the key, `zh.ts` has the Chinese. `{n}` is replaced. */
export function t(text: string, values: Record<string, string | number> = {}): string {
  const translated = language.value === "zh" ? (ZH[text] ?? text) : text;
  return translated.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}
