/**
 * The report's gzip body joined from pieces compressed one by one (host/api/portfolio/segmented-gzip.ts):
 * any client's gunzip reads it back to the JSON, pieces reused from earlier bodies included, and
 * the CRC-32 combined from the pieces' is the one of the whole text.
 */
import { expect, test } from "bun:test";
import { gunzipSync } from "node:zlib";
import { crc32Combine, SegmentedGzip } from "../../host/api/portfolio/segmented-gzip.ts";

const text = (n: number, seed: number) =>
  JSON.stringify({ series: Array.from({ length: n }, (_, i) => ({ date: `2025-01-${String(i % 28 + 1).padStart(2, "0")}`, v: `${(i * seed) % 9973}.${i % 100}`, name: "Équité €" })) });

test("a body joined from separately compressed pieces gunzips to the text, with pieces reused from an earlier body", () => {
  const gz = new SegmentedGzip();
  const first = text(5000, 7);
  const cuts = [10, 5000, 5000, 20_000, 90_000, first.length - 3];
  expect(new TextDecoder().decode(gunzipSync(gz.gzip(first, cuts)))).toBe(first);
  // The same first pieces, then other text: the kept pieces and the new ones form one valid body.
  const second = `${first.slice(0, 90_000)}${text(300, 11)}`;
  expect(new TextDecoder().decode(gunzipSync(gz.gzip(second, [10, 5000, 20_000, 90_000])))).toBe(second);
  expect(new TextDecoder().decode(Bun.gunzipSync(gz.gzip(second, [])))).toBe(second);
});

test("the CRC-32 of two texts combined from theirs is the CRC-32 of both together", () => {
  const a = Buffer.from(text(50, 3));
  const b = Buffer.from(text(70, 5));
  expect(crc32Combine(Bun.hash.crc32(a), Bun.hash.crc32(b), b.length)).toBe(Bun.hash.crc32(Buffer.concat([a, b])));
  expect(crc32Combine(0, Bun.hash.crc32(b), b.length)).toBe(Bun.hash.crc32(b));
  // The operator kept with each piece, for every length bit pattern up to 2^20 and one beyond.
  for (const n of [0, 1, 2, 3, 7, 8, 255, 1024, 1_048_575, 3_456_789]) {
    const tail = Buffer.alloc(n, n % 251);
    expect(crc32Combine(Bun.hash.crc32(a), Bun.hash.crc32(tail), n)).toBe(Bun.hash.crc32(Buffer.concat([a, tail])));
  }
});

test("bodies stay valid when kept pieces are dropped beyond the kept size", () => {
  const gz = new SegmentedGzip(2_000);
  for (let i = 0; i < 5; i++) {
    const t = text(2000, i + 2);
    expect(new TextDecoder().decode(gunzipSync(gz.gzip(t, [1000, 30_000])))).toBe(t);
  }
});

test("a body compressed from pieces never joined is byte for byte the body of their joined text cut at the same places", () => {
  const whole = text(5000, 13);
  const cuts = [10, 5000, 20_000, 90_000, whole.length - 3];
  const pieces = [0, ...cuts].map((from, i) => whole.slice(from, [...cuts, whole.length][i]));
  expect(pieces.join("")).toBe(whole);
  const fromPieces = new SegmentedGzip().gzipPieces(["", ...pieces, ""]);
  expect(Buffer.from(fromPieces).equals(Buffer.from(new SegmentedGzip().gzip(whole, cuts)))).toBe(true);
  expect(new TextDecoder().decode(gunzipSync(fromPieces))).toBe(whole);
});
