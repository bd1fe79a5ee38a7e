import assert from "node:assert/strict";
import { test } from "node:test";
import * as wsModule from "ws";
import { textFrame } from "../../src/http/stream/wire-frame.ts";

/** `ws`'s frame parser (exported by `ws`, not declared by its types). */
interface FrameReceiver {
  on(event: "message", listener: (data: Buffer, isBinary: boolean) => void): void;
  on(event: "error", listener: (error: Error) => void): void;
  write(chunk: Buffer): void;
}
const { Receiver } = wsModule as unknown as {
  Receiver: new (options: { isServer: boolean; maxPayload: number }) => FrameReceiver;
};

/**
 * The stream's frames are built once and written to every client as they are: each must be the
 * WebSocket frame `ws` itself reads, for every length encoding (RFC 6455 section 5.2: 7 bits up
 * to 125 bytes, 16 bits up to 65,535, 64 bits beyond).
 */
test("textFrame builds an unmasked, final text frame that ws reads back, at every length encoding", async () => {
  for (const length of [0, 1, 125, 126, 65_535, 65_536, 200_000]) {
    const payload = Buffer.from("é".repeat(Math.floor(length / 2)) + (length % 2 ? "x" : ""));
    assert.equal(payload.length, length);
    const frame = textFrame(payload);
    assert.equal(frame[0], 0x81, "FIN and the text opcode");
    assert.equal(frame[1]! & 0x80, 0, "not masked");
    const header = length < 126 ? 2 : length < 65_536 ? 4 : 10;
    assert.equal(frame.length, header + length);
    // Read back by ws's own parser, as a client would (a client receives unmasked frames).
    const receiver = new Receiver({ isServer: false, maxPayload: 1 << 20 });
    const message = new Promise<{ data: Buffer; isBinary: boolean }>((resolve, reject) => {
      receiver.on("message", (data: Buffer, isBinary: boolean) => resolve({ data, isBinary }));
      receiver.on("error", reject);
      setTimeout(() => reject(new Error(`${length} bytes: no message read`)), 1000).unref();
    });
    receiver.write(frame);
    const read = await message;
    assert.equal(read.isBinary, false);
    assert.ok(read.data.equals(payload), `${length} bytes read back`);
  }
});
