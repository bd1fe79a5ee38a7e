import { Type, type Static } from "typebox";
import { GoodsId, StrictObject, Text } from "./common.ts";

/**
 * Scenarios of the living sandbox (docs/sandbox.md, "Scenarios"): a timeline of effects in sandbox
 * time that the simulation applies at its steps. Written by users as YAML or JSON files; this
 * schema is what both are checked against, so an error names the field.
 */

/** A stretch of sandbox time: seconds, or a number with a unit (`90s`, `10m`, `1.5h`, `2d`). */
export const ScenarioDuration = Type.Union(
  [
    Type.Integer({ minimum: 0, maximum: 30 * 86_400 }),
    Type.String({ pattern: "^\\d{1,5}(\\.\\d{1,3})?(s|m|h|d)$", maxLength: 12 }),
  ],
  { description: "Seconds, or a number with a unit: 90s, 10m, 1.5h, 2d (at most 30 days)" },
);

const Share = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });

/** Where and when an effect acts: `at` after the scenario starts, for `for` (sandbox time). */
const Timing = {
  at: Type.Optional({
    ...ScenarioDuration,
    description: "When the effect begins, after the scenario starts (default 0)",
  }),
  for: Type.Optional({ ...ScenarioDuration, description: "How long it lasts (default 1h)" }),
};

/** Goods types of the catalog an effect can name (`knife`, `gloves`, `container`, `weapon`, ...). */
const GoodsType = Type.String({
  pattern: "^[a-z_]{1,32}$",
  description: "A goods type of the catalog: knife, gloves, weapon, container, sticker, agent, ...",
});

export const PriceShiftEffect = StrictObject({
  type: Type.Literal("price_shift"),
  ...Timing,
  category: Type.Optional(GoodsType),
  goods_ids: Type.Optional(Type.Array(GoodsId, { minItems: 1, maxItems: 20 })),
  change: Type.Number({
    minimum: -0.9,
    maximum: 5,
    description: "The fair values' change over the effect's time: -0.3 is a 30 % crash, 0.5 a 50 % spike",
  }),
  add_goods: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 10,
      description: "Goods of the category brought into the simulation when it has fewer (default 2)",
    }),
  ),
});

export const NewCaseEffect = StrictObject({
  type: Type.Literal("new_case"),
  ...Timing,
  goods_id: Type.Optional({
    ...GoodsId,
    description: "The case; default: one with no market, drawn from the seed",
  }),
  premium: Type.Optional(
    Type.Number({
      minimum: 1,
      maximum: 20,
      description: "First price as a multiple of its usual price (default 4)",
    }),
  ),
  volume: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 20,
      description: "Extra purchases a step at release, decaying to none (default 3)",
    }),
  ),
});

export const PlatformOutageEffect = StrictObject({
  type: Type.Literal("platform_outage"),
  ...Timing,
});

export const CookieStormEffect = StrictObject({
  type: Type.Literal("cookie_storm"),
  ...Timing,
  share: Type.Optional(Share("The share of bound platform accounts whose cookies expire (default 1)")),
});

export const NonDeliveryEffect = StrictObject({
  type: Type.Literal("non_delivery"),
  ...Timing,
  share: Type.Optional(Share("The share of sales whose seller never sends the offer (default 1)")),
});

export const RollbackEffect = StrictObject({
  type: Type.Literal("rollback"),
  ...Timing,
  share: Type.Optional(
    Share("The share of trades delivered during the effect that are rolled back (default 0.5)"),
  ),
  delay: Type.Optional({
    ...ScenarioDuration,
    description: "How long after delivery the platform reverses it (default 10m)",
  }),
});

export const BuyOrderWallEffect = StrictObject({
  type: Type.Literal("buy_order_wall"),
  ...Timing,
  goods_id: Type.Optional({
    ...GoodsId,
    description: "The goods; default: one of the simulation's, drawn from the seed",
  }),
  below: Type.Optional(
    Type.Number({
      minimum: 0,
      maximum: 0.5,
      description: "How far under the fair value the wall stands (default 0.05)",
    }),
  ),
  num: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: "Units wanted (default 200)" })),
});

export const ScenarioEffect = Type.Union([
  PriceShiftEffect,
  NewCaseEffect,
  PlatformOutageEffect,
  CookieStormEffect,
  NonDeliveryEffect,
  RollbackEffect,
  BuyOrderWallEffect,
]);
export type ScenarioEffect = Static<typeof ScenarioEffect>;

export const EFFECT_TYPES = [
  "price_shift",
  "new_case",
  "platform_outage",
  "cookie_storm",
  "non_delivery",
  "rollback",
  "buy_order_wall",
] as const;

export const ScenarioDefinition = StrictObject({
  name: Type.String({
    pattern: "^[a-z0-9][a-z0-9-]{0,47}$",
    description: "Lowercase letters, digits and dashes",
  }),
  description: Type.Optional(Text({ maxLength: 500, multiline: true })),
  effects: Type.Array(ScenarioEffect, { minItems: 1, maxItems: 20 }),
});
export type ScenarioDefinition = Static<typeof ScenarioDefinition>;
