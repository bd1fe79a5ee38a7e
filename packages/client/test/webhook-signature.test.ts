import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { describe, test } from "node:test";
import {
  generateWebhookSecret,
  signWebhookPayload,
  verifyWebhookSignature,
  WebhookSignatureError,
} from "../src/webhook-signature.ts";

const SECRET = "whsec_5KdxGm2q1VYbKQ3nq1mRr4s3yYq2oS1B5f7c9N0aZx8";
const NOW = 1_790_000_000;
const BODY = JSON.stringify({
  id: "42",
  type: "balance.changed",
  created_at: NOW - 1,
  goods_id: null,
  data: { market_balance: "10.00" },
});

function refusal(code: WebhookSignatureError["code"]) {
  return (error: unknown) => {
    assert.ok(error instanceof WebhookSignatureError, String(error));
    assert.equal(error.code, code, error.message);
    return true;
  };
}

describe("verifyWebhookSignature", () => {
  test("happy: a delivery signed with the secret answers its event", () => {
    const header = signWebhookPayload({ secret: SECRET, body: BODY, timestamp: NOW - 10 });
    const event = verifyWebhookSignature({ secret: SECRET, header, body: BODY, now: NOW });
    assert.equal(event.id, "42");
    assert.equal(event.type, "balance.changed");
  });

  test("happy: the signature is HMAC-SHA256 of `<t>.<body>` keyed with the whole secret string", () => {
    const expected = createHmac("sha256", SECRET).update(`${NOW}.${BODY}`).digest("hex");
    assert.equal(
      signWebhookPayload({ secret: SECRET, body: BODY, timestamp: NOW }),
      `t=${NOW},v1=${expected}`,
    );
  });

  test("happy: the raw body may come as bytes, and any v1 may match (a secret being rotated)", () => {
    const old = signWebhookPayload({ secret: "whsec_old", body: BODY, timestamp: NOW }).split(",")[1];
    const header = `${signWebhookPayload({ secret: SECRET, body: BODY, timestamp: NOW })},${old}`;
    const reversed = `t=${NOW},${old},${header.split(",")[1]}`;
    for (const given of [header, reversed]) {
      const event = verifyWebhookSignature({
        secret: SECRET,
        header: given,
        body: Buffer.from(BODY),
        now: NOW,
      });
      assert.equal(event.id, "42");
    }
  });

  test("happy: generated secrets are whsec_ and 43 base64url characters, each different", () => {
    const one = generateWebhookSecret();
    assert.match(one, /^whsec_[A-Za-z0-9_-]{43}$/);
    assert.notEqual(one, generateWebhookSecret());
  });

  test("error: a missing header is refused by name", () => {
    for (const header of [undefined, null, "", "  "]) {
      assert.throws(
        () => verifyWebhookSignature({ secret: SECRET, header, body: BODY, now: NOW }),
        refusal("missing_header"),
      );
    }
  });

  test("error: a header without t or v1, or with a malformed one, is a bad format", () => {
    const good = signWebhookPayload({ secret: SECRET, body: BODY, timestamp: NOW });
    const signature = good.split(",")[1]!;
    for (const header of [signature, `t=${NOW}`, `t=soon,${signature}`, `t=${NOW},v1=xyz`, "garbage"]) {
      assert.throws(
        () => verifyWebhookSignature({ secret: SECRET, header, body: BODY, now: NOW }),
        refusal("bad_format"),
        header,
      );
    }
  });

  test("security: a timestamp older than the tolerance is refused, even correctly signed", () => {
    const header = signWebhookPayload({ secret: SECRET, body: BODY, timestamp: NOW - 301 });
    assert.throws(
      () => verifyWebhookSignature({ secret: SECRET, header, body: BODY, now: NOW }),
      refusal("too_old"),
    );
    const event = verifyWebhookSignature({
      secret: SECRET,
      header,
      body: BODY,
      now: NOW,
      toleranceSeconds: 600,
    });
    assert.equal(event.id, "42");
  });

  test("security: another secret, or a body changed by one byte, matches no signature", () => {
    const header = signWebhookPayload({ secret: SECRET, body: BODY, timestamp: NOW });
    assert.throws(
      () => verifyWebhookSignature({ secret: `${SECRET}x`, header, body: BODY, now: NOW }),
      refusal("no_matching_signature"),
    );
    assert.throws(
      () =>
        verifyWebhookSignature({ secret: SECRET, header, body: BODY.replace("10.00", "90.00"), now: NOW }),
      refusal("no_matching_signature"),
    );
    // The timestamp is signed too: moving it forward to pass the tolerance breaks the signature.
    const moved = header.replace(`t=${NOW}`, `t=${NOW + 1}`);
    assert.throws(
      () => verifyWebhookSignature({ secret: SECRET, header: moved, body: BODY, now: NOW }),
      refusal("no_matching_signature"),
    );
  });
});
