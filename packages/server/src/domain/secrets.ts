import { createHash, createHmac, hash, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Secrets: API tokens and session ids are 256-bit random values, stored only as SHA-256 digests;
 * passwords are hashed in `password-hash.ts`. Nothing here ever logs a secret.
 */

export const API_TOKEN_PREFIX = "smk_";
const API_TOKEN_PATTERN = /^smk_[A-Za-z0-9_-]{43}$/;
const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function generateSecret(): string {
  return randomBytes(32).toString("base64url");
}

export function generateApiToken(): string {
  return `${API_TOKEN_PREFIX}${generateSecret()}`;
}

export function isWellFormedApiToken(token: string): boolean {
  return API_TOKEN_PATTERN.test(token);
}

export function isWellFormedSessionId(sessionId: string): boolean {
  return SESSION_ID_PATTERN.test(sessionId);
}

/** The visible part kept beside a token's hash, so a user can tell their tokens apart. */
export function tokenDisplayPrefix(token: string): string {
  return token.slice(0, API_TOKEN_PREFIX.length + 6);
}

export function sha256Hex(secret: string): string {
  return hash("sha256", secret, "hex");
}

export function constantTimeEqual(left: string, right: string): boolean {
  const a = createHash("sha256").update(left).digest();
  const b = createHash("sha256").update(right).digest();
  return timingSafeEqual(a, b);
}

/**
 * The CSRF token of a website session: an HMAC of a fixed label keyed by the session id. Only the
 * holder of the session can know it, it ends with the session, and it reveals nothing of the id
 * (docs/design/security.md#cross-site-request-forgery).
 */
export function csrfTokenOf(sessionId: string): string {
  return createHmac("sha256", sessionId).update("skinmarket csrf_token").digest("base64url");
}
