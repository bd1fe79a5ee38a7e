import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { promisify } from "node:util";
import zlib from "node:zlib";
import negotiate from "@fastify/accept-negotiator";
import type { FastifyReply, FastifyRequest } from "fastify";

const deflateRaw = promisify(zlib.deflateRaw);
const brotliCompress = promisify(zlib.brotliCompress);

export type ContentEncoding = "br" | "gzip" | "identity";
const ENCODINGS: ContentEncoding[] = ["br", "gzip", "identity"];

/** A gzip member header: deflate, no name, no time, unknown OS (RFC 1952). */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** The last, empty brotli meta-block: ISLAST = 1, ISLASTEMPTY = 1 (RFC 7932 section 9.2). */
const BROTLI_LAST_EMPTY = Buffer.from([0x03]);

/**
 * A large JSON answer serialized and compressed once, then sent many times (docs/design.md
 * section 4). Each answer still ends with fields of its own (the caller's `req_remaining`): the
 * shared part stops before them, and both compressed forms are cut so that a few bytes per
 * request can be appended without compressing the whole again:
 * - gzip: the shared part is deflated up to a sync flush (byte-aligned, not final); the tail follows
 *   as the final, stored (uncompressed) deflate block, and the trailer's CRC-32 continues the
 *   shared part's. No compressor runs per answer.
 * - brotli: the shared part is compressed up to a flush (byte-aligned, not last); the tail follows
 *   as an uncompressed meta-block, then the empty last meta-block.
 */
export class PrebuiltJson {
  /** A weak validator: answers differ by their tail fields, the shared part is what it names. */
  readonly etag: string;
  readonly #shared: Buffer;
  #gzip: Promise<{ deflated: Buffer; crc: number }> | undefined;
  #brotli: Promise<Buffer> | undefined;
  /** The encodings whose bytes are ready (identity always is). */
  readonly #ready = new Set<ContentEncoding>(["identity"]);
  /** The answer this one replaces, served in an encoding until this one's bytes are ready. */
  #previous: PrebuiltJson | undefined;

  /** The shared part's CRC-32 (gzip's trailer continues it), when it was computed on the way. */
  readonly #crc: number | undefined;

  private constructor(shared: Buffer, previous?: PrebuiltJson, digest?: { sha256: Buffer; crc: number }) {
    this.#shared = shared;
    this.#crc = digest?.crc;
    const sha256 = digest?.sha256 ?? createHash("sha256").update(shared).digest();
    this.etag = `W/"${sha256.toString("base64url").slice(0, 27)}"`;
    if (previous && previous.etag !== this.etag) {
      // No chains: the previous answer's own predecessor is not needed any more.
      previous.#previous = undefined;
      this.#previous = previous;
      // Compressed off the event loop (zlib's thread pool) right away, as requests will follow.
      void this.#compressed("gzip");
      void this.#compressed("br");
    }
  }

  /** `body` serialized without its closing brace; `tail` fields complete it per answer. */
  static of(body: object, previous?: PrebuiltJson): PrebuiltJson {
    const json = JSON.stringify(body);
    return PrebuiltJson.ofJson(json.slice(0, -1), previous);
  }

  /** An answer already serialized, without its closing brace; `previous`: the answer it replaces. */
  static ofJson(json: string, previous?: PrebuiltJson): PrebuiltJson {
    return new PrebuiltJson(Buffer.from(json, "utf8"), previous);
  }

