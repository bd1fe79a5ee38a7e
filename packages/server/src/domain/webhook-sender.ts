/** One signed POST of one event to a receiver. */
export interface WebhookRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
}

/** How an attempt went: a 2xx is delivered; anything else (another status, no answer) is not. */
export interface AttemptOutcome {
  delivered: boolean;
  status: number | null;
  error: string | null;
  durationMs: number;
}

/**
 * Sends webhook requests (the HTTP client lives outside the domain, in `src/webhooks/`): a 10 s
 * timeout, no redirects followed, and unless `allowPrivate`, no connection to an address that
 * `isPrivateAddress` refuses, whatever the name resolved to.
 */
export interface WebhookSender {
  readonly allowPrivate: boolean;
  send(request: WebhookRequest): Promise<AttemptOutcome>;
}
