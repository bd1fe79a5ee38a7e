import assert from "node:assert/strict";
import { test } from "node:test";
import { OPERATIONS, type OperationDefinition } from "@skinmarket/contract";

/** The reference's daily allowances and distinct goods per day ("Limits" table), by operation. */
const REFERENCE: Record<string, { daily?: number; distinctGoodsPerDay?: number }> = {
  getMarketItems: { daily: 500 },
  getFloatItems: { daily: 500, distinctGoodsPerDay: 200 },
  getEnterpriseItems: { daily: 5000 },
  getEnterpriseFloatItems: { daily: 5000 },
  getLiquidityRanks: { daily: 5000 },
  getEnterpriseSellOrders: { distinctGoodsPerDay: 200 },
};

test("the contract declares the reference's daily allowances and distinct goods for every operation of its table", () => {
  const declared = Object.fromEntries(
    (OPERATIONS as readonly OperationDefinition[])
      .filter((operation) => operation.limits?.daily || operation.limits?.distinctGoods)
      .map((operation) => [
        operation.id,
        {
          ...(operation.limits!.daily ? { daily: operation.limits!.daily } : {}),
          ...(operation.limits!.distinctGoods
            ? { distinctGoodsPerDay: operation.limits!.distinctGoods.perDay }
            : {}),
        },
      ]),
  );
  assert.deepEqual(declared, REFERENCE);
});

test("float/items counts its goods over both of its goods fields", () => {
  const floatItems = (OPERATIONS as readonly OperationDefinition[]).find(
    (operation) => operation.id === "getFloatItems",
  );
  const distinct = floatItems?.limits?.distinctGoods;
  assert.deepEqual([...(distinct?.fields ?? []), distinct?.field].filter(Boolean).sort(), [
    "goods_ids",
    "market_hash_names",
  ]);
  assert.equal(distinct?.in, "body");
  assert.equal(floatItems?.readOnly, true);
});
