import autocannon from "autocannon";
import { parentPort, workerData } from "node:worker_threads";

/**
 * The load of the purchase benchmark, in its own thread so that the client's work does not share
 * the server's event loop (as pgbench's clients do not share PostgreSQL's processes). autocannon
 * keeps one connection per buyer, each with that buyer's token.
 */
interface LoadInput {
  baseUrl: string;
  tokens: string[];
  goodsId: number;
  seconds: number;
}

export interface LoadFigures {
  purchases: number;
  emptyAnswers: number;
  failures: number;
}

const { baseUrl, tokens, goodsId, seconds } = workerData as LoadInput;
const figures: LoadFigures = { purchases: 0, emptyAnswers: 0, failures: 0 };
let nextToken = 0;
await autocannon({
  url: `${baseUrl}/api/market/developer/purchase/orders`,
  connections: tokens.length,
  duration: seconds,
  requests: [
    {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ game: "cs2", items: [{ goods_id: goodsId, max_price: 100, quantity: 1 }] }),
      onResponse(status: number, body: string) {
        if (status !== 200) {
          figures.failures += 1;
          return;
        }
        const answer = JSON.parse(body) as { result?: Record<string, { success_num: number }> };
        const bought = answer.result?.[String(goodsId)]?.success_num ?? 0;
        if (bought === 0) figures.emptyAnswers += 1;
        figures.purchases += bought;
      },
    },
  ],
  setupClient(client: { setHeaders(headers: Record<string, string>): void }) {
    const token = tokens[nextToken++ % tokens.length]!;
    client.setHeaders({ authorization: `Bearer ${token}`, "content-type": "application/json" });
  },
});
parentPort?.postMessage(figures);
