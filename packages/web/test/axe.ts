import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

/** axe-core's own build, injected into the page under test as a script of its own. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/**
 * The rules run: every WCAG 2.0, 2.1 and 2.2 rule of levels A and AA, and axe's best practices
 * (landmarks, one main, headings, region), none switched off. A violation fails the test when its
 * impact is serious or critical: those stop a person (no name for a control, text that cannot be
 * read, a focus trap the keyboard cannot leave); moderate and minor ones are printed, not gated.
 */
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];
const GATED = new Set(["serious", "critical"]);

/**
 * The page's globals as the functions this file and the tests run in the browser use them (the
 * tests are type-checked without the DOM's types).
 */
export interface PageGlobals {
  innerWidth: number;
  axe?: { run(context: unknown, options: unknown): Promise<{ violations: Violation[] }> };
  document: {
    documentElement: { scrollWidth: number; clientWidth: number };
    activeElement: PageElement | null;
    querySelector(selector: string): PageElement | null;
    querySelectorAll(selector: string): Iterable<PageElement>;
  };
}

export interface PageElement {
  textContent: string | null;
  tagName: string;
  className: string;
  closest(selector: string): PageElement | null;
  getBoundingClientRect(): { right: number };
}

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * Runs axe on the page (or on what `scope`, a CSS selector, picks, such as an open dialog) and
 * fails with every serious or critical violation, naming the rule and the elements.
 */
export async function assertAccessible(page: Page, what: string, scope?: string): Promise<void> {
  const loaded = await page.evaluate(() => (globalThis as unknown as PageGlobals).axe !== undefined);
  if (!loaded) await page.addScriptTag({ content: AXE_SOURCE });
  const violations = await page.evaluate(
    async ({ scope, tags }) => {
      const { axe, document } = globalThis as unknown as PageGlobals;
      const result = await axe!.run(scope ? { include: [scope] } : document, {
        runOnly: { type: "tag", values: tags },
        resultTypes: ["violations"],
      });
      return result.violations.map(({ id, impact, help, nodes }) => ({
        id,
        impact,
        help,
        nodes: nodes.map(({ target }) => ({ target })),
      }));
    },
    { scope, tags: TAGS },
  );
  const gated = violations.filter((violation) => GATED.has(violation.impact ?? ""));
  for (const violation of violations.filter((each) => !GATED.has(each.impact ?? "")))
    console.log(`axe (${what}, not gated): ${violation.impact} ${violation.id}: ${violation.help}`);
  assert.deepEqual(
    gated.map(
      (violation) =>
        `${violation.impact} ${violation.id}: ${violation.help} at ${violation.nodes
          .slice(0, 3)
          .map((node) => JSON.stringify(node.target))
          .join(", ")}`,
    ),
    [],
    `axe found serious or critical violations on ${what}`,
  );
}

/**
 * Fails when the page is wider than the window: a person would have to pan sideways. Measured
 * against the layout viewport (the root's client width), not `innerWidth`: a phone browser zooms
 * out to show a page wider than its screen, and `innerWidth` then grows with the page.
 */
export async function assertNoSidewaysScroll(page: Page, what: string): Promise<void> {
  const { scrollWidth, viewport, widest } = await page.evaluate(() => {
    const { document } = globalThis as unknown as PageGlobals;
    const width = document.documentElement.clientWidth;
    // The element that sticks out furthest, to name in the failure.
    let widest = "";
    let right = width;
    // Inside a table's own scroller an element may stick out; named only when nothing else does.
    for (const inScroller of [false, true]) {
      for (const element of document.querySelectorAll("body *")) {
        const box = element.getBoundingClientRect();
        if (box.right > right + 0.5 && (inScroller || !element.closest(".table-scroll"))) {
          right = box.right;
          widest = `${element.tagName.toLowerCase()}.${element.className} (${Math.round(box.right)} px)`;
        }
      }
      if (widest) break;
    }
    return { scrollWidth: document.documentElement.scrollWidth, viewport: width, widest };
  });
  assert.ok(
    scrollWidth <= viewport,
    `${what} is ${scrollWidth} px wide in a ${viewport} px window: ${widest}`,
  );
}
