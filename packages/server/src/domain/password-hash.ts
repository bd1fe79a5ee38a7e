import { randomBytes, timingSafeEqual } from "node:crypto";
import { availableParallelism } from "node:os";
import { Piscina } from "piscina";
import type { Argon2idTask, ScryptTask } from "./password-hash-worker.ts";
import { generateSecret } from "./secrets.ts";

/**
 * Passwords are stored as argon2id hashes in the PHC string form
 * `$argon2id$v=19$m=<KiB>,t=<passes>,p=<lanes>$<salt>$<tag>` (salt and tag in unpadded base64),
 * computed by node:crypto's own argon2 (docs/design/security.md#security). Hashes of the earlier scheme,
 * `scrypt$N$r$p$salt$hash`, still verify, and a sign-in that verifies one (or an argon2id hash with
 * other parameters) stores a fresh hash with the current ones. Parameters read from a stored hash
 * are bounded: a value outside the bounds marks the hash corrupt instead of running (a stored
 * `m=4194304` would otherwise make one sign-in allocate 4 GiB).
 *
 * The hashes themselves run in worker threads (`password-hash-worker.ts`, a piscina pool): Node
 * 24's `crypto.argon2`, although it takes a callback, spends much of a hash's CPU on the calling
 * thread (17-75 ms a sign-in, as measured here), so on the server's event loop every sign-in was a
 * stall. Reading the stored hash, its bounds and the comparison stay here: a corrupt hash never
 * reaches the pool.
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

/**
 * The cost for a password whose plain text is kept beside the database anyway (the demo traders'
 * credentials file, docs/design/performance.md#the-first-start): a costly hash would guard nothing
 * the file does not already give away. Still argon2id in the same form, so it verifies as any
 * other, and the first sign-in that verifies it stores a hash at `ARGON2ID` (its parameters differ).
 */
export const ARGON2ID_PLAIN_TEXT_KEPT = { memoryKiB: 1024, passes: 1, parallelism: 1 } as const;

export async function hashPassword(
  password: string,
  cost: { memoryKiB: number; passes: number; parallelism: number } = ARGON2ID,
): Promise<string> {
  const salt = randomBytes(ARGON2ID.saltBytes);
  const params = { m: cost.memoryKiB, t: cost.passes, p: cost.parallelism };
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

/**
 * The pool's threads: one core is left to the event loop, and at most two hash. On this machine's
 * two cores that is one thread: with four sign-in loops, `/healthz` answered at a median of 2-4 ms
 * with one thread and 6-8 ms with two, and two signed in no faster (docs/design/performance.md#sign-in-off-the-event-loop). A thread with a hash under way holds about 40 MB (its own heap and
 * argon2id's 19 MiB), so two bound what a burst of sign-ins adds to the server's memory (the goal
 * is 600 MB); further hashes wait in the pool's queue. None at rest: the pool is made at the first
 * hash, and a thread idle for 30 s exits. Idle threads do not keep a process alive (piscina unrefs
 * them); a hash under way does, until it ends.
 */
const HASHING_THREADS = Math.max(1, Math.min(2, availableParallelism() - 1));
const IDLE_THREAD_MS = 30_000;

/** The pool, made at the first hash, and the hashes given to it that have not ended yet. */
let current: { pool: Piscina; pending: Set<Promise<unknown>> } | undefined;
let tasksRun = 0;

function runHashing(task: Argon2idTask | ScryptTask, name: "argon2idTag" | "scryptKey"): Promise<Uint8Array> {
  current ??= {
    pool: new Piscina({
      // Node 24 strips the worker's types as it loads it, as it does for every other file.
      filename: new URL("./password-hash-worker.ts", import.meta.url).href,
      minThreads: 0,
      maxThreads: HASHING_THREADS,
      idleTimeout: IDLE_THREAD_MS,
    }),
    pending: new Set(),
  };
  const { pending } = current;
  const run: Promise<Uint8Array> = current.pool.run(task, { name });
  tasksRun += 1;
  pending.add(run);
  void run.finally(() => pending.delete(run)).catch(() => {});
  return run;
}

/**
 * Ends the pool's threads once every hash given to it has ended (the server's `close()`): piscina's
 * own close would drop hashes still waiting in its queue. A hash asked for meanwhile or afterwards
 * makes a new pool.
 */
export async function closePasswordHashing(): Promise<void> {
  const closing = current;
  current = undefined;
  if (!closing) return;
  await Promise.allSettled(closing.pending);
  await closing.pool.close();
}

/** Hashes given to the pool's threads since the process started (the tests read it). */
export function passwordHashTasks(): number {
  return tasksRun;
}

async function argon2idTag(
  password: string,
  salt: Buffer,
  params: { m: number; t: number; p: number },
  tagLength: number,
): Promise<Buffer> {
  const task: Argon2idTask = { password, salt: new Uint8Array(salt), params, tagLength };
  return asBuffer(await runHashing(task, "argon2idTag"));
}

async function scryptKey(
  password: string,
  salt: Buffer,
  params: { N: number; r: number; p: number },
  keyLength: number,
): Promise<Buffer> {
  const task: ScryptTask = { password, salt: new Uint8Array(salt), params, keyLength, maxmem: SCRYPT_MAXMEM };
  return asBuffer(await runHashing(task, "scryptKey"));
}

/** A thread's answer arrives as a Uint8Array (a Buffer does not survive the copy between threads). */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** PHC strings carry base64 without padding. */
function unpadded(bytes: Buffer): string {
  return bytes.toString("base64").replace(/=+$/, "");
}
