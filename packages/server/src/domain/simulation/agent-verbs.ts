import { formatMoney } from "@skinmarket/contract";
import { cancelBuyOrders } from "../buy-orders/cancel-buy-orders.ts";
import { createBuyOrder } from "../buy-orders/create-buy-order.ts";
import type { DomainContext } from "../context.ts";
import { repriceItems } from "../listings/change-listings.ts";
import { listItems } from "../listings/list-items.ts";
import type { Result } from "../result.ts";
import { purchaseGoods } from "../trades/purchase-goods.ts";
import { cancelPurchaseOrders } from "../trades/cancel-purchase-orders.ts";
import { sendOffer } from "../trades/send-offer.ts";
import type { SandboxHands } from "./sandbox-hands.ts";
import type { SimulationAgent } from "./simulation-state.ts";

/**
 * What an agent can do, each answering "OK" or why not. The simulator calls the domain verbs
 * directly (`directVerbs`); the benchmark sends the same actions through HTTP with the same
 * interface, to compare the two paths on the same actions. Prices are in fen.
 */
export interface AgentVerbs {
  list(agent: SimulationAgent, assetid: string, price: number): Promise<string>;
  reprice(agent: SimulationAgent, listingId: number, price: number): Promise<string>;
  buy(agent: SimulationAgent, goodsId: number, maxPrice: number): Promise<string>;
  bid(agent: SimulationAgent, goodsId: number, price: number, num: number): Promise<string>;
  cancelBid(agent: SimulationAgent, buyOrderId: number): Promise<string>;
  deliver(agent: SimulationAgent, tradeId: number): Promise<string>;
  /** The buyer cancels a purchase the seller has not delivered (after 30 minutes). */
  cancelPurchase(agent: SimulationAgent, tradeId: number): Promise<string>;
  accept(agent: SimulationAgent, tradeofferid: string): Promise<string>;
}

function outcomeOf(result: Result<unknown>): string {
  return result.ok ? "OK" : result.failure.message;
}

/** The agents' verbs as a user's request calls them, with a context whose actor is the agent. */
export function directVerbs(admin: DomainContext, hands: SandboxHands): AgentVerbs {
  const as = (agent: SimulationAgent): DomainContext => ({
    ...admin,
    actor: { kind: "user", userId: agent.userId },
  });
  return {
    async list(agent, assetid, price) {
      const listed = await listItems(as(agent), [{ assetid, price: formatMoney(price) }]);
      return listed.ok ? listed.value.results[assetid]! : listed.failure.message;
    },
    async reprice(agent, listingId, price) {
      const id = String(listingId);
      const repriced = await repriceItems(as(agent), [{ sellOrderId: id, price: formatMoney(price) }]);
      return repriced.ok ? repriced.value[id]! : repriced.failure.message;
    },
    async buy(agent, goodsId, maxPrice) {
      const bought = await purchaseGoods(as(agent), {
        items: [{ goodsId, maxPrice: formatMoney(maxPrice), quantity: 1 }],
        payMethod: "balance",
      });
      if (!bought.ok) return bought.failure.message;
      const entry = bought.value.result[String(goodsId)];
      return entry && entry.success_num > 0 ? "OK" : (entry?.msg ?? "nothing at or below the price");
    },
    async bid(agent, goodsId, price, num) {
      return outcomeOf(await createBuyOrder(as(agent), { goodsId, price: formatMoney(price), num }));
    },
    async cancelBid(agent, buyOrderId) {
      const id = String(buyOrderId);
      const cancelled = await cancelBuyOrders(as(agent), [id]);
      return cancelled.ok ? cancelled.value[id]! : cancelled.failure.message;
    },
    async deliver(agent, tradeId) {
      return outcomeOf(await sendOffer(as(agent), { orderId: String(tradeId) }));
    },
    async cancelPurchase(agent, tradeId) {
      const id = String(tradeId);
      const cancelled = await cancelPurchaseOrders(as(agent), [id]);
      if (!cancelled.ok) return cancelled.failure.message;
      return cancelled.value.success_list.includes(id)
        ? "OK"
        : (cancelled.value.error_list[id] ?? "not cancelled");
    },
    async accept(agent, tradeofferid) {
      return outcomeOf(await hands.acceptOffer(as(agent), { platformid: agent.platformid, tradeofferid }));
    },
  };
}
