import type { StreamChannel } from "@skinmarket/contract";
import type { StoredEvent } from "../../domain/events/sequence-events.ts";

/**
 * An event's message on one channel, serialized once for every connection it goes to: the JSON
 * (`payload`) and the whole WebSocket frame (`framed`: a server's frames are not masked, so the
 * bytes are the same for every client).
 */
export interface WireFrame {
  payload: Buffer;
  framed: Buffer;
}

/** A frame per event and channel, built once for every connection it goes to. */
export type FrameOf = (event: StoredEvent, channel: StreamChannel) => WireFrame;

/** An event of a slice with its frames, for the connections that take the slice in one step. */
export interface SliceEvent {
  event: StoredEvent;
  frameOf: FrameOf;
}

/** `payload` as one unfragmented WebSocket text frame from a server (RFC 6455 section 5.2). */
export function textFrame(payload: Buffer): Buffer {
  const length = payload.length;
  const header = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(header + length);
  frame[0] = 0x81; // FIN, opcode 1 (text)
  if (length < 126) frame[1] = length;
  else if (length < 65_536) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  payload.copy(frame, header);
  return frame;
}
