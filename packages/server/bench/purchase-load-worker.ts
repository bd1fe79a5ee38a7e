import autocannon from "autocannon";
import { parentPort, workerData } from "node:worker_threads";

/**
 * The load of the purchase benchmark, in its own thread so that the client's work does not share
 * the server's event loop (as pgbench's clients do not share PostgreSQL's processes). autocannon
 * keeps one connection per buyer, each with that buyer's token. Each request buys one unit of the
 * next goods of `goods` (from `offset` on): the order the buyers, together, pick goods in.
 * With `amount`, the load stops after that many requests even before `seconds` (a market with
 * less on sale than a full run would buy).
 */
interface LoadInput {
  baseUrl: string;
  tokens: string[];
  goods: number[];
  offset: number;
  maxPrice: number;
  seconds: number;
  amount?: number;
}

export interface LoadFigures {
  purchases: number;
  emptyAnswers: number;
  failures: number;
  /** Requests sent: the next load goes on from `offset + requests` in the same order. */
  requests: number;
  /** How long the load ran. */
  seconds: number;
}

const { baseUrl, tokens, goods, offset, maxPrice, seconds, amount } = workerData as LoadInput;
const figures: LoadFigures = { purchases: 0, emptyAnswers: 0, failures: 0, requests: 0, seconds: 0 };
let nextToken = 0;
const started = performance.now();
await autocannon({
  url: `${baseUrl}/api/market/developer/purchase/orders`,
  connections: tokens.length,
  ...(amount === undefined ? { duration: seconds } : { amount }),
  requests: [
    {
      method: "POST",
      setupRequest(request: autocannon.Request, context: object) {
        const goodsId = goods[(offset + figures.requests++) % goods.length]!;
        (context as { goodsId?: number }).goodsId = goodsId;
        request.body = JSON.stringify({
          game: "cs2",
          items: [{ goods_id: goodsId, max_price: maxPrice, quantity: 1 }],
        });
        return request;
      },
      onResponse(status: number, body: string, context: { goodsId?: number }) {
        if (status !== 200) {
          figures.failures += 1;
          return;
        }
        const answer = JSON.parse(body) as { result?: Record<string, { success_num: number }> };
        const bought = answer.result?.[String(context.goodsId)]?.success_num ?? 0;
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
figures.seconds = (performance.now() - started) / 1000;
parentPort?.postMessage(figures);
