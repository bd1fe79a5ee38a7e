import { lookup, type LookupAddress } from "node:dns";
import { request as httpRequest, type ClientRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { isPrivateAddress, isPrivateHost } from "../domain/webhooks/signing.ts";
import type { AttemptOutcome, WebhookRequest, WebhookSender } from "../domain/webhook-sender.ts";

/** A receiver has this long to answer, from the start of the attempt to the end of its headers. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/**
 * Webhook POSTs over node:http (docs/design/security.md#webhook-receivers-and-secrets and docs/design/webhooks-and-tools.md#attempts): no redirects followed (a 3xx
 * is a failed attempt), a 10 s timeout, the answer's body ignored. Unless `allowPrivate`, the
 * connection is refused when the host is, or resolves to, a loopback, private or link-local
 * address: the check is made on the address connected to (the lookup's answer), so a name that
 * resolves elsewhere at attempt time than at registration cannot reach the internal network.
 */
export class HttpWebhookSender implements WebhookSender {
  readonly allowPrivate: boolean;
  readonly #timeoutMs: number;

  constructor(options: { allowPrivate: boolean; timeoutMs?: number }) {
    this.allowPrivate = options.allowPrivate;
    this.#timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  }

  send(webhook: WebhookRequest): Promise<AttemptOutcome> {
    const started = performance.now();
    const done = (status: number | null, error: string | null): AttemptOutcome => ({
      delivered: status !== null && status >= 200 && status < 300,
      status,
      error: error ?? (status !== null && (status < 200 || status >= 300) ? `answered HTTP ${status}` : null),
      durationMs: performance.now() - started,
    });
    return new Promise((resolve) => {
      let url: URL;
      try {
        url = new URL(webhook.url);
      } catch {
        resolve(done(null, "not a valid URL"));
        return;
      }
      // A private literal or a local name is refused before any lookup (an endpoint registered
      // while the server allowed them is refused once it does not); other names are judged on
      // the addresses they resolve to.
      if (!this.allowPrivate && isPrivateHost(url.hostname)) {
        resolve(done(null, "refused: the host is a loopback, private or local address"));
        return;
      }
      let settled = false;
      const finish = (outcome: AttemptOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(outcome);
      };
      const send = url.protocol === "https:" ? httpsRequest : httpRequest;
      let req: ClientRequest;
      try {
        req = send(url, {
          method: "POST",
          headers: { ...webhook.headers, "content-length": String(Buffer.byteLength(webhook.body)) },
          ...(this.allowPrivate ? {} : { lookup: publicOnlyLookup }),
          agent: false,
        });
      } catch (error) {
        resolve(done(null, error instanceof Error ? error.message : String(error)));
        return;
      }
      const timer = setTimeout(() => {
        finish(done(null, `no answer within ${this.#timeoutMs / 1000} s`));
        req.destroy();
      }, this.#timeoutMs);
      req.on("response", (response) => {
        finish(done(response.statusCode ?? null, null));
        // The body is not read: drop it and the connection.
        response.resume();
        response.on("error", () => undefined);
        req.destroy();
      });
      req.on("error", (error: NodeJS.ErrnoException) =>
        finish(done(null, error.code ? `${error.code}: ${error.message}` : error.message)),
      );
      req.end(webhook.body);
    });
  }
}

/** `dns.lookup`, refusing names that resolve to any address `isPrivateAddress` refuses. */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  lookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, "", 0);
    const list = Array.isArray(addresses) ? addresses : [];
    if (list.length === 0 || list.some((address) => isPrivateAddress(address.address))) {
      const refused = Object.assign(
        new Error(`refused: ${hostname} resolves to a loopback, private or local address`),
        {
          code: "EPRIVATE",
        },
      );
      return callback(refused, "", 0);
    }
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
    return callback(null, list[0]!.address, list[0]!.family);
  });
};
