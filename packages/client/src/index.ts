export { MarketApiError, MarketTransportError } from "./errors.ts";
export { MarketClient, type MarketClientOptions } from "./market-client.ts";
export { LimitTracker, type Rate, type RateLimitState } from "./rate-limits.ts";
export { SandboxClient } from "./sandbox-client.ts";
export { callOperation, type TransportOptions } from "./transport.ts";
export { WebClient } from "./web-client.ts";
