import { createHash } from "node:crypto";
import { promisify } from "node:util";
import zlib from "node:zlib";
import {
  BROTLI_LAST_EMPTY,
  finalStoredBlock,
  GZIP_HEADER,
  storedBlock,
  uncompressedMetaBlock,
} from "./compressed-blocks.ts";
import { crc32Combine } from "./crc32-combine.ts";

const deflateRaw = promisify(zlib.deflateRaw);
const brotliCompress = promisify(zlib.brotliCompress);

export type ContentEncoding = "br" | "gzip" | "identity";
type Compressed = Exclude<ContentEncoding, "identity">;

/**
 * A consecutive part of an answer's text, which is a function of `made` alone: a part whose `made`
 * holds the same values (compared with `===`) in the same order has the same text, so the bytes
 * made for it in the answer a new one replaces are reused (`PrebuiltJson.ofParts`).
 */
export interface PartSource {
  readonly made: readonly unknown[];
  text(): string;
}

/** Work done for prebuilt answers, told to `PrebuiltOptions.onWork` (tests count it). */
export type PrebuiltWork = "part" | "gzip" | "br";

export interface PrebuiltOptions {
  /**
   * How long after a request in an encoding a variant's new answers are compressed in it at once
   * (default 10 s); other encodings are compressed when first asked for.
   */
  recentMs?: number;
  /** The least time between the starts of two brotli compressions of a variant (default 1 s). */
  brotliIntervalMs?: number;
  /** Milliseconds of a monotonic clock (default `performance.now`). */
  now?: () => number;
  /** Told of each part made and each compression started. */
  onWork?: (work: PrebuiltWork) => void;
}

const DEFAULT_RECENT_MS = 10_000;
const DEFAULT_BROTLI_INTERVAL_MS = 1000;

/** How long `PrebuiltJson.ofParts` works before it lets other work run. */
const PART_TURN_MS = 15;

/** Parts up to this many bytes are written into the gzip stream as they are (no compressor). */
const STORED_PART_BYTES = 512;

/**
 * One part of a prebuilt answer: its bytes, their SHA-256 (the answer's validator is made from
 * its parts') and CRC-32 (gzip's trailer is combined from its parts'), made once, and its gzip
 * segment: the part deflated alone, ending in a sync flush (byte-aligned, not final), so that the
 * segments of consecutive parts, one after the other, are one valid deflate stream. A part is
 * shared by every answer that holds it: a new answer re-makes only the parts that changed.
 */
class AnswerPart {
  readonly made: readonly unknown[];
  readonly bytes: Buffer;
  readonly sha256: Buffer;
  readonly crc: number;
  #deflated: Promise<Buffer> | undefined;

  constructor(made: readonly unknown[], text: string) {
    this.made = made;
    this.bytes = Buffer.from(text, "utf8");
    this.sha256 = createHash("sha256").update(this.bytes).digest();
    this.crc = zlib.crc32(this.bytes);
  }

  /** Whether `source` is this part: the same values it is made of, in the same order. */
  isMadeOf(made: readonly unknown[]): boolean {
    if (made.length !== this.made.length) return false;
    for (let index = 0; index < made.length; index++) if (made[index] !== this.made[index]) return false;
    return true;
  }

  get deflating(): boolean {
    return this.#deflated !== undefined;
  }

