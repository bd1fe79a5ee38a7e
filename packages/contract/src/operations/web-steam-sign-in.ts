import { Type } from "typebox";
import { IdString, InternalOk, Text } from "../common.ts";
import { defineOperation } from "../operation.ts";

/** GET /account/api/steam/login: where the browser goes to sign in through Steam (docs/design/security.md#sign-in-through-steam). */
export const startSteamSignIn = defineOperation({
  id: "startSteamSignIn",
  method: "GET",
  path: "/account/api/steam/login",
  access: "public",
  envelope: "internal",
  summary: "Answers the Steam OpenID URL that signs the browser in through Steam",
  description:
    "The URL is Steam's OpenID 2.0 `checkid_setup` with this site's sign-in page as `openid.return_to`; Steam sends the browser back there with the assertion, which the page posts to `POST /account/api/steam/login`.",
  tags: ["Web account"],
  response: InternalOk({ redirect_url: Type.String() }),
});

/** POST /account/api/steam/login: verifies Steam's assertion and sets the `session` cookie. */
export const completeSteamSignIn = defineOperation({
  id: "completeSteamSignIn",
  method: "POST",
  path: "/account/api/steam/login",
  access: "public",
  envelope: "internal",
  summary: "Signs in with the assertion Steam returned, making the account at the first sign-in",
  description:
    "The body is the `openid.*` query parameters Steam added to the sign-in page's URL. Steam itself is asked (`check_authentication`) whether it signed them; the `return_to` must be this site's sign-in page and each nonce signs in once. The first sign-in of a Steam account makes the marketplace account and binds the Steam account to it; later ones sign in to that account. Sets the `session` and `csrf_token` cookies as `login` does.",
  tags: ["Web account"],
  body: Type.Record(Type.String({ pattern: "^openid\\.[a-z_.]{1,40}$" }), Text({ maxLength: 1024 }), {
    maxProperties: 32,
    additionalProperties: false,
  }),
  response: InternalOk({ user_id: IdString, nickname: Type.String(), created: Type.Boolean() }),
});
