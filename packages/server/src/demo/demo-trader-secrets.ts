import { ARGON2ID_PLAIN_TEXT_KEPT, hashPassword } from "../domain/password-hash.ts";
import { generateApiToken, generateSecret } from "../domain/secrets.ts";

export interface TraderSecrets {
  /** Passwords and API tokens of the credentialed traders, by index. */
  credentialed: Array<{ password: string; token: string }>;
  /**
   * Their password hashes, by index, and the hash every other trader shares, of a password thrown
   * away ("" when there are none): argon2id in the password-hashing worker threads, which run
   * beside the build's database work and are awaited only at its end. The credentialed traders'
   * passwords are written in plain text to the credentials file, so their hashes are made at
   * `ARGON2ID_PLAIN_TEXT_KEPT`; a trader's first sign-in stores one at the full cost.
   */
  hashes: Promise<{ credentialed: string[]; lockedHash: string }>;
}

/**
 * The credentialed traders' passwords and API tokens at once, and their hashes (and the one the
 * others share) as the worker threads finish them.
 */
export function credentialsFor(
  traders: number,
  credentialed: number,
  onHashed: (done: number, total: number) => void,
): TraderSecrets {
  const total = Math.min(traders, credentialed);
  let done = 0;
  onHashed(done, total);
  const secrets = Array.from({ length: total }, () => ({
    password: generateSecret().slice(0, 20),
    token: generateApiToken(),
  }));
  // Every hash is asked for at once: the pool runs them as fast as its threads allow, and the
  // answers keep the traders' order (trader i gets the i-th password, whichever hash ends first).
  const hashes = Promise.all([
    Promise.all(
      secrets.map(async ({ password }) => {
        const hash = await hashPassword(password, ARGON2ID_PLAIN_TEXT_KEPT);
        onHashed((done += 1), total);
        return hash;
      }),
    ),
    traders > total ? hashPassword(generateSecret()) : Promise.resolve(""),
  ]).then(([hashed, lockedHash]) => ({ credentialed: hashed, lockedHash }));
  // Awaited at the build's end; a failure before then is the build's failure, not an unhandled one.
  hashes.catch(() => {});
  return { credentialed: secrets, hashes };
}
