/**
 * The performance goals of docs/design/performance.md#goals, as the bench's results file writes
 * them beside the figures: which figures a goal judges (by name), and the bound they must keep.
 */
export interface BenchGoal {
  /** The goal as the design states it. */
  text: string;
  /** The figures it judges, by name. */
  figures: RegExp;
  /** What is bounded: the figure's ratio to its baseline, or its value in its unit. */
  of: "ratio" | "value";
  atLeast?: number;
  atMost?: number;
}

export const BENCH_GOALS: readonly BenchGoal[] = [
  {
    text: "whole-catalog price answers: >= 0.9 x bare node:http serving the same bytes, with 100 changes a second",
    figures: /^whole market \(/,
    of: "ratio",
    atLeast: 0.9,
  },
  {
    text: "a listing change visible within 1 s, single goods and whole market",
    figures: /^freshness, /,
    of: "value",
    atMost: 1000,
  },
  {
    text: "single-goods price lookups: >= 0.6 x a Fastify hello-world",
    figures: /^single goods$/,
    of: "ratio",
    atLeast: 0.6,
  },
  {
    text: "no event-loop stall over 100 ms at start or during a rebuild",
    figures: /^event-loop (lag|work), /,
    of: "value",
    atMost: 100,
  },
  {
    text: "/healthz answers within 100 ms at every moment after the port opens",
    figures: /^\/healthz, .*, max$/,
    of: "value",
    atMost: 100,
  },
  {
    text: "at most 600 MB resident, steady, on the default demo market with the embedded database",
    figures: /^resident memory, /,
    of: "value",
    atMost: 600,
  },
  {
    text: "purchases on PostgreSQL: >= 0.5 x pgbench TPC-B (scale = clients = buyers), ledger invariants intact",
    figures: /^purchases, /,
    of: "ratio",
    atLeast: 0.5,
  },
  {
    text: "a whole-market rebuild within a second",
    figures: /^whole-market rebuild /,
    of: "value",
    atMost: 1000,
  },
  {
    text: "an update of changed goods within the quarter second the updates run in",
    figures: /^update of 100 changed goods /,
    of: "value",
    atMost: 250,
  },
  {
    text: "a slice of the rolling recheck within the second each slice has",
    figures: /^rolling recheck's slice/,
    of: "value",
    atMost: 1000,
  },
  {
    text: "listings through POST sell_order/items: >= 0.5 x a plain 200-row INSERT",
    figures: /^listings, .*, (answered|with events) /,
    of: "ratio",
    atLeast: 0.5,
  },
  {
    text: "the event stream: >= 0.5 x the bare broadcast's events a second per subscriber",
    figures: /^event stream \(/,
    of: "ratio",
    atLeast: 0.5,
  },
  {
    text: "the event stream: p99 delay under 50 ms at 1,000 subscribers and 1,000 events a second",
    figures: /^event delay p99 \(/,
    of: "value",
    atMost: 50,
  },
];

/** The goal of the listing queries, judged on each query shape's p99 and plan. */
export const LISTING_QUERY_GOAL = {
  text: "listing queries over 1,000,000 listings: p99 <= 20 ms, every query index-backed",
  p99AtMostMs: 20,
};

export function goalOf(figureName: string): BenchGoal | undefined {
  return BENCH_GOALS.find((goal) => goal.figures.test(figureName));
}
