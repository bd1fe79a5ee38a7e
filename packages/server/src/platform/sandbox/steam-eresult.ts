/**
 * Steam's result codes (EResult) that the face answers, by their numbers in Steam's own enum; the
 * libraries read them from `X-eresult` (and steam-session turns them into errors by these names).
 */
export const ERESULT = {
  OK: 1,
  Fail: 2,
  InvalidPassword: 5,
  InvalidParam: 8,
  FileNotFound: 9,
  AccessDenied: 15,
  Expired: 27,
  DuplicateRequest: 29,
  TwoFactorCodeMismatch: 88,
  InvalidSignature: 121,
} as const;

export type EResult = (typeof ERESULT)[keyof typeof ERESULT];

/** A Steam call's answer: its value, or the EResult Steam gives with a message. */
export type SteamResult<Value> =
  { ok: true; value: Value } | { ok: false; eresult: EResult; message: string };

export function steamOk<Value>(value: Value): SteamResult<Value> {
  return { ok: true, value };
}

export function steamFail<Value = never>(eresult: EResult, message: string): SteamResult<Value> {
  return { ok: false, eresult, message };
}
