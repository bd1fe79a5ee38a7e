import { hashPassword } from "../domain/password-hash.ts";
import { generateApiToken, generateSecret } from "../domain/secrets.ts";

export interface TraderSecrets {
  /** Passwords, their hashes and API tokens of the credentialed traders, by index. */
  credentialed: Array<{ password: string; passwordHash: string; token: string }>;
  /** The hash every other trader shares, of a password thrown away ("" when there are none). */
  lockedHash: string;
}

/**
 * The credentialed traders' passwords and API tokens, and the hash the others share; the hashes run
 * in the password-hashing worker threads.
 */
export async function credentialsFor(
  traders: number,
  credentialed: number,
  onHashed: (done: number, total: number) => void,
): Promise<TraderSecrets> {
  const total = Math.min(traders, credentialed);
  let done = 0;
  onHashed(done, total);
  // Every hash is asked for at once: the pool runs them as fast as its threads allow, and the
  // answers keep the traders' order (trader i gets the i-th password, whichever hash ends first).
  const [hashed, lockedHash] = await Promise.all([
    Promise.all(
      Array.from({ length: total }, async () => {
        const password = generateSecret().slice(0, 20);
        const passwordHash = await hashPassword(password);
        onHashed((done += 1), total);
        return { password, passwordHash, token: generateApiToken() };
      }),
    ),
    traders > total ? hashPassword(generateSecret()) : "",
  ]);
  return { credentialed: hashed, lockedHash };
}
