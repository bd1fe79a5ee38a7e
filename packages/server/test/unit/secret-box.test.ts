import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { SecretBox } from "../../src/domain/secret-box.ts";

const box = new SecretBox(Buffer.alloc(32, 7));

describe("the secret box (AES-256-GCM)", () => {
  test("a sealed value opens for its record only", () => {
    const sealed = box.seal("cookie=1", "account:1");
    assert.equal(box.open(sealed, "account:1"), "cookie=1");
    assert.equal(box.open(sealed, "account:2"), undefined);
  });

  test("a seal carries a 16-byte tag", () => {
    const [, , tag] = box.seal("cookie=1", "account:1").split(".");
    assert.equal(Buffer.from(tag!, "base64url").length, 16);
  });

  test("a value whose tag was cut short (4, 8, 12 or 15 bytes) does not open", () => {
    const [version, iv, tag, ciphertext] = box.seal("cookie=1", "account:1").split(".");
    for (const length of [4, 8, 12, 15]) {
      const short = Buffer.from(tag!, "base64url").subarray(0, length).toString("base64url");
      assert.equal(
        box.open([version, iv, short, ciphertext].join("."), "account:1"),
        undefined,
        `${length} bytes`,
      );
    }
  });
});
