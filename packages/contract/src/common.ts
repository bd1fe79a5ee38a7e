import { Type, type TProperties } from "typebox";

/** Objects on the wire reject fields they do not name (docs/design.md section 11). */
export function StrictObject<Properties extends TProperties>(
  properties: Properties,
  options: { description?: string; $id?: string } = {},
) {
  return Type.Object(properties, { ...options, additionalProperties: false });
}

/** An amount on the wire: a decimal string with exactly two decimals, e.g. `"12.50"`. */
export const MoneyString = Type.String({ pattern: "^-?\\d+\\.\\d{2}$", examples: ["12.50"] });

/**
 * An amount given by a caller: a number or a numeric string with at most two decimals. The
 * exact rule (decimals, sign, maximum) is applied by `parseMoney`, which names the field.
 */
export const MoneyInput = Type.Union([Type.Number(), Type.String()], {
  description: "Yuan, as a number or a numeric string with at most 2 decimals",
  examples: [12.5, "12.50"],
});

/** Ids of records (users, tokens, orders) travel as decimal strings. */
export const IdString = Type.String({
  pattern: "^[1-9]\\d{0,14}$",
  description: "a decimal id of at most 15 digits, such as 1001",
  examples: ["1001"],
});

/**
 * A nickname: 1-32 characters, no control or invisible format characters, not starting or
 * ending with white space. Compared case-insensitively after Unicode NFC normalization.
 */
export const Nickname = Type.String({
  minLength: 1,
  maxLength: 32,
  pattern: "^[^\\p{C}\\s](?:[^\\p{C}]*[^\\p{C}\\s])?$",
  description: "1-32 visible characters, without control characters or surrounding spaces",
});

/**
 * The game every record names (reference convention 6): `csgo`, whichever game identifier the
 * request used (`cs2` for official operations). Builders use the constant, and the schema admits
 * nothing else, so that no record can name the game otherwise.
 */
export const RECORD_GAME = "csgo" as const;
export const RecordGame = Type.Literal(RECORD_GAME, { description: "always csgo (reference convention 6)" });

export const UnixSeconds = Type.Integer({ minimum: 0, description: "Unix time in seconds" });

export const AccessLevelName = Type.Enum(["developer", "enterprise", "none"]);

export const BuyOrderStatusName = Type.Enum(["online", "offline"]);

/** The `{code: "OK", data, msg: null}` envelope of internal (website) routes. */
export function InternalOk<Data extends Parameters<typeof Type.Object>[0]>(data: Data) {
  return Type.Object({
    code: Type.Literal("OK"),
    data: Type.Object(data),
    msg: Type.Null(),
  });
}
