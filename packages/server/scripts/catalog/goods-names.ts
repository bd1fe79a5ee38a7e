import type { CS2Item } from "@ianlucas/cs2-lib";
import type { GoodsQuality, GoodsType } from "../../src/domain/catalog/catalog-file.ts";
import type { SourceIndex } from "./source-index.ts";
import { QUALITIES, STRIPPED_PREFIXES } from "./steam-names.ts";

/** Market hash names and Chinese names as Steam writes them, and the slugs tags are named by. */

export interface BaseNames {
  english: string;
  chinese: string;
}

/** The names without quality and exterior, in the form Steam and the marketplace use. */
export function baseNames(type: GoodsType, item: CS2Item, context: SourceIndex): BaseNames {
  let english = context.english(item);
  let chinese = context.chinese(item);
  const prefixes = STRIPPED_PREFIXES[type];
  if (prefixes !== undefined) {
    english = stripPrefix(english, prefixes[0], context);
    chinese = stripPrefix(chinese, prefixes[1], context);
  }
  if (type === "graffiti") {
    // Only sealed graffiti trade; an opened one is a spray with charges left.
    english = `Sealed ${english}`;
    chinese = chinese.replace(/^涂鸦 \| /, "封装的涂鸦 | ");
  }
  return { english, chinese };
}

function stripPrefix(name: string, prefix: string, context: SourceIndex): string {
  if (name.startsWith(prefix)) return name.slice(prefix.length);
  context.warn(`${JSON.stringify(name)} does not start with ${JSON.stringify(prefix)}; kept whole`);
  return name;
}

/** `StatTrak™ AK-47 | Redline` and `AK-47（StatTrak™） | 红线`, `★ Karambit` and `★ 爪子刀`. */
export function qualityNames(
  names: BaseNames,
  quality: GoodsQuality,
): { marketHashName: string; name: string } {
  const { english, marker } = QUALITIES[quality];
  const star = quality === "unusual" || quality === "unusual_stattrak" ? "★ " : "";
  const separator = names.chinese.indexOf(" | ");
  const chinese =
    separator < 0
      ? names.chinese + marker
      : names.chinese.slice(0, separator) + marker + names.chinese.slice(separator);
  return { marketHashName: english + names.english, name: star + chinese };
}

export function slug(text: string): string {
  return text
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
}