  /**
   * An answer serialized in consecutive parts (without its closing brace), made ready over turns
   * of the event loop: each part is taken from `parts` (which may do the serializing), encoded,
   * hashed and check-summed, and other work runs whenever `turnMs` have passed since it last did. A whole-market answer of
   * megabytes made in one turn stalled the event loop for tens of milliseconds on a quiet machine
   * and hundreds on a busy one (docs/design.md section 12). `previous()` is asked for at the end:
   * the answer this one replaces then.
   */
  static async ofParts(
    parts: Iterable<string>,
    previous: () => PrebuiltJson | undefined = () => undefined,
    turnMs = PART_TURN_MS,
  ): Promise<PrebuiltJson> {
    const buffers: Buffer[] = [];
    const hash = createHash("sha256");
    let crc = 0;
    let since = performance.now();
    for (const part of parts) {
      const buffer = Buffer.from(part, "utf8");
      hash.update(buffer);
      crc = zlib.crc32(buffer, crc);
      buffers.push(buffer);
      // Other work gets a turn once this one has run `turnMs`: a turn per part made each new
      // answer wait behind several rounds of the other connections' writes.
      if (performance.now() - since >= turnMs) {
        await nextTurn();
        since = performance.now();
      }
    }
    return new PrebuiltJson(Buffer.concat(buffers), previous(), { sha256: hash.digest(), crc });
  }

