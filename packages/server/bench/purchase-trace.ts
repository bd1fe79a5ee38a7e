import pg from "pg";

/**
 * Where a purchase's time goes inside PostgreSQL (`npm run bench -- purchases --trace`): a few
 * hundred purchases of one unit sent one at a time on one connection, as `purchase_goods_unit`
 * is called by a request, with `auto_explain` logging every statement the functions and triggers
 * run (nested statements, trigger times, per-node timing) back to the client. The figures are
 * inflated by the instrumentation and taken without contention; they say where the time goes,
 * not how fast it goes (docs/design/performance.md#how-the-bench-measures).
 */
export interface PurchaseTrace {
  purchases: number;
  /** Per distinct statement, slowest first: its time a purchase (its nested statements included). */
  statements: Array<{ text: string; perPurchase: number; microseconds: number; triggers: TriggerTime[] }>;
  /** The top-level statement's time a purchase, and the triggers' share of it by kind. */
  totalUs: number;
  foreignKeyChecksUs: number;
  foreignKeyChecks: number;
  eventTriggersUs: number;
}

interface TriggerTime {
  name: string;
  calls: number;
  microseconds: number;
}

interface Plan {
  "Query Text": string;
  Triggers?: Array<{ "Trigger Name": string; "Constraint Name"?: string; Time: number; Calls: number }>;
}

export async function tracePurchases(
  url: string,
  input: { buyerId: number; goods: readonly number[]; maxPrice: number },
): Promise<PurchaseTrace> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const notices: string[] = [];
    client.on("notice", (notice) => notices.push(notice.message ?? ""));
    await client.query("LOAD 'auto_explain'");
    for (const setting of [
      "auto_explain.log_min_duration = 0",
      "auto_explain.log_analyze = on",
      "auto_explain.log_nested_statements = on",
      "auto_explain.log_triggers = on",
      "auto_explain.log_format = json",
      "client_min_messages = log",
    ])
      await client.query(`SET ${setting}`);
    let purchases = 0;
    let topLevelMs = 0;
    const byText = new Map<string, { runs: number; ms: number; triggers: Map<string, TriggerTime> }>();
    let foreignKeyMs = 0;
    let foreignKeyChecks = 0;
    let eventTriggersMs = 0;
    for (const goodsId of input.goods) {
      notices.length = 0;
      const { rows } = await client.query<{ o_outcome: string }>(
        `SELECT o_outcome FROM purchase_goods_unit($1, $2, $3, ARRAY['balance']::text[], NULL::text, NULL::text,
           now(), 1800000, 'bench', NULL::text)`,
        [input.buyerId, goodsId, input.maxPrice * 100],
      );
      if (rows[0]?.o_outcome !== "bought") continue;
      purchases += 1;
      for (const notice of notices) {
        const logged = /^duration: ([\d.]+) ms\s+plan:\s*([\s\S]*)$/.exec(notice);
        if (!logged) continue;
        const plan = JSON.parse(logged[2]!) as Plan;
        const text = plan["Query Text"].replace(/\s+/g, " ").trim();
        if (text.startsWith("SELECT o_outcome FROM purchase_goods_unit")) topLevelMs += Number(logged[1]);
        let entry = byText.get(text);
        if (!entry) byText.set(text, (entry = { runs: 0, ms: 0, triggers: new Map() }));
        entry.runs += 1;
        entry.ms += Number(logged[1]);
        for (const trigger of plan.Triggers ?? []) {
          const name = trigger["Constraint Name"] ?? trigger["Trigger Name"];
          const kept = entry.triggers.get(name) ?? { name, calls: 0, microseconds: 0 };
          kept.calls += trigger.Calls;
          kept.microseconds += trigger.Time * 1000;
          entry.triggers.set(name, kept);
          if (trigger["Constraint Name"]) {
            foreignKeyMs += trigger.Time;
            foreignKeyChecks += trigger.Calls;
          } else eventTriggersMs += trigger.Time;
        }
      }
    }
    if (purchases === 0) throw new Error("the trace bought nothing");
    const per = (ms: number) => (ms * 1000) / purchases;
    return {
      purchases,
      statements: [...byText]
        .map(([text, entry]) => ({
          text,
          perPurchase: entry.runs / purchases,
          microseconds: per(entry.ms),
          triggers: [...entry.triggers.values()].map((trigger) => ({
            ...trigger,
            calls: trigger.calls / purchases,
            microseconds: trigger.microseconds / purchases,
          })),
        }))
        .sort((a, b) => b.microseconds - a.microseconds),
      totalUs: per(topLevelMs),
      foreignKeyChecksUs: per(foreignKeyMs),
      foreignKeyChecks: foreignKeyChecks / purchases,
      eventTriggersUs: per(eventTriggersMs),
    };
  } finally {
    await client.end();
  }
}

/** The trace as lines: the totals, then each statement over `minimumUs` a purchase with its triggers. */
export function traceLines(trace: PurchaseTrace, minimumUs = 5): string[] {
  const share = (us: number) => `${((us / trace.totalUs) * 100).toFixed(0)} %`;
  const lines = [
    `trace: ${trace.purchases} purchases on one connection (auto_explain, timed): ${trace.totalUs.toFixed(0)} us a purchase in PostgreSQL;` +
      ` foreign-key checks ${trace.foreignKeyChecksUs.toFixed(0)} us (${trace.foreignKeyChecks.toFixed(1)} a purchase, ${share(trace.foreignKeyChecksUs)}),` +
      ` event triggers ${trace.eventTriggersUs.toFixed(0)} us (${share(trace.eventTriggersUs)})`,
  ];
  for (const statement of trace.statements) {
    if (statement.microseconds < minimumUs) continue;
    lines.push(
      `trace: ${statement.microseconds.toFixed(0).padStart(5)} us  x${statement.perPurchase.toFixed(1)}  ${statement.text.slice(0, 100)}`,
    );
    for (const trigger of statement.triggers)
      lines.push(
        `trace:          trigger ${trigger.name}: ${trigger.microseconds.toFixed(0)} us, ${trigger.calls.toFixed(1)} calls`,
      );
  }
  return lines;
}
