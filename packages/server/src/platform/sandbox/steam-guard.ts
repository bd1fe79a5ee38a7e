import { createHmac } from "node:crypto";
import type { Clock } from "../../domain/clock.ts";

/**
 * Steam Guard's mobile authenticator, as steam-totp and steampy compute it (and so as the real
 * app does): a 5-character code per 30-second window from `shared_secret`. The sandbox checks what
 * bots compute with the same algorithm.
 */
const CODE_ALPHABET = "23456789BCDFGHJKMNPQRTVWXY";
const WINDOW_SECONDS = 30;
/** Steam accepts the code of the window before and after too (clocks a little apart). */
const WINDOWS_ACCEPTED = [0, -1, 1];

export function steamGuardCode(sharedSecret: string, unixSeconds: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(unixSeconds / WINDOW_SECONDS)));
  const hmac = createHmac("sha1", Buffer.from(sharedSecret, "base64")).update(counter).digest();
  const start = (hmac[19] ?? 0) & 0x0f;
  let value = hmac.readUInt32BE(start) & 0x7fffffff;
  let code = "";
  for (let index = 0; index < 5; index++) {
    code += CODE_ALPHABET.charAt(value % CODE_ALPHABET.length);
    value = Math.floor(value / CODE_ALPHABET.length);
  }
  return code;
}

/** Whether `code` is the account's Steam Guard code at `unixSeconds` (or a window beside it). */
export function isSteamGuardCode(sharedSecret: string, unixSeconds: number, code: string): boolean {
  const given = code.trim().toUpperCase();
  return WINDOWS_ACCEPTED.some(
    (window) => steamGuardCode(sharedSecret, unixSeconds + window * WINDOW_SECONDS) === given,
  );
}

/**
 * The times a bot's authenticator may be at, in seconds: the sandbox clock's (a bot that asked
 * QueryTime) and the wall clock's (one that did not), which part once the sandbox clock is moved
 * (docs/design/steam-face.md#time).
 */
export function authenticatorTimes(clock: Clock): number[] {
  const sandbox = Math.floor(clock.now().getTime() / 1000);
  const wall = Math.floor(Date.now() / 1000);
  return sandbox === wall ? [sandbox] : [sandbox, wall];
}

/** Whether `code` is the account's Steam Guard code at one of the authenticator's times. */
export function isSteamGuardCodeNow(sharedSecret: string, clock: Clock, code: string): boolean {
  return authenticatorTimes(clock).some((seconds) => isSteamGuardCode(sharedSecret, seconds, code));
}
