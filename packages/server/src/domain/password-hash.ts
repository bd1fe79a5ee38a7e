import { argon2, randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { generateSecret } from "./secrets.ts";

/**
 * Passwords are stored as argon2id hashes in the PHC string form
 * `$argon2id$v=19$m=<KiB>,t=<passes>,p=<lanes>$<salt>$<tag>` (salt and tag in unpadded base64),
 * computed by node:crypto's own argon2 (docs/design.md section 11). Hashes of the earlier scheme,
 * `scrypt$N$r$p$salt$hash`, still verify, and a sign-in that verifies one (or an argon2id hash with
 * other parameters) stores a fresh hash with the current ones. Parameters read from a stored hash
 * are bounded: a value outside the bounds marks the hash corrupt instead of running (a stored
 * `m=4194304` would otherwise make one sign-in allocate 4 GiB).
 */

/** OWASP's argon2id recommendation (Password Storage Cheat Sheet): 19 MiB, 2 passes, 1 lane. */
export const ARGON2ID = {
  memoryKiB: 19_456,
  passes: 2,
  parallelism: 1,
  saltBytes: 16,
  tagBytes: 32,
} as const;

/** What a stored hash may ask for and still be run: beyond, it is corrupt. */
const ARGON2_BOUNDS = { memoryKiB: [8, 65_536], passes: [1, 10], parallelism: [1, 4] } as const;
const SCRYPT_BOUNDS = { log2N: [10, 17], r: [1, 16], p: [1, 4] } as const;
/** Above the 128 * N * r bytes scrypt needs at the largest N and r admitted (2^17 * 16 * 128 = 256 MiB). */
const SCRYPT_MAXMEM = 257 * 1024 * 1024;
const SALT_BYTES = [8, 64] as const;
const TAG_BYTES = [16, 64] as const;

export interface PasswordCheck {
  matches: boolean;
  /** The password matched a hash made by an earlier scheme or other parameters: store a new one. */
  needsRehash: boolean;
}

const NO_MATCH: PasswordCheck = { matches: false, needsRehash: false };

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(ARGON2ID.saltBytes);
  const params = { m: ARGON2ID.memoryKiB, t: ARGON2ID.passes, p: ARGON2ID.parallelism };
  const tag = await argon2idTag(password, salt, params, ARGON2ID.tagBytes);
  return `$argon2id$v=19$m=${params.m},t=${params.t},p=${params.p}$${unpadded(salt)}$${unpadded(tag)}`;
}

/** Compares in constant time; a stored hash that cannot be read (or asks too much) matches nothing. */
export async function verifyPassword(password: string, stored: string): Promise<PasswordCheck> {
  const parsed = parseStoredHash(stored);
  if (!parsed) return NO_MATCH;
  const computed =
    parsed.scheme === "argon2id"
      ? await argon2idTag(password, parsed.salt, parsed.params, parsed.hash.length)
      : await scryptKey(password, parsed.salt, parsed.params, parsed.hash.length);
  if (!timingSafeEqual(computed, parsed.hash)) return NO_MATCH;
  const current =
    parsed.scheme === "argon2id" &&
    parsed.params.m === ARGON2ID.memoryKiB &&
    parsed.params.t === ARGON2ID.passes &&
    parsed.params.p === ARGON2ID.parallelism &&
    parsed.salt.length === ARGON2ID.saltBytes &&
    parsed.hash.length === ARGON2ID.tagBytes;
  return { matches: true, needsRehash: !current };
}

/**
 * A hash to verify against when the nickname does not exist, so that an unknown nickname costs
 * as much time as a wrong password and the timing tells nothing.
 */
let decoyHash: Promise<string> | undefined;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hashPassword(generateSecret());
  return decoyHash;
}

type StoredHash =
  | { scheme: "argon2id"; params: { m: number; t: number; p: number }; salt: Buffer; hash: Buffer }
  | { scheme: "scrypt"; params: { N: number; r: number; p: number }; salt: Buffer; hash: Buffer };

const ARGON2ID_FORM =
  /^\$argon2id\$v=19\$m=([1-9]\d{0,8}),t=([1-9]\d{0,8}),p=([1-9]\d{0,8})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;
const SCRYPT_FORM =
  /^scrypt\$([1-9]\d{0,9})\$([1-9]\d{0,8})\$([1-9]\d{0,8})\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

function parseStoredHash(stored: string): StoredHash | undefined {
  const argon = ARGON2ID_FORM.exec(stored);
  if (argon) {
    const [m, t, p] = [argon[1], argon[2], argon[3]].map(Number) as [number, number, number];
    const salt = Buffer.from(argon[4]!, "base64");
    const hash = Buffer.from(argon[5]!, "base64");
    if (
      !within(m, ARGON2_BOUNDS.memoryKiB) ||
      m < 8 * p ||
      !within(t, ARGON2_BOUNDS.passes) ||
      !within(p, ARGON2_BOUNDS.parallelism) ||
      !within(salt.length, SALT_BYTES) ||
      !within(hash.length, TAG_BYTES)
    )
      return undefined;
    return { scheme: "argon2id", params: { m, t, p }, salt, hash };
  }
  const legacy = SCRYPT_FORM.exec(stored);
  if (legacy) {
    const [N, r, p] = [legacy[1], legacy[2], legacy[3]].map(Number) as [number, number, number];
    const salt = Buffer.from(legacy[4]!, "base64url");
    const hash = Buffer.from(legacy[5]!, "base64url");
    if (
      !Number.isInteger(Math.log2(N)) ||
      !within(Math.log2(N), SCRYPT_BOUNDS.log2N) ||
      !within(r, SCRYPT_BOUNDS.r) ||
      !within(p, SCRYPT_BOUNDS.p) ||
      !within(salt.length, SALT_BYTES) ||
      !within(hash.length, TAG_BYTES)
    )
      return undefined;
    return { scheme: "scrypt", params: { N, r, p }, salt, hash };
  }
  return undefined;
}

function within(value: number, [low, high]: readonly [number, number]): boolean {
  return value >= low && value <= high;
}

function argon2idTag(
  password: string,
  salt: Buffer,
  params: { m: number; t: number; p: number },
  tagLength: number,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    argon2(
      "argon2id",
      {
        message: password,
        nonce: salt,
        memory: params.m,
        passes: params.t,
        parallelism: params.p,
        tagLength,
      },
      (error, tag) => (error ? reject(error) : resolve(tag)),
    );
  });
}

function scryptKey(
  password: string,
  salt: Buffer,
  params: { N: number; r: number; p: number },
  keyLength: number,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, keyLength, { ...params, maxmem: SCRYPT_MAXMEM }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** PHC strings carry base64 without padding. */
function unpadded(bytes: Buffer): string {
  return bytes.toString("base64").replace(/=+$/, "");
}
