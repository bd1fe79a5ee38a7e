import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { ConnectionError } from "fastify";
import { ERROR_HTTP_STATUS } from "@skinmarket/contract";
import type { Failure } from "../domain/result.ts";
import type { EnvelopeTable } from "./envelope-table.ts";
import { failureBody } from "./failure.ts";

/** How long a refused connection may still send what it had in flight before it is cut. */
const DRAIN_MS = 2000;

/**
 * Answers what Node's HTTP parser refuses before Fastify sees a request (a request line and headers
 * over 16 KiB, bytes that are no HTTP, a request too slow to arrive): in the service's error model,
 * with `Connection: close`, so that a keep-alive client knows the connection ends here, in the
 * envelope of the operation the request line names (`EnvelopeTable`). The socket
 * is then half-closed and drained for a moment rather than destroyed: closing it with unread bytes
 * of the refused request can make the kernel send a reset that overtakes the answer (RFC 9112,
 * section 9.6).
 */
export function answerClientError(error: ConnectionError, socket: Socket, envelopes: EnvelopeTable): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  // The parser reports each later chunk of the same refused request again: one answer is enough.
  if (!socket.writable) return;
  const failure = describeClientError(error.code);
  const { method, path } = requestLine(error.rawPacket);
  const body = JSON.stringify(failureBody(envelopes.of(method, path), failure));
  const status = ERROR_HTTP_STATUS[failure.code];
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      "Connection: close\r\n" +
      "Content-Type: application/json; charset=utf-8\r\n" +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  socket.resume();
  setTimeout(() => socket.destroy(), DRAIN_MS).unref();
}

function describeClientError(code: string | undefined): Failure {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return {
        code: "Request Header Fields Too Large",
        message: "request: the request line and headers together exceed 16 KiB",
      };
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return { code: "Request Timeout", message: "request: not received in time" };
    default:
      return { code: "Invalid Argument", message: "request: not a valid HTTP request" };
  }
}

/**
 * The method and path of the refused request, when the chunk the parser refused starts with its
 * request line (it does when the line and headers arrive together, as clients send them);
 * otherwise none, and the path `/`: the envelope's fallback.
 */
function requestLine(packet: unknown): { method: string | undefined; path: string } {
  // Node hands the refused chunk as a Buffer (Fastify's type says its JSON form).
  const line = Buffer.isBuffer(packet) ? packet.subarray(0, 512).toString("latin1") : "";
  const match = /^([A-Z]+) (\/\S*)/.exec(line);
  return match ? { method: match[1], path: match[2] as string } : { method: undefined, path: "/" };
}
