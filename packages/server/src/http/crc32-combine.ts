/**
 * CRC-32 (the gzip trailer's check sum, RFC 1952) of two byte strings joined, from the check sum
 * of each and the second's length, without reading the bytes again: zlib's `crc32_combine`
 * (zlib 1.2.12 on: multiplication of polynomials modulo the CRC's, over GF(2), bit-reflected).
 * A whole-market answer's gzip trailer is made from the check sums of its parts this way
 * (docs/design/market-snapshots.md#answers-made-of-parts): a few microseconds a part, where `zlib.crc32` over the whole answer
 * read megabytes at each update.
 */

/** The CRC-32 polynomial, reflected. */
const POLYNOMIAL = 0xedb88320;

/** a(x) * b(x) modulo the polynomial; both reflected (the highest bit is x^0). */
function multiplyModulo(a: number, b: number): number {
  let product = 0;
  for (let bit = 0x80000000; bit !== 0; bit >>>= 1) {
    if ((a & bit) !== 0) product ^= b;
    b = (b & 1) !== 0 ? (b >>> 1) ^ POLYNOMIAL : b >>> 1;
  }
  return product >>> 0;
}

/** x^(2^k) modulo the polynomial, for k from 0 to 31 (they repeat from there in zlib's use). */
const POWERS = (() => {
  const powers: number[] = [];
  let power = 0x40000000; // x^1
  for (let k = 0; k < 32; k++) {
    powers.push(power);
    power = multiplyModulo(power, power);
  }
  return powers;
})();

/** x^(n * 2^k) modulo the polynomial. */
function powerOfX(n: number, k: number): number {
  let product = 0x80000000; // x^0
  while (n > 0) {
    if (n % 2 === 1) product = multiplyModulo(POWERS[k & 31]!, product);
    n = Math.floor(n / 2);
    k += 1;
  }
  return product;
}

/** The CRC-32 of A followed by B, given `crcA`, `crcB` and B's length in bytes. */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  // Appending B multiplies A's remainder by x^(8 * lengthB) before B's own is added.
  return (multiplyModulo(powerOfX(lengthB, 3), crcA) ^ crcB) >>> 0;
}
