import type { MarketCatalog, MarketGoods } from "../market/market-goods.ts";

/**
 * The forgiving name search of the catalog and its suggestions (docs/design/website-goods-routes.md#the-name-search):
 * case, punctuation and word order do not matter, and every typed word must match a word of the
 * goods' English or Chinese name or one of its common abbreviations. Built once with the catalog
 * index as an inverted index (word -> goods), so a query looks up a few words instead of reading
 * 37,000 names.
 */

/** The exterior abbreviations traders type, by the catalog's exterior tag. */
const EXTERIOR_WORDS: Readonly<Record<string, string>> = {
  wearcategory0: "fn",
  wearcategory1: "mw",
  wearcategory2: "ft",
  wearcategory3: "ww",
  wearcategory4: "bs",
};
/** Abbreviations match only whole: "st" is StatTrak, not every word starting with "st". */
const WHOLE_WORDS: ReadonlySet<string> = new Set([...Object.values(EXTERIOR_WORDS), "st"]);

const HAN = /\p{Script=Han}/u;

/** Lower case, the ™ and ★ marks and punctuation dropped, Han runs split from Latin ones. */
export function searchWords(text: string): string[] {
  return text
    .replace(/[™★]/g, " ")
    .normalize("NFKC")
    .toLowerCase()
    .replace(/(\p{Script=Han}+)/gu, " $1 ")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

/** The text as one run of letters and digits: "AK-47 | Redline" and "ak47 redline" meet. */
export function compactText(text: string): string {
  return searchWords(text).join("");
}

/** Every word a goods can be found by: its names' words, adjacent pairs joined, abbreviations. */
export function goodsWords(goods: MarketGoods): Set<string> {
  return wordsOfNames(goods, [searchWords(goods.market_hash_name), searchWords(goods.name)]);
}

function wordsOfNames(goods: MarketGoods, names: string[][]): Set<string> {
  const words = new Set<string>();
  for (const parts of names) {
    parts.forEach((word, index) => {
      words.add(word);
      const next = parts[index + 1];
      // "AK-47" is typed "ak47", "M4A1-S" "m4a1s", "Field-Tested" "fieldtested".
      if (next !== undefined && !HAN.test(word) && !HAN.test(next)) words.add(word + next);
    });
  }
  const exterior = goods.tags.find((tag) => tag.category === "exterior")?.internal_name;
  if (exterior !== undefined && EXTERIOR_WORDS[exterior]) words.add(EXTERIOR_WORDS[exterior]);
  if (words.has("stattrak")) words.add("st");
  return words;
}

/** The name search over one catalog: its word index and each goods' names as runs of letters and digits. */
export interface CatalogWords {
  index: WordIndex<MarketGoods>;
  compact: ReadonlyMap<MarketGoods, { hashName: string; name: string }>;
}

const catalogWordsCache = new WeakMap<MarketCatalog, CatalogWords>();

/**
 * The catalog's words depend on its names alone, so they are made once per catalog read
 * (`marketCatalog` keeps one until the catalog file changes), not at every rebuild of the
 * catalog index that a price change causes; each name is split into words once.
 */
export function catalogWords(catalog: MarketCatalog): CatalogWords {
  const known = catalogWordsCache.get(catalog);
  if (known) return known;
  const compact = new Map<MarketGoods, { hashName: string; name: string }>();
  const index = new WordIndex([...catalog.byId.values()], (goods) => {
    const names = [searchWords(goods.market_hash_name), searchWords(goods.name)];
    compact.set(goods, { hashName: names[0]!.join(""), name: names[1]!.join("") });
    return wordsOfNames(goods, names);
  });
  const words = { index, compact };
  catalogWordsCache.set(catalog, words);
  return words;
}

/**
 * How closely a name matches the typed text: 0 the whole name, 1 its start, 2 inside it (each as
 * one run of letters and digits), 3 only word by word.
 */
export function phraseTier(nameCompact: string, typedCompact: string): 0 | 1 | 2 | 3 {
  if (nameCompact === typedCompact) return 0;
  if (nameCompact.startsWith(typedCompact)) return 1;
  return nameCompact.includes(typedCompact) ? 2 : 3;
}

/** An inverted index of the catalog's words over items of type `Item` (positions in `items`). */
export class WordIndex<Item> {
  readonly #items: readonly Item[];
  /** Every word, sorted, for prefix lookups by binary search. */
  readonly #words: string[];
  readonly #postings: Map<string, number[]>;

  constructor(items: readonly Item[], wordsOf: (item: Item) => Iterable<string>) {
    this.#items = items;
    this.#postings = new Map();
    items.forEach((item, position) => {
      for (const word of wordsOf(item)) {
        const list = this.#postings.get(word);
        if (list) list.push(position);
        else this.#postings.set(word, [position]);
      }
    });
    this.#words = [...this.#postings.keys()].sort();
  }

  /**
   * The items matching every word of the text, or undefined when the text has no word. A word
   * matches a word of the goods it starts (the last one is often half typed); an abbreviation
   * (FT, ST...) only itself; a Han word any word containing it (Chinese is written unspaced).
   */
  match(text: string): Item[] | undefined {
    const typed = [...new Set(searchWords(text))];
    if (typed.length === 0) return undefined;
    let found: Set<number> | undefined;
    // The rarest word first, so that the sets shrink at once.
    const sets = typed.map((word) => this.#positionsOf(word)).sort((a, b) => a.size - b.size);
    for (const positions of sets) {
      if (found === undefined) found = positions;
      else found = new Set([...found].filter((position) => positions.has(position)));
      if (found.size === 0) return [];
    }
    return [...found!].map((position) => this.#items[position]!);
  }

  #positionsOf(word: string): Set<number> {
    const positions = new Set<number>();
    const add = (key: string) => {
      for (const position of this.#postings.get(key) ?? []) positions.add(position);
    };
    if (WHOLE_WORDS.has(word)) add(word);
    else if (HAN.test(word)) {
      for (const key of this.#words) if (key.includes(word)) add(key);
    } else {
      for (let index = lowerBound(this.#words, word); index < this.#words.length; index++) {
        const key = this.#words[index]!;
        if (!key.startsWith(word)) break;
        add(key);
      }
    }
    return positions;
  }
}

function lowerBound(sorted: readonly string[], value: string): number {
  let [low, high] = [0, sorted.length];
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}
