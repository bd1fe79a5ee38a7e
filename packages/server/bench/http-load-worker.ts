import autocannon from "autocannon";
import { parentPort, workerData } from "node:worker_threads";

/**
 * Load for one URL from its own thread, so that the client's work (reading megabytes of answers)
 * does not share the event loop of the server it measures.
 */
export interface HttpLoadInput {
  url: string;
  headers: Record<string, string>;
  connections: number;
  seconds: number;
}

export interface HttpLoadFigures {
  requestsPerSecond: number;
  bytesPerSecond: number;
  non2xx: number;
  errors: number;
}

const input = workerData as HttpLoadInput;
const result = await autocannon({
  url: input.url,
  headers: input.headers,
  connections: input.connections,
  duration: input.seconds,
});
// In a worker thread autocannon answers raw counts (its summaries are built on the main thread).
const raw = result as unknown as {
  totalCompletedRequests: number;
  totalBytes: number;
  duration: number;
  non2xx: number;
  errors: number;
};
const figures: HttpLoadFigures = {
  requestsPerSecond: raw.totalCompletedRequests / raw.duration,
  bytesPerSecond: raw.totalBytes / raw.duration,
  non2xx: raw.non2xx,
  errors: raw.errors,
};
parentPort?.postMessage(figures);
