import { createHmac, randomBytes } from "node:crypto";
import { BlockList, isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { invalidArgument, ok, type Result } from "../result.ts";

/**
 * How webhook deliveries are signed and where they may go (docs/design/security.md#webhook-receivers-and-secrets and docs/design/webhooks-and-tools.md#webhook-signature).
 * The signature is the one agreed with the SDK's verifier:
 * `Skinmarket-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`, the key
 * being the whole secret string's UTF-8 bytes.
 */
export const SIGNATURE_HEADER = "skinmarket-signature";
export const EVENT_ID_HEADER = "skinmarket-event-id";
export const TEST_HEADER = "skinmarket-test";

const WEBHOOK_SECRET_PREFIX = "whsec_";

export function generateWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString("base64url")}`;
}

/** The `Skinmarket-Signature` value of `body` signed at `timestamp` (Unix seconds). */
export function signatureHeader(secret: string, body: string, timestamp: number): string {
  const digest = createHmac("sha256", Buffer.from(secret, "utf8"))
    .update(`${timestamp}.${body}`)
    .digest("hex");
  return `t=${timestamp},v1=${digest}`;
}

/**
 * Addresses a receiver may not have unless the server allows private receivers
 * (`WEBHOOK_ALLOW_PRIVATE_URLS=true`): loopback, private networks, link-local (cloud metadata),
 * carrier-grade NAT, multicast, reserved and unspecified ones.
 */
const PRIVATE_RANGES = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  PRIVATE_RANGES.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of [
  ["64:ff9b::", 96],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const)
  PRIVATE_RANGES.addSubnet(network, prefix, "ipv6");

/**
 * IPv6 prefixes whose last 32 bits are an IPv4 address: IPv4-mapped (`::ffff:127.0.0.1`),
 * IPv4-translated (`::ffff:0:7f00:1`, RFC 6145) and IPv4-compatible (`::127.0.0.1`, which also
 * holds `::` and `::1`). Such an address is judged as the IPv4 address it carries, whichever way
 * it is written.
 */
const CARRYING_IPV4 = [
  ipaddr.IPv6.parseCIDR("::ffff:0:0/96"),
  ipaddr.IPv6.parseCIDR("::ffff:0:0:0/96"),
  ipaddr.IPv6.parseCIDR("::/96"),
];

/** Whether `address` (an IP literal) is loopback, private or otherwise not on the public internet. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, "");
  // Only the canonical literals `net` knows; anything else is no address to connect to.
  if (isIP(bare) === 0) return true;
  const parsed = ipaddr.parse(bare);
  if (parsed.kind() === "ipv4") return PRIVATE_RANGES.check(parsed.toString(), "ipv4");
  const ipv6 = parsed as ipaddr.IPv6;
  if (CARRYING_IPV4.some((range) => ipv6.match(range))) {
    const carried = ipaddr.fromByteArray(ipv6.toByteArray().slice(12));
    return PRIVATE_RANGES.check(carried.toString(), "ipv4");
  }
  return PRIVATE_RANGES.check(ipv6.toNormalizedString(), "ipv6");
}

const LOCAL_NAMES = /^(localhost|.*\.localhost|.*\.local|.*\.internal)$/i;

/**
 * The host a URL's host name is judged as: without IPv6 brackets, and without the trailing dot
 * of a fully qualified name (`localhost.` is `localhost`).
 */
function judgedHost(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "");
}

/** Whether a URL's host is a private address or a local name (a name is resolved at each attempt). */
export function isPrivateHost(hostname: string): boolean {
  const host = judgedHost(hostname);
  return isIP(host) !== 0 ? isPrivateAddress(host) : LOCAL_NAMES.test(host);
}

/**
 * Checks a receiver URL: absolute http or https, no user name or password (it would be shown in
 * every listing), and unless `allowPrivate`, no host that is a private address or a local name.
 * Names are checked again at every attempt, on the addresses they resolve to then.
 */
export function checkWebhookUrl(text: string, allowPrivate: boolean, field = "url"): Result<string> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return invalidArgument(field, "must be an absolute http:// or https:// URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return invalidArgument(field, "must be an absolute http:// or https:// URL");
  if (url.username || url.password) return invalidArgument(field, "must not hold a user name or password");
  if (!allowPrivate && isPrivateHost(url.hostname))
    return invalidArgument(
      field,
      "must not point at a loopback, private or local address (this server allows them only with WEBHOOK_ALLOW_PRIVATE_URLS=true)",
    );
  return ok(url.href);
}
