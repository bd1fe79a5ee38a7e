export { MarketApiError, MarketTransportError } from "./errors.ts";
export { MarketStreamError, streamUrl, type EventsOptions, type ReconnectOptions } from "./event-stream.ts";
export { MarketClient, type MarketClientOptions } from "./market-client.ts";
export { LimitTracker, type Rate, type RateLimitState } from "./rate-limits.ts";
export { SandboxClient } from "./sandbox-client.ts";
export { callOperation, type TransportOptions } from "./transport.ts";
export {
  EVENT_ID_HEADER,
  generateWebhookSecret,
  SIGNATURE_HEADER,
  signWebhookPayload,
  verifyWebhookSignature,
  WebhookSignatureError,
  type VerifyWebhookInput,
} from "./webhook-signature.ts";
export { WebClient } from "./web-client.ts";
export { AccountClient } from "./account-client.ts";
export { StaffClient } from "./staff-client.ts";
export type { PollEventsOptions } from "./poll-events.ts";
