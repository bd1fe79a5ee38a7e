import { Type, type TObjectOptions, type TProperties } from "typebox";
import { MAX_MONEY_FEN } from "./money.ts";

/**
 * Every input has bounds (docs/design/wire-conventions.md#bounds-of-every-input): each number a
 * minimum and a maximum that its column and JavaScript both hold, each text a maximum length and
 * no control characters. The builders below are the only way the operations say "a number" or
 * "a text", and a test of the contract holds every request schema to it.
 */

/** Objects on the wire reject fields they do not name (docs/design/security.md#security). */
export function StrictObject<Properties extends TProperties>(
  properties: Properties,
  options: Omit<TObjectOptions, "additionalProperties"> = {},
) {
  return Type.Object(properties, { ...options, additionalProperties: false });
}

/**
 * Object options that need at least one of `fields` (each optional on its own), such as a goods
 * named by `goods_id` or by `market_hash_name`.
 */
export function needingOneOf(...fields: [string, string, ...string[]]) {
  return { anyOf: fields.map((field) => ({ required: [field] })) };
}

/** The largest value of a PostgreSQL `integer` column (goods ids, tag ids). */
export const INT32_MAX = 2_147_483_647;

/** A goods id: the catalog's `integer` key. */
export const GoodsId = Type.Integer({ minimum: 1, maximum: INT32_MAX });

/**
 * Marks a union that takes an integer as a number or as its decimal digits (`IntegerOrDigits`):
 * the validator reads the digits as the number before any check.
 */
export const INTEGER_OR_DIGITS = "x-integer-or-digits";

/** The longest digits read as a number: 15 digits are always a safe integer. */
export const INTEGER_DIGITS_MAX = 15;

/**
 * An integer the website's tools send as a number or as its decimal text (`5` or `"5"`): one
 * bound for both forms (docs/design/wire-conventions.md#bounds-of-every-input). The validator reads
 * text of plain digits (an optional minus, at most 15 digits) as the number before any check, so
 * the integer's minimum and maximum judge it; the text branch only describes the form and refuses
 * any other text (`"1.5"`, `"abc"`).
 */
export function IntegerOrDigits(bounds: { minimum: number; maximum: number }, description?: string) {
  const range = `an integer from ${bounds.minimum} to ${bounds.maximum}`;
  return Type.Union(
    [
      Type.Integer(bounds),
      Type.String({
        pattern: `^-?\\d{1,${INTEGER_DIGITS_MAX}}$`,
        description: `${range}, as a number or its decimal digits`,
      }),
    ],
    { [INTEGER_OR_DIGITS]: true, ...(description ? { description } : {}) },
  );
}

/**
 * The deepest page any list serves: deeper pages cost the database a scan of every row before
 * them, and a caller who needs them narrows the list (by time, goods or state) instead.
 */
export const MAX_PAGE_NUM = 10_000;

export const PageNum = Type.Integer({ minimum: 1, maximum: MAX_PAGE_NUM, default: 1 });

export function PageSize(maximum: number, defaultSize: number) {
  return Type.Integer({ minimum: 1, maximum, default: defaultSize });
}

/** Text that holds no control characters (and no lone UTF-16 surrogates, which are not text). */
const SINGLE_LINE_TEXT = "^[^\\p{Cc}\\p{Cs}]*$";
/** The same, with tabs and line breaks allowed: descriptions and messages. */
const MULTI_LINE_TEXT = "^(?:[^\\p{Cc}\\p{Cs}]|[\\t\\n\\r])*$";

/** What a caller is told when a text breaks one of the patterns above (see `Text`). */
export const TEXT_PATTERN_MESSAGES: Readonly<Record<string, string>> = {
  [SINGLE_LINE_TEXT]: "must not contain control characters",
  [MULTI_LINE_TEXT]: "must not contain control characters other than tabs and line breaks",
};

/**
 * Free text: at most `maxLength` characters, without control characters (PostgreSQL refuses NUL
 * in text, and none belongs in a name, a search or a URL); `multiline` allows tabs and line breaks.
 */
export function Text(options: {
  maxLength: number;
  minLength?: number;
  multiline?: boolean;
  description?: string;
  examples?: string[];
}) {
  const { multiline = false, ...rest } = options;
  return Type.String({ ...rest, pattern: multiline ? MULTI_LINE_TEXT : SINGLE_LINE_TEXT });
}

/** A goods named by its market hash name, as the catalog spells it. */
export const MarketHashName = Text({ minLength: 1, maxLength: 256 });

/** An amount on the wire: a decimal string with exactly two decimals, e.g. `"12.50"`. */
export const MoneyString = Type.String({ pattern: "^-?\\d+\\.\\d{2}$", examples: ["12.50"] });

const MAX_MONEY_YUAN = MAX_MONEY_FEN / 100;

/**
 * An amount given by a caller: a number or a numeric string with at most two decimals. The
 * exact rule (decimals, sign, maximum) is applied by `parseMoney`, which names the field; the
 * schema only keeps both forms within what `parseMoney` could ever accept.
 */
export const MoneyInput = Type.Union(
  [Type.Number({ minimum: -MAX_MONEY_YUAN, maximum: MAX_MONEY_YUAN }), Text({ maxLength: 32 })],
  {
    description: "Yuan, as a number or a numeric string with at most 2 decimals",
    examples: [12.5, "12.50"],
  },
);

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
/**
 * `game` wherever CS2 is asked for: `cs2` (the reference's name) or `csgo` (the real website's,
 * which the tools written for it send by default). Both name the same game on every operation
 * and website route; records still carry `RecordGame` (docs/design/wire-conventions.md#wire-conventions).
 */
export const CS2_GAMES = ["cs2", "csgo"] as const;
export const Cs2Game = Type.Enum([...CS2_GAMES], { description: "game: cs2 or csgo (the same game)" });

export const RecordGame = Type.Literal(RECORD_GAME, { description: "always csgo (reference convention 6)" });

/** The last second of year 9999: beyond it no date type agrees (PostgreSQL, JavaScript, ISO 8601). */
export const MAX_UNIX_SECONDS = 253_402_300_799;

export const UnixSeconds = Type.Integer({
  minimum: 0,
  maximum: MAX_UNIX_SECONDS,
  description: "Unix time in seconds",
});

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
