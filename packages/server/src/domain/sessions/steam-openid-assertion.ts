import { fail, ok, type Result } from "../result.ts";

/**
 * The relying party's side of "Sign in through Steam" (docs/design/security.md#sign-in-through-steam):
 * Steam's OpenID 2.0 in stateless mode, as every Steam relying party uses it. Only the provider's
 * own `check_authentication` answer makes an assertion true; before asking, the assertion's form
 * is checked here (the endpoint is ours to name, the claimed id is Steam's form, the `return_to`
 * is the page we sent the browser from, the nonce is fresh), so a forged one costs no round trip.
 */
export const STEAM_OPENID_ENDPOINT = "https://steamcommunity.com/openid/login";
const OPENID_NS = "http://specs.openid.net/auth/2.0";
const IDENTIFIER_SELECT = "http://specs.openid.net/auth/2.0/identifier_select";
/** Steam's claimed ids, whatever the endpoint: the steamid64 is the account. */
const CLAIMED_ID = /^https:\/\/steamcommunity\.com\/openid\/id\/(7656119\d{10})$/;
/** The fields an assertion must sign (OpenID 2.0, 10.1), so none can be swapped beside the signature. */
const MUST_SIGN = ["op_endpoint", "claimed_id", "identity", "return_to", "response_nonce", "assoc_handle"];
/** A nonce's time may be this far from ours; older ones are refused, so only younger ones are kept. */
export const NONCE_SKEW_MS = 5 * 60 * 1000;

/** The provider's answer to `check_authentication`: its key-value body. */
export type CheckAuthentication = (endpoint: string, fields: Record<string, string>) => Promise<string>;

/** Where the browser goes to sign in: `checkid_setup` with our `return_to` and realm. */
export function steamOpenIdRedirectUrl(endpoint: string, returnTo: string): string {
  const url = new URL(endpoint);
  const params = {
    "openid.ns": OPENID_NS,
    "openid.mode": "checkid_setup",
    "openid.return_to": returnTo,
    "openid.realm": new URL(returnTo).origin,
    "openid.identity": IDENTIFIER_SELECT,
    "openid.claimed_id": IDENTIFIER_SELECT,
  };
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.toString();
}

export interface VerifiedSteamAssertion {
  steamid: string;
  nonce: string;
}

/**
 * Checks a positive assertion returned to `returnTo`, then asks the provider at `endpoint`
 * whether it signed it. Every refusal is `Unauthorized` and names what was wrong.
 */
export async function verifySteamAssertion(input: {
  endpoint: string;
  returnTo: string;
  fields: Record<string, string>;
  wallNow: Date;
  checkAuthentication: CheckAuthentication;
}): Promise<Result<VerifiedSteamAssertion>> {
  const { fields } = input;
  const refuse = (why: string) => fail("Unauthorized", `Steam sign-in refused: ${why}`);
  if (fields["openid.ns"] !== OPENID_NS) return refuse("openid.ns is not OpenID 2.0's");
  if (fields["openid.mode"] !== "id_res")
    return refuse(`openid.mode is ${fields["openid.mode"] ?? "missing"}`);
  if (fields["openid.op_endpoint"] !== input.endpoint)
    return refuse("openid.op_endpoint is not the provider's");
  const claimed = CLAIMED_ID.exec(fields["openid.claimed_id"] ?? "");
  if (!claimed?.[1]) return refuse("openid.claimed_id is not a Steam id");
  if (fields["openid.identity"] !== fields["openid.claimed_id"])
    return refuse("openid.identity differs from openid.claimed_id");
  if (fields["openid.return_to"] !== input.returnTo) return refuse("openid.return_to is not this site's");
  const signed = (fields["openid.signed"] ?? "").split(",");
  const unsigned = MUST_SIGN.find((name) => !signed.includes(name));
  if (unsigned) return refuse(`openid.${unsigned} is not signed`);
  const nonce = fields["openid.response_nonce"] ?? "";
  const stamp = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z)/.exec(nonce)?.[1];
  if (!stamp || nonce.length > 255) return refuse("openid.response_nonce is malformed");
  if (Math.abs(input.wallNow.getTime() - Date.parse(stamp)) > NONCE_SKEW_MS)
    return refuse("openid.response_nonce is too old");
  const answer = await input.checkAuthentication(input.endpoint, {
    ...fields,
    "openid.mode": "check_authentication",
  });
  if (!/^is_valid:true$/m.test(answer)) return refuse("the provider does not vouch for the assertion");
  return ok({ steamid: claimed[1], nonce });
}
