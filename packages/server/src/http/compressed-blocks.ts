/**
 * The framing that lets a shared compressed answer take a few bytes of its own at the end without
 * compressing again (`PrebuiltJson`): deflate's stored blocks (RFC 1951) and brotli's uncompressed
 * meta-blocks (RFC 7932), written by hand.
 */

/** A gzip member header: deflate, no name, no time, unknown OS (RFC 1952). */
export const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** The last, empty brotli meta-block: ISLAST = 1, ISLASTEMPTY = 1 (RFC 7932 section 9.2). */
export const BROTLI_LAST_EMPTY = Buffer.from([0x03]);

/**
 * Deflate blocks holding `bytes` as they are, not final (so more blocks may follow), after a
 * flush that left the stream on a byte boundary: BFINAL = 0 and BTYPE = 00 padded to the byte,
 * LEN and its one's complement NLEN, little-endian, then the bytes (RFC 1951 section 3.2.4).
 */
export function storedBlock(bytes: Buffer): Buffer {
  return storedBlocks(bytes, false);
}

/** The last deflate block holding `bytes` as they are (see `storedBlock`): BFINAL = 1. */
export function finalStoredBlock(bytes: Buffer): Buffer {
  if (bytes.length > 65_535) throw new RangeError("a tail holds at most 65,535 bytes");
  return storedBlocks(bytes, true);
}

function storedBlocks(bytes: Buffer, final: boolean): Buffer {
  const blocks: Buffer[] = [];
  for (let start = 0; start === 0 || start < bytes.length; start += 65_535) {
    const block = bytes.subarray(start, start + 65_535);
    const header = Buffer.alloc(5);
    header[0] = final && start + 65_535 >= bytes.length ? 0x01 : 0x00;
    header.writeUInt16LE(block.length, 1);
    header.writeUInt16LE(~block.length & 0xffff, 3);
    blocks.push(header, block);
  }
  return Buffer.concat(blocks);
}

/**
 * A brotli meta-block holding `bytes` as they are: ISLAST = 0, MNIBBLES = 4 nibbles, MLEN - 1,
 * ISUNCOMPRESSED = 1, padded to the byte boundary, then the bytes (RFC 7932 section 9.2).
 */
export function uncompressedMetaBlock(bytes: Buffer): Buffer {
  if (bytes.length < 1 || bytes.length > 65_536) throw new RangeError("a tail holds 1 to 65,536 bytes");
  const bits = ((bytes.length - 1) << 3) | (1 << 19);
  return Buffer.concat([Buffer.from([bits & 0xff, (bits >> 8) & 0xff, (bits >> 16) & 0xff]), bytes]);
}
