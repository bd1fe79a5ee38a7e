import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { MarketplaceEvent } from "@skinmarket/contract";

/** The header every webhook delivery carries (docs/design/webhooks-and-tools.md#webhook-signature). */
export const SIGNATURE_HEADER = "Skinmarket-Signature";
export const EVENT_ID_HEADER = "Skinmarket-Event-Id";

const DEFAULT_TOLERANCE_SECONDS = 300;

/** Why a delivery was refused: `code` is one of a closed set, `message` says what to do. */
export class WebhookSignatureError extends Error {
  readonly code: "missing_header" | "bad_format" | "too_old" | "no_matching_signature" | "bad_body";
  constructor(code: WebhookSignatureError["code"], message: string) {
    super(message);
    this.name = "WebhookSignatureError";
    this.code = code;
  }
}

export interface VerifyWebhookInput {
  /** The endpoint's secret, `whsec_...`, as the webhook's registration answered it. */
  secret: string;
  /** The `Skinmarket-Signature` header as received (undefined or empty when it is missing). */
  header: string | null | undefined;
  /** The raw request body, exactly as received: parsing and re-encoding it breaks the signature. */
  body: string | Uint8Array;
  /** How old a timestamp may be (default 300 s), against replays of a captured delivery. */
  toleranceSeconds?: number;
  /** Unix seconds now (default the system clock), for tests. */
  now?: number;
}

/** A new signing secret: `whsec_` and 32 random bytes in base64url (43 characters). */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

/** The `Skinmarket-Signature` header for `body` sent at `timestamp` (unix seconds). */
export function signWebhookPayload(input: { secret: string; body: string; timestamp: number }): string {
  return `t=${input.timestamp},v1=${hmacHex(input.secret, input.timestamp, input.body)}`;
}

/**
 * Checks a webhook delivery and answers its event. The header is `t=<unix s>,v1=<hex>`; any `v1`
 * may match (an endpoint rotating its secret is sent one per secret). Comparisons take the same
 * time whatever the bytes, so the signature cannot be guessed byte by byte from response times.
 */
export function verifyWebhookSignature(input: VerifyWebhookInput): MarketplaceEvent {
  const header = input.header?.trim();
  if (!header) {
    throw new WebhookSignatureError("missing_header", `the ${SIGNATURE_HEADER} header is missing`);
  }
  const { timestamp, signatures } = parseHeader(header);
  const now = input.now ?? Math.floor(Date.now() / 1000);
  const tolerance = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (now - timestamp > tolerance) {
    throw new WebhookSignatureError(
      "too_old",
      `${SIGNATURE_HEADER}: t=${timestamp} is ${now - timestamp} s old, more than the ${tolerance} s allowed`,
    );
  }
  const body = typeof input.body === "string" ? Buffer.from(input.body, "utf8") : Buffer.from(input.body);
  const expected = Buffer.from(hmacHex(input.secret, timestamp, body), "hex");
  const matches = signatures.some((signature) => {
    const given = Buffer.from(signature, "hex");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) {
    throw new WebhookSignatureError(
      "no_matching_signature",
      `${SIGNATURE_HEADER}: no v1 signature matches this body and secret (wrong secret, or a body changed on the way)`,
    );
  }
  try {
    return JSON.parse(body.toString("utf8")) as MarketplaceEvent;
  } catch {
    throw new WebhookSignatureError("bad_body", "the signed body is not JSON");
  }
}

function parseHeader(header: string): { timestamp: number; signatures: string[] } {
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const [key, value] = part.trim().split("=", 2) as [string, string | undefined];
    if (key === "t" && value !== undefined && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === "v1" && value !== undefined && /^[0-9a-f]{64}$/i.test(value)) signatures.push(value);
  }
  if (timestamp === undefined || signatures.length === 0) {
    throw new WebhookSignatureError(
      "bad_format",
      `${SIGNATURE_HEADER} must read t=<unix seconds>,v1=<64 hex digits>`,
    );
  }
  return { timestamp, signatures };
}

/** HMAC-SHA256 keyed with the whole secret string of `<t>.<raw body bytes>`. */
function hmacHex(secret: string, timestamp: number, body: string | Buffer): string {
  return createHmac("sha256", Buffer.from(secret, "utf8"))
    .update(`${timestamp}.`)
    .update(typeof body === "string" ? Buffer.from(body, "utf8") : body)
    .digest("hex");
}
