import { parentPort, workerData } from "node:worker_threads";

/**
 * The load of the purchase benchmark, in its own thread so that the client's work does not share
 * the server's event loop (as pgbench's clients do not share PostgreSQL's processes).
 */
interface LoadInput {
  baseUrl: string;
  tokens: string[];
  goodsId: number;
  seconds: number;
}

const { baseUrl, tokens, goodsId, seconds } = workerData as LoadInput;
const deadline = performance.now() + seconds * 1000;
let purchases = 0;
await Promise.all(
  tokens.map(async (token) => {
    while (performance.now() < deadline) {
      const response = await fetch(`${baseUrl}/api/market/developer/purchase/orders`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ game: "cs2", items: [{ goods_id: goodsId, max_price: 100, quantity: 1 }] }),
      });
      const answer = (await response.json()) as { result?: Record<string, { success_num: number }> };
      const bought = answer.result?.[String(goodsId)]?.success_num ?? 0;
      if (bought === 0) return;
      purchases += bought;
    }
  }),
);
parentPort?.postMessage(purchases);
