/**
 * The same JS values from both drivers: BIGINT (OID 20) as a safe integer `number`, NUMERIC
 * (OID 1700) as its exact decimal string. A BIGINT beyond 2^53 would lose precision silently as
 * a number, so it is refused loudly instead; no amount or id of ours gets near it.
 */
export const INT8_OID = 20;
export const NUMERIC_OID = 1700;

export function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`BIGINT ${text} is outside the safe integer range`);
  return value;
}

export function parseNumeric(text: string): string {
  return text;
}
