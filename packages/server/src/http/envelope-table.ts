import type { Envelope } from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import FindMyWay, { type HTTPMethod } from "find-my-way";
import { envelopeForPath } from "./failure.ts";

const OPERATION_METHODS: readonly HTTPMethod[] = ["GET", "POST", "PUT", "DELETE"];

/**
 * The envelope of a request answered before Fastify has routed it, or that no route took
 * (docs/design/wire-conventions.md#idempotent-writes): headers over 16 KiB (431), a
 * request too slow to arrive (408), bytes that are not HTTP, a URL that cannot be parsed, an
 * unknown method. It is the envelope of the operation the request's method and path name, found
 * by the router Fastify itself uses (find-my-way, with the server's options), so that a website
 * route's refusal comes in the website's envelope wherever it is made. A path that names an
 * operation under another method takes that operation's; a path that names none falls back to
 * the path rule (`envelopeForPath`).
 */
export class EnvelopeTable {
  private readonly router = FindMyWay({ ignoreTrailingSlash: true, maxParamLength: 16 * 1024 });

  /** Follows the app's routes as they are registered: call before any route is. */
  follow(app: FastifyInstance): void {
    app.addHook("onRoute", (route) => {
      const envelope = route.config?.envelope;
      if (!envelope) return;
      for (const method of [route.method].flat() as HTTPMethod[])
        if (!this.router.hasRoute(method, route.url)) this.router.on(method, route.url, () => {}, envelope);
    });
  }

  /** The envelope for a request's method and URL (its query string and fragment ignored). */
  of(method: string | undefined, url: string): Envelope {
    const path = url.split(/[?#]/, 1)[0] ?? "/";
    const methods = [method?.toUpperCase() as HTTPMethod, ...OPERATION_METHODS];
    for (const candidate of methods) {
      if (!candidate) continue;
      try {
        const found = this.router.find(candidate, path);
        if (found) return found.store as Envelope;
      } catch {
        // A path the router cannot read (bad percent-encoding) names no operation.
        break;
      }
    }
    return envelopeForPath(path);
  }
}
