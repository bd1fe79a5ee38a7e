import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { test } from "node:test";
import { headingAnchors, headingSlug, readText, repositoryTextFiles } from "../support/markdown-anchors.ts";

const ROOT = join(import.meta.dirname, "../../../..");
const files = repositoryTextFiles(ROOT);
const anchorsOf = new Map<string, Set<string>>();

/** Whether `file#anchor` (a path from the repository's root) names a document and a heading in it. */
function problemWith(file: string, anchor: string | undefined): string | undefined {
  if (!existsSync(join(ROOT, file))) return "no such file";
  if (anchor === undefined) return undefined;
  let anchors = anchorsOf.get(file);
  if (!anchors) {
    anchors = headingAnchors(readText(ROOT, file));
    anchorsOf.set(file, anchors);
  }
  return anchors.has(anchor) ? undefined : `no heading with the anchor #${anchor}`;
}

/** Lines (1-based) of the places a pattern matches in a text. */
function lineOf(text: string, offset: number): number {
  return text.slice(0, offset).split("\n").length;
}

test("anchors follow GitHub's rules: punctuation dropped, repeats numbered", () => {
  assert.equal(headingSlug("Where the database's functions live"), "where-the-databases-functions-live");
  assert.equal(
    headingSlug("`GET /api/market/enterprise/goods/sell_order`"),
    "get-apimarketenterprisegoodssell_order",
  );
  assert.deepEqual(
    [...headingAnchors("# Buy orders\n## Buy orders\n```\n# not a heading\n```\n")],
    ["buy-orders", "buy-orders-1"],
  );
});

test("every docs/<document>.md#<anchor> citation in the repository names an existing document and heading", () => {
  const broken: string[] = [];
  let citations = 0;
  for (const file of files) {
    const text = readText(ROOT, file);
    for (const match of text.matchAll(/(?<![\w./-])(docs\/[\w./-]+\.md)(?:#([\w-]+))?/g)) {
      citations++;
      const problem = problemWith(match[1]!, match[2]);
      if (problem) broken.push(`${file}:${lineOf(text, match.index)}: ${match[0]}: ${problem}`);
    }
  }
  assert.ok(citations > 200, `only ${citations} citations found: is the search reading the sources?`);
  assert.deepEqual(broken, []);
});

test("every relative link from a document to a document names an existing file and heading", () => {
  const broken: string[] = [];
  for (const file of files.filter((name) => name.endsWith(".md"))) {
    const text = readText(ROOT, file);
    for (const match of text.matchAll(/\]\((?!https?:|mailto:|#)([^)\s#]+\.md)(?:#([^)\s]+))?\)/g)) {
      const target = normalize(join(dirname(file), match[1]!));
      const problem = problemWith(target, match[2]);
      if (problem) broken.push(`${file}:${lineOf(text, match.index)}: ${match[0]}: ${problem}`);
    }
  }
  assert.deepEqual(broken, []);
});

test("no source, test or document cites the design by section number", () => {
  const bySection = [
    // the design, as a file or a word, followed by a section number
    /\bdesign(?:\.md)?`?\)?,?(?:[\s*/#]|\\n)*sections? \d/g,
    // a link to a numbered section of the old single document
    /design\.md#\d+-/g,
    // a bare section number in brackets: the design was the only document with numbered sections
    /[(,;] ?section \d{1,2}(?![.\d])[),;:]/g,
  ];
  const found: string[] = [];
  for (const file of files) {
    if (file === "docs/marketplace-api.md") continue;
    const text = readText(ROOT, file);
    for (const pattern of bySection)
      for (const match of text.matchAll(pattern)) {
        const line = text.split("\n")[lineOf(text, match.index) - 1]!;
        if (/\bRFC\b/i.test(line)) continue;
        found.push(`${file}:${lineOf(text, match.index)}: ${line.trim()}`);
      }
  }
  assert.deepEqual(found, []);
});
