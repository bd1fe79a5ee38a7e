import assert from "node:assert/strict";
import { argon2Sync, randomBytes, scryptSync } from "node:crypto";
import { after, describe, test } from "node:test";
import {
  ARGON2ID_PLAIN_TEXT_KEPT,
  closePasswordHashing,
  hashPassword,
  passwordHashTasks,
  verifyPassword,
} from "../../src/domain/password-hash.ts";

const PHC = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

/** A PHC string made here with node:crypto directly, as another argon2id implementation would. */
function argon2idString(password: string, params: { m: number; t: number; p: number }): string {
  const salt = randomBytes(16);
  const tag = argon2Sync("argon2id", {
    message: password,
    nonce: salt,
    memory: params.m,
    passes: params.t,
    parallelism: params.p,
    tagLength: 32,
  });
  const b64 = (bytes: Buffer) => bytes.toString("base64").replace(/=+$/, "");
  return `$argon2id$v=19$m=${params.m},t=${params.t},p=${params.p}$${b64(salt)}$${b64(tag)}`;
}

/** The stored form of the earlier scheme: `scrypt$N$r$p$salt$hash`, base64url. */
function scryptString(password: string, N: number, r = 8, p = 1): string {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, 32, { N, r, p, maxmem: 256 * 1024 * 1024 });
  return ["scrypt", N, r, p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

describe("password hashing", () => {
  after(() => closePasswordHashing());

  test("a new hash is argon2id at OWASP's m=19 MiB, t=2, p=1 in PHC form, and is what argon2id gives", async () => {
    const stored = await hashPassword("correct horse");
    const match = PHC.exec(stored);
    assert.ok(match, stored);
    assert.deepEqual(match.slice(1, 4), ["19456", "2", "1"]);
    const salt = Buffer.from(match[4]!, "base64");
    const expected = argon2Sync("argon2id", {
      message: "correct horse",
      nonce: salt,
      memory: 19456,
      passes: 2,
      parallelism: 1,
      tagLength: 32,
    });
    assert.equal(salt.length, 16);
    assert.deepEqual(Buffer.from(match[5]!, "base64"), expected);
  });

  test("the right password matches and needs no rehash; a wrong one does not match", async () => {
    const stored = await hashPassword("correct horse");
    assert.deepEqual(await verifyPassword("correct horse", stored), { matches: true, needsRehash: false });
    assert.equal((await verifyPassword("correct horsf", stored)).matches, false);
  });

  test("an argon2id hash made elsewhere with the current parameters verifies", async () => {
    const stored = argon2idString("pw", { m: 19456, t: 2, p: 1 });
    assert.deepEqual(await verifyPassword("pw", stored), { matches: true, needsRehash: false });
  });

  test("an argon2id hash with weaker parameters matches and asks for a rehash", async () => {
    const stored = argon2idString("pw", { m: 4096, t: 1, p: 1 });
    assert.deepEqual(await verifyPassword("pw", stored), { matches: true, needsRehash: true });
    assert.equal((await verifyPassword("px", stored)).matches, false);
  });

  test("a hash at the light cost of a kept plain text verifies and asks for a rehash at the full cost", async () => {
    const stored = await hashPassword("demo trader", ARGON2ID_PLAIN_TEXT_KEPT);
    assert.deepEqual(PHC.exec(stored)?.slice(1, 4), ["1024", "1", "1"]);
    assert.deepEqual(await verifyPassword("demo trader", stored), { matches: true, needsRehash: true });
    assert.equal((await verifyPassword("demo tradex", stored)).matches, false);
  });

  test("an scrypt hash of the earlier scheme (N=2^14) matches and asks for a rehash", async () => {
    const stored = scryptString("old password", 16384);
    assert.deepEqual(await verifyPassword("old password", stored), { matches: true, needsRehash: true });
    assert.equal((await verifyPassword("old passwore", stored)).matches, false);
  });

  test("absurd parameters in a stored hash are refused as corrupt at once, without running them", async () => {
    const tag = "A".repeat(43);
    const salt = "A".repeat(22);
    const corrupt = [
      `$argon2id$v=19$m=4194304,t=2,p=1$${salt}$${tag}`, // 4 GiB
      `$argon2id$v=19$m=19456,t=100000,p=1$${salt}$${tag}`,
      `$argon2id$v=19$m=19456,t=2,p=255$${salt}$${tag}`,
      `$argon2id$v=18$m=19456,t=2,p=1$${salt}$${tag}`,
      `$argon2id$v=19$m=19456,t=2,p=1$$${tag}`,
      `$argon2i$v=19$m=19456,t=2,p=1$${salt}$${tag}`,
      `$argon2id$v=19$m=19456,t=2$${salt}$${tag}`,
      `$argon2id$v=19$m=0x4c00,t=2,p=1$${salt}$${tag}`,
      `scrypt$1073741824$8$1$${salt}$${tag}`, // 1 TiB of memory
      `scrypt$16384$1000000$1$${salt}$${tag}`,
      `scrypt$16384$8$100000$${salt}$${tag}`,
      `scrypt$12345$8$1$${salt}$${tag}`, // not a power of two
      `scrypt$16384$8$1$${salt}$`,
      "",
      "plain",
    ];
    const tasks = passwordHashTasks();
    for (const stored of corrupt)
      assert.deepEqual(await verifyPassword("pw", stored), { matches: false, needsRehash: false }, stored);
    assert.equal(passwordHashTasks(), tasks, "no corrupt hash reached the worker threads");
  });
});

/** Milliseconds of CPU this thread spent since `start`. */
function threadCpuMs(start: NodeJS.CpuUsage): number {
  const spent = process.threadCpuUsage(start);
  return (spent.user + spent.system) / 1000;
}

/** Four hashes and four verifications at once, as four sign-ins of new users would ask. */
async function fourSignIns(): Promise<void> {
  await Promise.all(
    ["one", "two", "three", "four"].map(async (password) => {
      const stored = await hashPassword(password);
      assert.equal((await verifyPassword(password, stored)).matches, true);
    }),
  );
}

describe("password hashing leaves the event loop free", () => {
  after(() => closePasswordHashing());

  test("a hash and its verification run in the worker threads, not on this thread", async () => {
    const tasks = passwordHashTasks();
    const stored = await hashPassword("round trip");
    assert.deepEqual(await verifyPassword("round trip", stored), { matches: true, needsRehash: false });
    assert.equal(passwordHashTasks() - tasks, 2);
    const legacy = scryptString("round trip", 16384);
    assert.equal((await verifyPassword("round trip", legacy)).matches, true);
    assert.equal(passwordHashTasks() - tasks, 3);
  });

  test("four hashes at once cost this thread a small part of one hash computed on it", async (t) => {
    await fourSignIns(); // the pool's threads started
    const sync = process.threadCpuUsage();
    argon2idString("measure", { m: 19456, t: 2, p: 1 });
    const oneHashHere = threadCpuMs(sync);
    // The least of three rounds, so that a garbage collection in one does not count.
    let fourInThePool = Infinity;
    for (let round = 0; round < 3; round += 1) {
      const started = process.threadCpuUsage();
      await Promise.all(["one", "two", "three", "four"].map((password) => hashPassword(password)));
      fourInThePool = Math.min(fourInThePool, threadCpuMs(started));
    }
    t.diagnostic(
      `this thread's CPU: ${fourInThePool.toFixed(1)} ms for 4 hashes, ${oneHashHere.toFixed(1)} ms for 1 here`,
    );
    assert.ok(
      fourInThePool < 0.25 * oneHashHere,
      `4 hashes cost this thread ${fourInThePool.toFixed(1)} ms of CPU, one hash here ${oneHashHere.toFixed(1)} ms`,
    );
  });

  test("a timer due now runs before four sign-ins finish hashing", async () => {
    // Hashed on this thread, the sign-ins would finish in microtasks, before any timer could run;
    // in the worker threads they finish in later turns of the event loop, after the timer.
    const timer = new Promise<string>((resolve) => setTimeout(() => resolve("timer"), 0));
    const signIns = fourSignIns();
    assert.equal(await Promise.race([timer, signIns.then(() => "sign-ins")]), "timer");
    await signIns;
  });
});