  /** The gzip segment, deflated off the event loop (zlib's thread pool) on first use. */
  deflated(onWork: (work: PrebuiltWork) => void): Promise<Buffer> {
    if (this.#deflated) return this.#deflated;
    if (this.bytes.length <= STORED_PART_BYTES)
      return (this.#deflated = Promise.resolve(storedBlock(this.bytes)));
    onWork("gzip");
    return (this.#deflated = deflateRaw(this.bytes, { finishFlush: zlib.constants.Z_SYNC_FLUSH }));
  }
}

/**
 * What the answers of one variant share (`PrebuiltBodies`): which encodings were asked for lately,
 * the latest answer, the newest answer whose bytes are ready in each encoding, and the brotli
 * compressions under way.
 */
export class PrebuiltVariant {
  readonly recentMs: number;
  readonly brotliIntervalMs: number;
  readonly now: () => number;
  readonly onWork: (work: PrebuiltWork) => void;
  readonly #askedAt = new Map<Compressed, number>();
  /** The newest answer (by its number). */
  latest: PrebuiltJson | undefined;
  /** Numbers answers in the order they were begun. */
  sequence = 0;
  /** The newest answer whose bytes are ready, per compressed encoding. */
  readonly ready = new Map<Compressed, PrebuiltJson>();
  brotliRunning = 0;
  brotliStartedAt = -Infinity;
  brotliTimer: NodeJS.Timeout | undefined;

  constructor(options: PrebuiltOptions = {}) {
    this.recentMs = options.recentMs ?? DEFAULT_RECENT_MS;
    this.brotliIntervalMs = options.brotliIntervalMs ?? DEFAULT_BROTLI_INTERVAL_MS;
    this.now = options.now ?? (() => performance.now());
    this.onWork = options.onWork ?? (() => undefined);
  }

  asked(encoding: Compressed): void {
    this.#askedAt.set(encoding, this.now());
  }

  askedLately(encoding: Compressed): boolean {
    return this.now() - (this.#askedAt.get(encoding) ?? -Infinity) <= this.recentMs;
  }
}

/**
 * A large JSON answer serialized and compressed once, then sent many times (docs/design/market-snapshots.md#compressed-only-when-asked-for-older-compressed-bytes-until-the-new-are-ready). It is a sequence of parts (`AnswerPart`), kept apart: the identity answer is their
 * bytes one after the other, the gzip answer their segments. Each answer still ends with fields of
 * its own (the caller's `req_remaining`): the shared parts stop before them, and both compressed
 * forms are cut so that a few bytes per request can be appended without compressing again:
 * - gzip: the parts' segments end in sync flushes; the tail follows as the final, stored
 *   (uncompressed) deflate block, and the trailer's CRC-32 is the parts' combined with the tail's.
 *   No compressor runs per answer.
 * - brotli: the shared bytes are compressed whole up to a flush (byte-aligned, not last); the tail
 *   follows as an uncompressed meta-block, then the empty last meta-block.
 * A new answer of a variant is compressed at once only in the encodings asked for lately (and
 * brotli at most once per `brotliIntervalMs`, one at a time); until its bytes in an encoding are
 * ready, requests in it get the newest answer whose bytes are (`forEncoding`).
 */
export class PrebuiltJson {
  /** A weak validator: answers differ by their tail fields, the shared parts are what it names. */
  readonly etag: string;
  readonly #parts: readonly AnswerPart[];
  /** The shared parts' length in bytes, and their CRC-32. */
  readonly #length: number;
  readonly #crc: number;
  readonly #number: number;
  readonly #variant: PrebuiltVariant;
  /** The gzip header and the parts' segments, joined once they are all ready. */
  #gzip: Promise<Buffer> | undefined;
  #brotli: Promise<Buffer> | undefined;
  /** When a newer answer of its variant took its place (`PrebuiltVariant.now`): its content is as old. */
  #replacedAt: number | undefined;
  /** The encodings whose bytes are ready (identity always is). */
  readonly #ready = new Set<ContentEncoding>(["identity"]);

  private constructor(parts: readonly AnswerPart[], variant: PrebuiltVariant, number = ++variant.sequence) {
    this.#parts = parts;
    this.#variant = variant;
    this.#number = number;
    const digests = createHash("sha256");
    let length = 0;
    let crc = 0;
    for (const part of parts) {
      digests.update(part.sha256);
      crc = crc32Combine(crc, part.crc, part.bytes.length);
      length += part.bytes.length;
    }
    this.#length = length;
    this.#crc = crc;
    this.etag = `W/"${digests.digest().toString("base64url").slice(0, 27)}"`;
  }

  /** `body` serialized without its closing brace; `tail` fields complete it per answer. */
  static of(body: object, options?: PrebuiltOptions): PrebuiltJson {
    const json = JSON.stringify(body);
    return PrebuiltJson.ofJson(json.slice(0, -1), options);
  }

  /** An answer already serialized, without its closing brace, as one part. */
  static ofJson(json: string, options: PrebuiltOptions | PrebuiltVariant = {}): PrebuiltJson {
    const variant = options instanceof PrebuiltVariant ? options : new PrebuiltVariant(options);
    variant.onWork("part");
    return new PrebuiltJson([new AnswerPart([json], json)], variant);
  }

  /**
   * An answer serialized in consecutive parts (without its closing brace), made over turns of the
   * event loop: each part of `parts` is the part of the same `made` of the answer it replaces
   * (`variant`'s latest, when there is one), or made now (its text asked for, encoded, hashed and
   * check-summed); other work runs whenever `turnMs` have passed since it last did. A whole-market
   * answer of megabytes made in one turn stalled the event loop for tens of milliseconds on a
   * quiet machine and hundreds on a busy one (docs/design/performance.md#whole-market-answers-by-parts).
   */
  static async ofParts(
    parts: Iterable<PartSource>,
    options: PrebuiltOptions | PrebuiltVariant = {},
    turnMs = PART_TURN_MS,
  ): Promise<PrebuiltJson> {
    const variant = options instanceof PrebuiltVariant ? options : new PrebuiltVariant(options);
    const number = ++variant.sequence;
    // The parts of the latest answer, by the last value each is made of (in a price list, its
    // last entry: one part holds it).
    const reusable = new Map<unknown, AnswerPart[]>();
    const latest = variant.latest;
    for (const part of latest ? latest.#parts : []) {
      const last = part.made.at(-1);
      const candidates = reusable.get(last);
      if (candidates) candidates.push(part);
      else reusable.set(last, [part]);
    }
    const made: AnswerPart[] = [];
    let since = performance.now();
    for (const source of parts) {
      const before = reusable.get(source.made.at(-1))?.find((part) => part.isMadeOf(source.made));
      if (before) {
        made.push(before);
        continue;
      }
      variant.onWork("part");
      made.push(new AnswerPart(source.made, source.text()));
      // Other work gets a turn once this one has run `turnMs`: a turn per part made each new
      // answer wait behind several rounds of the other connections' writes.
      if (performance.now() - since >= turnMs) {
        await nextTurn();
        since = performance.now();
      }
    }
    return new PrebuiltJson(made, variant, number);
  }

  /** Whether it is the answer of the same bytes as `other` (the same validator). */
  sameAs(other: PrebuiltJson | undefined): boolean {
    return other !== undefined && other.etag === this.etag;
  }

  /** Its parts' bytes in order (tests compare them). */
  get parts(): readonly Buffer[] {
    return this.#parts.map((part) => part.bytes);
  }

  /**
   * The answer to send in `encoding` (noted as asked for): this one once its bytes in that encoding
   * are ready; until then the newest answer of its variant whose bytes in it are (its bytes and its
   * validator), while this one's are compressed, unless a newer one took its place more than
   * `recentMs` ago (nobody asked in that encoding since: its content is too old to stand in); else
   * this one (the caller waits).
   */
  forEncoding(encoding: ContentEncoding): PrebuiltJson {
    if (encoding === "identity") return this;
    const variant = this.#variant;
    variant.asked(encoding);
    if (this.#ready.has(encoding)) return this;
    if (encoding === "gzip") void this.#compressedGzip();
    else this.#brotliWhenDue();
    const ready = variant.ready.get(encoding);
    if (!ready) return this;
    const replacedAt = ready.#replacedAt;
    if (replacedAt === undefined || variant.now() - replacedAt <= variant.recentMs) return ready;
    variant.ready.delete(encoding);
    return this;
  }

  /** The answer's bytes in `encoding`, the tail's fields (JSON values) added at the end. */
  async chunks(encoding: ContentEncoding, tail: Record<string, unknown>): Promise<Buffer[]> {
    const fields = JSON.stringify(tail).slice(1, -1);
    const separator = fields && this.#length > 1 ? "," : "";
    const tailBytes = Buffer.from(`${separator}${fields}}`, "utf8");
    switch (encoding) {
      case "identity":
        return [...this.#parts.map((part) => part.bytes), tailBytes];
      case "gzip": {
        const deflated = await this.#compressedGzip();
        const trailer = Buffer.alloc(8);
        trailer.writeUInt32LE(crc32Combine(this.#crc, zlib.crc32(tailBytes), tailBytes.length), 0);
        trailer.writeUInt32LE((this.#length + tailBytes.length) % 2 ** 32, 4);
        return [deflated, finalStoredBlock(tailBytes), trailer];
      }
      case "br":
        return [await this.#compressedBrotli(), uncompressedMetaBlock(tailBytes), BROTLI_LAST_EMPTY];
    }
  }

  /**
   * Becomes its variant's latest answer (unless a newer one is) and is compressed at once in the
   * encodings asked for lately; answers the variant's latest.
   */
  adopt(): PrebuiltJson {
    const variant = this.#variant;
    const latest = variant.latest;
    if (latest && latest.#number > this.#number) return latest;
    // The same bytes as the latest: that one, with what is compressed of it already.
    if (this.sameAs(latest)) return latest!;
    if (latest) latest.#replacedAt = variant.now();
    variant.latest = this;
    if (variant.askedLately("gzip")) void this.#compressedGzip();
    if (variant.askedLately("br")) this.#brotliWhenDue();
    return this;
  }

  /**
   * The gzip header and the segments of every part (only the parts not deflated yet are
   * compressed), joined: hundreds of kilobytes copied once per answer, where writing a hundred
   * segments one by one cost every request (docs/design/performance.md#whole-market-answers-by-parts).
   */
  #compressedGzip(): Promise<Buffer> {
    if (this.#gzip) return this.#gzip;
    const variant = this.#variant;
    this.#gzip = Promise.all(this.#parts.map((part) => part.deflated(variant.onWork))).then((segments) =>
      Buffer.concat([GZIP_HEADER, ...segments]),
    );
    this.#gzip.then(
      () => this.#isReady("gzip"),
      () => undefined,
    );
    return this.#gzip;
  }

  /** Brotli bytes, compressed now if not yet under way (a caller waits for them). */
  #compressedBrotli(): Promise<Buffer> {
    if (this.#brotli) return this.#brotli;
    const variant = this.#variant;
    variant.onWork("br");
    variant.brotliRunning += 1;
    variant.brotliStartedAt = variant.now();
    const shared = Buffer.concat(this.#parts.map((part) => part.bytes));
    this.#brotli = brotliCompress(shared, {
      finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
      params: {
        // Quality 5 compresses several megabytes in tens of milliseconds, close to gzip's speed
        // with smaller output; the top qualities take seconds, too long for a snapshot a second.
        [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: shared.length,
      },
    });
    const done = () => {
      variant.brotliRunning -= 1;
      // The newest answer, if it came meanwhile and brotli is still asked for.
      const latest = variant.latest;
      if (latest && latest !== this && variant.askedLately("br")) latest.#brotliWhenDue();
    };
    this.#brotli.then(() => {
      this.#isReady("br");
      done();
    }, done);
    return this.#brotli;
  }

  /**
   * Starts this answer's brotli compression, unless its variant has one under way or started one
   * less than `brotliIntervalMs` ago: then the newest answer is compressed once the one under way
   * ends or the interval has passed (brotli's whole answer cannot be made of parts; docs/design/market-snapshots.md#compressed-only-when-asked-for-older-compressed-bytes-until-the-new-are-ready).
   */
  #brotliWhenDue(): void {
    if (this.#brotli) return;
    const variant = this.#variant;
    if (variant.brotliRunning > 0) return;
    const wait = variant.brotliStartedAt + variant.brotliIntervalMs - variant.now();
    if (wait <= 0) {
      void this.#compressedBrotli();
      return;
    }
    if (variant.brotliTimer) return;
    variant.brotliTimer = setTimeout(() => {
      variant.brotliTimer = undefined;
      const latest = variant.latest;
      if (latest) latest.#brotliWhenDue();
    }, wait);
    variant.brotliTimer.unref();
  }

  #isReady(encoding: Compressed): void {
    this.#ready.add(encoding);
    const ready = this.#variant.ready;
    const newest = ready.get(encoding);
    if (!newest || newest.#number < this.#number) ready.set(encoding, this);
  }
}

/** Lets the event loop run what waits (I/O, timers, other requests) before going on. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
