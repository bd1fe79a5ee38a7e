import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { ZH } from "../src/zh.ts";

const SOURCES = join(import.meta.dirname, "../src");

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Every English text a page passes to `t`, directly or from its tables of labels. */
function englishTexts(): Set<string> {
  const texts = new Set<string>();
  for (const file of sourceFiles(SOURCES)) {
    if (file.endsWith("zh.ts")) continue;
    const source = readFileSync(file, "utf8");
    for (const match of source.matchAll(/\bt\(\s*"((?:[^"\\]|\\.)*)"/g))
      texts.add(JSON.parse(`"${match[1]}"`));
    // Label tables: `["price.asc", "Price: low to high"]` and `PAYING: "Paying"` entries passed to t().
    for (const match of source.matchAll(/\[\s*(?:"[\w.-]+"|\d+)\s*,\s*"([A-Z+][^"]*)"\s*\]/g))
      texts.add(match[1]!);
    for (const match of source.matchAll(/^\s+(?:[A-Za-z_]+|\d+):\s*"([A-Z][^"]*)",$/gm)) texts.add(match[1]!);
  }
  return texts;
}

test("every text the pages show has its Chinese", () => {
  const missing = [...englishTexts()].filter((text) => !(text in ZH));
  assert.deepEqual(missing, []);
});

test("the Chinese keeps each text's placeholders", () => {
  for (const [english, chinese] of Object.entries(ZH)) {
    const names = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
    assert.deepEqual(names(chinese), names(english), english);
  }
});
