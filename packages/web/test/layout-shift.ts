import assert from "node:assert/strict";
import type { BrowserContext, Page } from "playwright-core";

/** What the recorder keeps on the page: each shift not caused by input, and what moved. */
interface ShiftGlobals {
  __layoutShifts: Array<{ value: number; moved: string[] }>;
  PerformanceObserver: new (
    callback: (list: {
      getEntries(): Array<{
        value: number;
        hadRecentInput: boolean;
        sources?: Array<{ node?: { nodeName: string; className: string } }>;
      }>;
    }) => void,
  ) => { observe(options: { type: string; buffered: boolean }): void };
}

/**
 * Records every page the context loads from then on: the layout shifts the browser reports
 * (Lighthouse's CLS counts the same entries), leaving out those a click or key caused.
 */
export async function recordLayoutShifts(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const globals = globalThis as unknown as ShiftGlobals;
    globals.__layoutShifts = [];
    new globals.PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        if (!entry.hadRecentInput)
          globals.__layoutShifts.push({
            value: entry.value,
            moved: (entry.sources ?? []).map((source) =>
              source.node ? `${source.node.nodeName.toLowerCase()}.${source.node.className}` : "?",
            ),
          });
    }).observe({ type: "layout-shift", buffered: true });
  });
}

/**
 * The page, loaded and drawn, moved nothing on its way (a cumulative layout shift under 0.01,
 * where Lighthouse calls 0.1 good): what arrives late takes room reserved for it or lands below.
 */
export async function assertNoLayoutShift(page: Page, what: string): Promise<void> {
  const shifts = await page.evaluate(() => (globalThis as unknown as ShiftGlobals).__layoutShifts);
  const total = shifts.reduce((sum, shift) => sum + shift.value, 0);
  assert.ok(
    total < 0.01,
    `${what} shifts its layout by ${total.toFixed(3)}: ${shifts
      .map((shift) => `${shift.value.toFixed(3)} (${shift.moved.join(", ")})`)
      .join("; ")}`,
  );
}
