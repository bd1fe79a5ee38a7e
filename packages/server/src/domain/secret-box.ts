import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/**
 * Secrets kept at rest (uploaded platform cookies, API keys) are sealed with AES-256-GCM: a
 * random 96-bit IV per value and the owning record's id as associated data, so a sealed value
 * copied onto another record does not open (docs/design/security.md#security).
 * Sealed form: `v1.<iv>.<tag>.<ciphertext>`, base64url. The tag is always the full 16 bytes: GCM
 * verifies a shorter tag against as many bytes as it is given, so without a fixed length a forger
 * would need to match only 4 bytes.
 */
const TAG_BYTES = 16;

export class SecretBox {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new RangeError("the secret key must be 32 bytes");
    this.#key = key;
  }

  static generateKey(): Buffer {
    return randomBytes(32);
  }

  seal(plaintext: string, recordId: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.#key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(recordId));
    const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return ["v1", iv, cipher.getAuthTag(), ciphertext]
      .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
      .join(".");
  }

  /** The plaintext, or undefined when the value was not sealed with this key for this record. */
  open(sealed: string, recordId: string): string | undefined {
    const [version, iv, tag, ciphertext] = sealed.split(".");
    if (version !== "v1" || !iv || !tag || ciphertext === undefined) return undefined;
    const authTag = Buffer.from(tag, "base64url");
    if (authTag.length !== TAG_BYTES) return undefined;
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.#key, Buffer.from(iv, "base64url"), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(Buffer.from(recordId));
      decipher.setAuthTag(authTag);
      return Buffer.concat([
        decipher.update(Buffer.from(ciphertext, "base64url")),
        decipher.final(),
      ]).toString("utf8");
    } catch {
      return undefined;
    }
  }
}
