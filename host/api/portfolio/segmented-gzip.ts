/**
 * A report's gzip body built from pieces compressed one by one and kept (docs/decisions.md,
 * "Incremental report: every section, and its gzip"). After one write the engine redoes only the
 * days from a checkpoint on, but compressing the whole body again (10 MB of JSON with the
 * allocation history, dense 20k) cost more than the report itself. So the JSON is cut where the
 * engine says pieces recur (`EngineReport.pieces`), each piece is deflated on its own and ended
 * with a sync flush (byte-aligned, no reference to earlier bytes), and the pieces are joined in
 * one gzip member: one final empty block, then the CRC-32 (combined from the pieces') and the
 * length. A piece is found again by its content (length and two hashes), so a reused piece is
 * always the same text; zlib level 4: as fast as libdeflate's level 6 on whole bodies, ~7 % larger.
 */
import { constants, deflateRawSync } from "node:zlib";

interface Piece {
  deflated: Uint8Array;
  crc: number;
  bytes: number;
  /** `crc32Shift(bytes)`, made once: a kept piece's CRC-32 is combined again in every body that holds it. */
  shift: Uint32Array;
}

const HEADER = new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** A final fixed-Huffman block holding only its end code. */
const FINAL_EMPTY_BLOCK = new Uint8Array([3, 0]);
const LEVEL = 4;
/** The largest piece encoded in the reused buffer (larger ones get their own). */
const SCRATCH_MAX = 4 * 1024 * 1024;

export class SegmentedGzip {
  private readonly pieces = new Map<string, Piece>();
  private kept = 0;
  private scratch = Buffer.allocUnsafe(64 * 1024);

  /** `maxBytes`: compressed bytes kept (least recently used pieces go first). */
  constructor(private readonly maxBytes = 8 * 1024 * 1024) {}

  /** `text` gzipped, cut at `cuts` (ascending offsets). */
  gzip(text: string, cuts: readonly number[]): Uint8Array<ArrayBuffer> {
    const texts: string[] = [];
    let from = 0;
    for (const to of [...cuts, text.length]) {
      if (to <= from) continue;
      texts.push(text.slice(from, to));
      from = to;
    }
    return this.gzipPieces(texts);
  }

  /** The text of `texts` joined, gzipped, each of them a piece (the joined text is never built). */
  gzipPieces(texts: readonly string[]): Uint8Array<ArrayBuffer> {
    const parts: Uint8Array[] = [HEADER];
    let crc = 0;
    let bytes = 0;
    for (const text of texts) {
      if (text.length === 0) continue;
      const p = this.piece(text);
      parts.push(p.deflated);
      crc = (times(p.shift, crc) ^ p.crc) >>> 0;
      bytes += p.bytes;
    }
    const trailer = new Uint8Array(8);
    const view = new DataView(trailer.buffer);
    view.setUint32(0, crc >>> 0, true);
    view.setUint32(4, bytes >>> 0, true);
    parts.push(FINAL_EMPTY_BLOCK, trailer);
    this.evict();
    return Buffer.concat(parts);
  }

  private piece(text: string): Piece {
    const key = `${text.length}:${Bun.hash.wyhash(text)}:${Bun.hash.crc32(text)}`;
    let p = this.pieces.get(key);
    if (p) {
      // Most recently used last.
      this.pieces.delete(key);
      this.pieces.set(key, p);
      return p;
    }
    const utf8 = this.utf8(text);
    p = {
      deflated: deflateRawSync(utf8, { level: LEVEL, finishFlush: constants.Z_SYNC_FLUSH }), crc: Bun.hash.crc32(utf8), bytes: utf8.length,
      shift: crc32Shift(utf8.length),
    };
    this.pieces.set(key, p);
    this.kept += p.deflated.length;
    return p;
  }

  /**
   * `text` as UTF-8 in one buffer reused from piece to piece: a buffer per piece was ~10 MB of
   * byte arrays (a dense 100k body) left for the next collection, about as much on the worker's
   * RSS peak. Only read before the next call (the deflated bytes and the CRC are copies).
   */
  private utf8(text: string): Buffer {
    const bytes = Buffer.byteLength(text, "utf8");
    if (bytes > SCRATCH_MAX) return Buffer.from(text, "utf8");
    if (this.scratch.length < bytes) this.scratch = Buffer.allocUnsafe(Math.min(SCRATCH_MAX, Math.max(bytes, 2 * this.scratch.length)));
    return this.scratch.subarray(0, this.scratch.write(text, 0, "utf8"));
  }

  private evict(): void {
    for (const [key, p] of this.pieces) {
      if (this.kept <= this.maxBytes) break;
      this.pieces.delete(key);
      this.kept -= p.deflated.length;
    }
  }
}

/** CRC-32 of `a ‖ b` from crc(a), crc(b) and b's length (zlib's crc32_combine, GF(2) matrices). */
export function crc32Combine(crc1: number, crc2: number, len2: number): number {
  return (times(crc32Shift(len2), crc1 >>> 0) ^ crc2) >>> 0;
}

/**
 * The GF(2) operator that takes crc(a) to the CRC-32 register after `len` zero bytes more (zlib's
 * crc32_combine, as a matrix): crc(a ‖ b) = shift(|b|) · crc(a) ⊕ crc(b).
 */
export function crc32Shift(len: number): Uint32Array {
  const out = new Uint32Array(32);
  for (let n = 0; n < 32; n++) out[n] = (1 << n) >>> 0;
  if (len <= 0) return out;
  const even = new Uint32Array(32);
  const odd = new Uint32Array(32);
  odd[0] = 0xedb88320;
  let row = 1;
  for (let n = 1; n < 32; n++) { odd[n] = row; row = (row << 1) >>> 0; }
  square(even, odd); // 2 zero bits
  square(odd, even); // 4 zero bits
  let rest = len;
  do {
    square(even, odd);
    if (rest % 2) compose(out, even);
    rest = Math.floor(rest / 2);
    if (rest === 0) break;
    square(odd, even);
    if (rest % 2) compose(out, odd);
    rest = Math.floor(rest / 2);
  } while (rest > 0);
  return out;
}

/** `out` becomes `mat ∘ out` (powers of one operator: the order does not matter). */
function compose(out: Uint32Array, mat: Uint32Array): void {
  for (let n = 0; n < 32; n++) out[n] = times(mat, out[n]!);
}

function times(mat: Uint32Array, vec: number): number {
  let sum = 0;
  for (let i = 0; vec !== 0; i++, vec >>>= 1) if (vec & 1) sum ^= mat[i]!;
  return sum >>> 0;
}

function square(out: Uint32Array, mat: Uint32Array): void {
  for (let n = 0; n < 32; n++) out[n] = times(mat, mat[n]!);
}
