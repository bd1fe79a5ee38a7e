import { argon2Sync, scryptSync } from "node:crypto";

/**
 * The work of `password-hash.ts` that takes the CPU, run in the threads of its worker pool
 * (piscina calls these by name): the argon2id tag or the scrypt key of a password with a salt and
 * parameters already parsed and bounded by the caller. Synchronous on purpose: it holds only this
 * thread, never the server's event loop, and no thread of libuv's pool besides.
 */

export interface Argon2idTask {
  password: string;
  salt: Uint8Array;
  params: { m: number; t: number; p: number };
  tagLength: number;
}

export interface ScryptTask {
  password: string;
  salt: Uint8Array;
  params: { N: number; r: number; p: number };
  keyLength: number;
  maxmem: number;
}

export function argon2idTag({ password, salt, params, tagLength }: Argon2idTask): Uint8Array {
  const tag = argon2Sync("argon2id", {
    message: password,
    nonce: salt,
    memory: params.m,
    passes: params.t,
    parallelism: params.p,
    tagLength,
  });
  // A copy that owns its memory, so that the answer's clone carries these bytes and no more.
  return new Uint8Array(tag);
}

export function scryptKey({ password, salt, params, keyLength, maxmem }: ScryptTask): Uint8Array {
  return new Uint8Array(scryptSync(password, salt, keyLength, { ...params, maxmem }));
}
