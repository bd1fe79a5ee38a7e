import { createHmac, randomBytes } from "node:crypto";
import type { DomainContext } from "../domain/context.ts";
import { constantTimeEqual } from "../domain/secrets.ts";
import { sharedSteamFaceKey } from "../platform/sandbox/steam-face-keys.ts";
import { vouchForNonceOnce } from "../platform/sandbox/steam-openid-vouched-nonces.ts";

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
/**
 * Steam's OpenID 2.0 provider as the face plays it (docs/design/steam-face.md#openid): assertions
 * signed with HMAC-SHA256 under a secret kept once in the database, stateless (the relying party
 * asks `check_authentication`), each vouched for at most once: whichever instance signed an
 * assertion, any instance verifies it, and only once among them all.
 */
export class OpenIdProvider {
  readonly #ctx: DomainContext;
  readonly #secret: Buffer;

  private constructor(ctx: DomainContext, secret: Buffer) {
    this.#ctx = ctx;
    this.#secret = secret;
  }

  /** The provider with the database's signing secret, made on first use. */
  static async load(ctx: DomainContext): Promise<OpenIdProvider> {
    const secret = await sharedSteamFaceKey(ctx, "openid_hmac", async () =>
      randomBytes(32).toString("base64"),
    );
    return new OpenIdProvider(ctx, Buffer.from(secret, "base64"));
  }

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
  async checkAuthentication(fields: Record<string, string>, wallNow: Date): Promise<boolean> {
    const signed = (fields["openid.signed"] ?? "").split(",");
    if (!SIGNED.every((name) => signed.includes(name))) return false;
    if (fields["openid.assoc_handle"] !== ASSOC_HANDLE) return false;
    const sig = fields["openid.sig"];
    if (sig === undefined || !constantTimeEqual(sig, this.#sign(fields))) return false;
    return vouchForNonceOnce(this.#ctx, fields["openid.response_nonce"] ?? "", wallNow);
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
