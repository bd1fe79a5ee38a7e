import {
  constants,
  createPrivateKey,
  createPublicKey,
  generateKeyPair,
  privateDecrypt,
  type KeyObject,
} from "node:crypto";
import { promisify } from "node:util";
import type { DomainContext } from "../domain/context.ts";
import { sharedSteamFaceKey } from "../platform/sandbox/steam-face-keys.ts";

const generateRsaKeyPair = promisify(generateKeyPair);

/** The key as it is kept (sealed) in `sandbox_steam_face_keys`. */
interface StoredPasswordKey {
  /** PKCS#8 PEM. */
  private_key: string;
  timestamp: string;
}

/**
 * The RSA key GetPasswordRSAPublicKey hands out and BeginAuthSessionViaCredentials decrypts the
 * password with (PKCS#1 v1.5, as steam-session and steampy encrypt it). One per database, made by
 * the first instance that needs it (docs/design/steam-face.md#keys-shared-by-every-instance), so a
 * login that asked one instance for the key finishes on any other. Its `timestamp` names it, as
 * Steam's names its rotating keys; the face does not rotate it.
 */
export class PasswordKey {
  readonly modulusHex: string;
  readonly exponentHex: string;
  readonly timestamp: string;
  readonly #privateKey: KeyObject;

  private constructor(privateKey: KeyObject, timestamp: string) {
    const jwk = createPublicKey(privateKey).export({ format: "jwk" });
    this.modulusHex = Buffer.from(jwk.n ?? "", "base64url")
      .toString("hex")
      .toUpperCase();
    this.exponentHex = Buffer.from(jwk.e ?? "", "base64url").toString("hex");
    this.timestamp = timestamp;
    this.#privateKey = privateKey;
  }

  /** The database's key, made on first use. */
  static async load(ctx: DomainContext): Promise<PasswordKey> {
    const stored = JSON.parse(
      await sharedSteamFaceKey(ctx, "password_rsa", async () => {
        const { privateKey } = await generateRsaKeyPair("rsa", { modulusLength: 2048 });
        const key: StoredPasswordKey = {
          private_key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
          // Steam's timestamps are microseconds; any number that names this key will do.
          timestamp: String(Date.now() * 1000),
        };
        return JSON.stringify(key);
      }),
    ) as StoredPasswordKey;
    return new PasswordKey(createPrivateKey(stored.private_key), stored.timestamp);
  }

  /** The password, or undefined when it was not encrypted under this key. */
  decrypt(encryptedBase64: string, timestamp: string): string | undefined {
    if (timestamp !== this.timestamp) return undefined;
    try {
      return privateDecrypt(
        { key: this.#privateKey, padding: constants.RSA_PKCS1_PADDING },
        Buffer.from(encryptedBase64, "base64"),
      ).toString("utf8");
    } catch {
      return undefined;
    }
  }
}
