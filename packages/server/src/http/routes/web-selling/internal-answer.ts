import { ok, type Result } from "../../../domain/result.ts";

/** A domain verb's value in the website's envelope `{code: "OK", data, msg: null}`. */
export function internalAnswer<Data>(result: Result<Data>) {
  return result.ok ? ok({ code: "OK" as const, data: result.value, msg: null }) : result;
}
