import { Readable } from "node:stream";
import negotiate from "@fastify/accept-negotiator";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { ContentEncoding, PrebuiltJson } from "./prebuilt-json.ts";

const ENCODINGS: ContentEncoding[] = ["br", "gzip", "identity"];

/**
 * Sends a prebuilt answer in the best encoding the client accepts (the newest one whose bytes in
 * that encoding are ready, while this one's are compressed), or `304 Not Modified` when
 * `If-None-Match` names the validator of the answer sent.
 */
export async function sendPrebuilt(
  request: FastifyRequest,
  reply: FastifyReply,
  latest: PrebuiltJson,
  tail: Record<string, unknown>,
): Promise<FastifyReply> {
  const accepted = request.headers["accept-encoding"];
  const encoding = (accepted ? negotiate(accepted, ENCODINGS) : null) ?? "identity";
  const body = latest.forEncoding(encoding);
  reply.header("etag", body.etag);
  reply.header("vary", "accept-encoding");
  // Each answer carries the caller's own allowance: shared caches must not keep it.
  reply.header("cache-control", "private, no-cache");
  if (matchesValidator(request.headers["if-none-match"], body.etag)) return reply.code(304).send();
  const chunks = await body.chunks(encoding, tail);
  if (encoding !== "identity") reply.header("content-encoding", encoding);
  reply.header("content-type", "application/json; charset=utf-8");
  reply.header(
    "content-length",
    chunks.reduce((total, chunk) => total + chunk.length, 0),
  );
  // The chunks are written as they are: joining them would copy the shared parts (hundreds of
  // kilobytes compressed, megabytes plain) into a new buffer on every answer.
  return reply.send(Readable.from(chunks, { objectMode: false }));
}

/** `If-None-Match` by the weak comparison of RFC 9110 section 13.1.2. */
function matchesValidator(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = etag.replace(/^W\//, "");
  return header
    .split(",")
    .map((tag) => tag.trim())
    .some((tag) => tag === "*" || tag.replace(/^W\//, "") === opaque);
}
