import { request as httpsRequest, type Agent } from "node:https";
import type { CheckAuthentication } from "../../domain/sessions/steam-openid-assertion.ts";

/** Steam answers in a few hundred milliseconds; a sign-in waits no longer than this for it. */
const TIMEOUT_MS = 10_000;
const MAX_ANSWER_BYTES = 4096;

/**
 * "Sign in through Steam"'s reach to Steam: where to send the browser, and how to ask it
 * `check_authentication`. `agent` is how Steam's names are reached: Node's default (the real
 * Steam), or, with the sandbox's Steam face on, through the face and trusting its CA.
 */
export interface SteamOpenIdSettings {
  endpoint: string;
  agent?: () => Agent | undefined;
}

/** A direct request (OpenID 2.0, 5.1): the form posted over TLS, the key-value answer read back. */
export function checkAuthenticationOver(settings: SteamOpenIdSettings): CheckAuthentication {
  return (endpoint, fields) =>
    new Promise((resolve, reject) => {
      const body = new URLSearchParams(fields).toString();
      const agent = settings.agent?.();
      const request = httpsRequest(
        endpoint,
        {
          method: "POST",
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            "content-length": Buffer.byteLength(body),
          },
          timeout: TIMEOUT_MS,
          ...(agent ? { agent } : {}),
        },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on("data", (chunk: Buffer) => {
            size += chunk.length;
            if (size > MAX_ANSWER_BYTES) response.destroy(new Error("Steam's OpenID answer is too long"));
            else chunks.push(chunk);
          });
          response.on("error", reject);
          response.on("end", () =>
            resolve(response.statusCode === 200 ? Buffer.concat(chunks).toString("utf8") : ""),
          );
        },
      );
      request.on("timeout", () =>
        request.destroy(new Error("Steam's OpenID endpoint did not answer in time")),
      );
      request.on("error", reject);
      request.end(body);
    });
}
