import { createHmac, randomBytes } from "node:crypto";
import { constantTimeEqual } from "../domain/secrets.ts";

export const OPENID_NS = "http://specs.openid.net/auth/2.0";
export const OPENID_ENDPOINT = "https://steamcommunity.com/openid/login";
export const IDENTIFIER_SELECT = "http://specs.openid.net/auth/2.0/identifier_select";
const CLAIMED_ID_PREFIX = "https://steamcommunity.com/openid/id/";
/** Steam signs every assertion under this one handle, in stateless mode (no association). */
const ASSOC_HANDLE = "1234567890";
const SIGNED = [
  "signed",
  "op_endpoint",
  "claimed_id",
  "identity",
  "return_to",
  "response_nonce",
  "assoc_handle",
];
/** How long a nonce is remembered as verified: longer than any relying party accepts it. */
const NONCE_MEMORY_MS = 60 * 60 * 1000;

/**
 * Steam's OpenID 2.0 provider as the face plays it (docs/design/steam-face.md#openid): assertions
 * signed with HMAC-SHA256 under a secret of this process, stateless (the relying party asks
 * `check_authentication`), each verified at most once (OpenID 2.0, 11.4.2.1).
 */
export class OpenIdProvider {
  readonly #secret = randomBytes(32);
  readonly #verifiedNonces = new Map<string, number>();

  /** The fields added to `return_to` for the account: what Steam's redirect carries. */
  assert(steamid: string, returnTo: string, wallNow: Date): Record<string, string> {
    const claimedId = `${CLAIMED_ID_PREFIX}${steamid}`;
    const stamp = wallNow.toISOString().replace(/\.\d{3}Z$/, "Z");
    const fields: Record<string, string> = {
      "openid.ns": OPENID_NS,
      "openid.mode": "id_res",
      "openid.op_endpoint": OPENID_ENDPOINT,
      "openid.claimed_id": claimedId,
      "openid.identity": claimedId,
      "openid.return_to": returnTo,
      "openid.response_nonce": `${stamp}${randomBytes(12).toString("base64url")}`,
      "openid.assoc_handle": ASSOC_HANDLE,
      "openid.signed": SIGNED.join(","),
    };
    fields["openid.sig"] = this.#sign(fields);
    return fields;
  }

  /** `is_valid` of a `check_authentication`: the signature is ours and its nonce is new. */
  checkAuthentication(fields: Record<string, string>, wallNow: Date): boolean {
    const signed = (fields["openid.signed"] ?? "").split(",");
    if (!SIGNED.every((name) => signed.includes(name))) return false;
    if (fields["openid.assoc_handle"] !== ASSOC_HANDLE) return false;
    const sig = fields["openid.sig"];
    if (sig === undefined || !constantTimeEqual(sig, this.#sign(fields))) return false;
    const nonce = fields["openid.response_nonce"] ?? "";
    for (const [seen, at] of this.#verifiedNonces)
      if (wallNow.getTime() - at > NONCE_MEMORY_MS) this.#verifiedNonces.delete(seen);
    if (this.#verifiedNonces.has(nonce)) return false;
    this.#verifiedNonces.set(nonce, wallNow.getTime());
    return true;
  }

  #sign(fields: Record<string, string>): string {
    const names = (fields["openid.signed"] ?? "").split(",");
    const text = names.map((name) => `${name}:${fields[`openid.${name}`] ?? ""}\n`).join("");
    return createHmac("sha256", this.#secret).update(text).digest("base64");
  }
}

/** Key-value form (OpenID 2.0, 4.1.1), the body of a direct answer. */
export function keyValueForm(entries: Record<string, string>): string {
  return Object.entries(entries)
    .map(([key, value]) => `${key}:${value}\n`)
    .join("");
}
