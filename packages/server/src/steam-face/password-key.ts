import { constants, generateKeyPair, privateDecrypt, type KeyObject } from "node:crypto";
import { promisify } from "node:util";

const generateRsaKeyPair = promisify(generateKeyPair);

/**
 * The RSA key GetPasswordRSAPublicKey hands out and BeginAuthSessionViaCredentials decrypts the
 * password with (PKCS#1 v1.5, as steam-session and steampy encrypt it). One per process, made on
 * first use: its `timestamp` names it, as Steam's names its rotating keys; a password encrypted
 * under another process's key (several instances on one PostgreSQL) does not decrypt, and the
 * client is answered InvalidPassword and asks for the key again.
 */
export class PasswordKey {
  readonly modulusHex: string;
  readonly exponentHex: string;
  readonly timestamp: string;
  readonly #privateKey: KeyObject;

  private constructor(publicKey: KeyObject, privateKey: KeyObject, timestamp: string) {
    const jwk = publicKey.export({ format: "jwk" });
    this.modulusHex = Buffer.from(jwk.n ?? "", "base64url")
      .toString("hex")
      .toUpperCase();
    this.exponentHex = Buffer.from(jwk.e ?? "", "base64url").toString("hex");
    this.timestamp = timestamp;
    this.#privateKey = privateKey;
  }

  static async create(): Promise<PasswordKey> {
    const { publicKey, privateKey } = await generateRsaKeyPair("rsa", { modulusLength: 2048 });
    // Steam's timestamps are microseconds; any number that names this key will do.
    return new PasswordKey(publicKey, privateKey, String(Date.now() * 1000));
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
