import type { DestinationStream } from "pino";
import { PinoPretty } from "pino-pretty";

/** Fields a request's lines carry that the pretty format puts into the message instead. */
const FOLDED_FIELDS = ["reqId", "req", "res", "responseTime", "failure"];

/**
 * pino-pretty's lines for a person (`LOG_FORMAT=pretty`): a request's two lines read
 * `[reqId] incoming request: GET /path` and `[reqId] request completed: 404 in 3 ms (Not Found:
 * ...)` instead of four indented objects; every other field is shown below its line as usual.
 * Written synchronously in this process (not in pino's worker thread), so that the lines keep
 * their order with what the server writes on stderr.
 */
export function prettyStream(destination?: DestinationStream): DestinationStream {
  return PinoPretty({
    ...(destination ? { destination, colorize: false } : { destination: 1, sync: true }),
    translateTime: "SYS:HH:MM:ss.l",
    ignore: ["pid", "hostname", ...FOLDED_FIELDS].join(","),
    messageFormat: (log, messageKey) => {
      const message = String(log[messageKey] ?? "");
      const prefix = typeof log.reqId === "string" ? `[${log.reqId}] ` : "";
      const req = log.req as { method?: string; url?: string } | undefined;
      const res = log.res as { statusCode?: number } | undefined;
      const failure = log.failure as { code?: string; msg?: string } | undefined;
      if (req) return `${prefix}${message}: ${req.method} ${req.url}`;
      if (res) {
        const time = typeof log.responseTime === "number" ? ` in ${Math.round(log.responseTime)} ms` : "";
        const why = failure ? ` (${failure.code}: ${failure.msg})` : "";
        return `${prefix}${message}: ${res.statusCode}${time}${why}`;
      }
      return `${prefix}${message}`;
    },
  });
}