  /**
   * The answer to send in `encoding`: this one once its bytes in that encoding are ready; until
   * then the one it replaces (its bytes and its validator), while this one's are compressed.
   */
  forEncoding(encoding: ContentEncoding): PrebuiltJson {
    const previous = this.#previous;
    if (!previous || this.#ready.has(encoding)) return this;
    return previous.#ready.has(encoding) ? previous : this;
  }

  #compressed(encoding: "gzip" | "br"): Promise<unknown> {
    const bytes =
      encoding === "gzip" ? (this.#gzip ??= this.#deflate()) : (this.#brotli ??= this.#compressBrotli());
    return bytes.then(
      () => {
        this.#ready.add(encoding);
        if (this.#ready.size === 3) this.#previous = undefined;
      },
      () => undefined,
    );
  }

  /** The answer's bytes in `encoding`, the tail's fields (JSON values) added at the end. */
  async chunks(encoding: ContentEncoding, tail: Record<string, unknown>): Promise<Buffer[]> {
    const fields = JSON.stringify(tail).slice(1, -1);
    const separator = fields && this.#shared.length > 1 ? "," : "";
    const tailBytes = Buffer.from(`${separator}${fields}}`, "utf8");
    switch (encoding) {
      case "identity":
        return [this.#shared, tailBytes];
      case "gzip": {
        void this.#compressed("gzip");
        const { deflated, crc } = await this.#gzip!;
        const trailer = Buffer.alloc(8);
        trailer.writeUInt32LE(zlib.crc32(tailBytes, crc), 0);
        trailer.writeUInt32LE((this.#shared.length + tailBytes.length) % 2 ** 32, 4);
        return [GZIP_HEADER, deflated, finalStoredBlock(tailBytes), trailer];
      }
      case "br":
        void this.#compressed("br");
        return [await this.#brotli!, uncompressedMetaBlock(tailBytes), BROTLI_LAST_EMPTY];
    }
  }

  async #deflate(): Promise<{ deflated: Buffer; crc: number }> {
    const deflated = await deflateRaw(this.#shared, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
    return { deflated, crc: this.#crc ?? zlib.crc32(this.#shared) };
  }

  #compressBrotli(): Promise<Buffer> {
    return brotliCompress(this.#shared, {
      finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
      params: {
        // Quality 5 compresses several megabytes in tens of milliseconds, close to gzip's speed
        // with smaller output; the top qualities take seconds, too long for a snapshot a second.
        [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: this.#shared.length,
      },
    });
  }
}

/** How long `PrebuiltJson.ofParts` works before it lets other work run. */
const PART_TURN_MS = 15;

/** Lets the event loop run what waits (I/O, timers, other requests) before going on. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * The last deflate block holding `bytes` as they are, after a flush that left the stream on a byte
 * boundary: BFINAL = 1 and BTYPE = 00 padded to the byte, then LEN and its one's complement NLEN,
 * both little-endian, then the bytes (RFC 1951 section 3.2.4).
 */
function finalStoredBlock(bytes: Buffer): Buffer {
  if (bytes.length > 65_535) throw new RangeError("a tail holds at most 65,535 bytes");
  const header = Buffer.alloc(5);
  header[0] = 0x01;
  header.writeUInt16LE(bytes.length, 1);
  header.writeUInt16LE(~bytes.length & 0xffff, 3);
  return Buffer.concat([header, bytes]);
}

/**
 * A brotli meta-block holding `bytes` as they are: ISLAST = 0, MNIBBLES = 4 nibbles, MLEN - 1,
 * ISUNCOMPRESSED = 1, padded to the byte boundary, then the bytes (RFC 7932 section 9.2).
 */
function uncompressedMetaBlock(bytes: Buffer): Buffer {
  if (bytes.length < 1 || bytes.length > 65_536) throw new RangeError("a tail holds 1 to 65,536 bytes");
  const bits = ((bytes.length - 1) << 3) | (1 << 19);
  return Buffer.concat([Buffer.from([bits & 0xff, (bits >> 8) & 0xff, (bits >> 16) & 0xff]), bytes]);
}

/**
 * The prebuilt answers of the current snapshots: one per snapshot and variant (operation and the
 * parameters that shape a whole-market answer), built on first use and dropped with the snapshot.
 */
export class PrebuiltBodies {
  readonly #bySnapshot = new WeakMap<object, Map<string, PrebuiltJson>>();
  /** Answers being built (`build`), per snapshot and variant. */
  readonly #pending = new WeakMap<object, Map<string, Promise<PrebuiltJson>>>();
  /** The latest answer of each variant, which the next one replaces (`PrebuiltJson.forEncoding`). */
  readonly #latest = new Map<string, PrebuiltJson>();

  get(snapshot: object, variant: string): PrebuiltJson | undefined {
    return this.#bySnapshot.get(snapshot)?.get(variant);
  }

  /** The answer of `variant` for `snapshot` while it is being built (`build`). */
  building(snapshot: object, variant: string): Promise<PrebuiltJson> | undefined {
    return this.#pending.get(snapshot)?.get(variant);
  }

  /**
   * The answer of `variant` for `snapshot`, built from `parts` a part per turn of the event loop
   * (`PrebuiltJson.ofParts`) unless it is built or being built already: callers meanwhile share
   * the one build.
   */
  build(snapshot: object, variant: string, parts: () => Iterable<string>): Promise<PrebuiltJson> {
    let pending = this.#pending.get(snapshot);
    if (!pending) this.#pending.set(snapshot, (pending = new Map()));
    const started = pending.get(variant);
    if (started) return started;
    const built = PrebuiltJson.ofParts(parts(), () => this.#latest.get(variant)).then(
      (prebuilt) => {
        this.#store(snapshot, variant, prebuilt);
        pending.delete(variant);
        return prebuilt;
      },
      (error: unknown) => {
        pending.delete(variant);
        throw error;
      },
    );
    pending.set(variant, built);
    return built;
  }

  /** `body`: the answer, or its JSON already serialized without the closing brace. */
  put(snapshot: object, variant: string, body: object | string): PrebuiltJson {
    const previous = this.#latest.get(variant);
    const prebuilt =
      typeof body === "string" ? PrebuiltJson.ofJson(body, previous) : PrebuiltJson.of(body, previous);
    this.#store(snapshot, variant, prebuilt);
    return prebuilt;
  }

  #store(snapshot: object, variant: string, prebuilt: PrebuiltJson): void {
    let bodies = this.#bySnapshot.get(snapshot);
    if (!bodies) this.#bySnapshot.set(snapshot, (bodies = new Map()));
    bodies.set(variant, prebuilt);
    this.#latest.set(variant, prebuilt);
  }
}

/**
 * Sends a prebuilt answer in the best encoding the client accepts (the one it replaces while its
 * bytes in that encoding are compressed), or `304 Not Modified` when `If-None-Match` names the
 * validator of the answer sent.
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
  // The chunks are written as they are: joining them would copy the shared part (hundreds of
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
