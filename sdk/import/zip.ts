import { PluginError } from "../errors.ts";

/**
 * Reading ZIP archives (an XLSX workbook is one) within limits, so a small file cannot unpack into
 * gigabytes: a few hundred kilobytes of deflated XML can hold millions of identical cells, and a
 * spreadsheet library given such a file holds every one of them in memory.
 *
 * The central directory is read first (entry count, declared sizes: nothing is inflated when they
 * are over the limits), then each entry is inflated as a stream and stopped as soon as it passes
 * its declared size or the archive's budget (declared sizes can lie), and the XML found inside is
 * counted (cells, elements) before any parser sees it.
 */

const MB = 1024 * 1024;

/** What an archive may hold before it is refused. */
export interface UnpackLimits {
  /** Most entries (files and folders) in the archive. */
  readonly maxEntries: number;
  /** Most bytes all entries together unpack to: declared in the directory, then counted while inflating. */
  readonly maxUnpackedBytes: number;
  /** Most spreadsheet cells in all the XML inside: `<c>` elements, and the cells a `<hyperlink ref>` range covers. */
  readonly maxCells: number;
  /** Most XML elements in all the XML inside (each becomes an object of the spreadsheet reader). */
  readonly maxElements: number;
}

/**
 * The limits of a workbook read for an import: a broker export of 50,000 rows × 20 columns
 * (about 1,000,000 cells and 40–60 MB of sheet XML, 4 million elements at most) passes with room;
 * parsing the largest file within them takes about 1 GB of memory at most.
 */
export const WORKBOOK_LIMITS: UnpackLimits = Object.freeze({
  maxEntries: 2_000,
  maxUnpackedBytes: 100 * MB,
  maxCells: 2_000_000,
  maxElements: 6_000_000,
});

/** Which limit a file went past. */
export type UnpackLimit = "cells" | "elements" | "entries" | "sheet_span" | "unpacked_bytes";

/**
 * A file refused for one of its limits: a {@link PluginError} (`invalid-input`, shown to the user)
 * carrying which limit (`limit`) and its value (`max`). Checked by shape with {@link isUnpackLimitError},
 * so one thrown by another copy of the SDK is recognised too.
 */
export class UnpackLimitError extends PluginError {
  readonly limit: UnpackLimit;
  readonly max: number;

  constructor(limit: UnpackLimit, max: number, message: string) {
    super("invalid-input", message);
    this.name = "UnpackLimitError";
    this.limit = limit;
    this.max = max;
  }
}

export function isUnpackLimitError(value: unknown): value is UnpackLimitError {
  if (!(value instanceof Error)) return false;
  const candidate = value as Partial<UnpackLimitError>;
  return typeof candidate.limit === "string" && typeof candidate.max === "number" && typeof candidate.reason === "string";
}

/** One unpacked entry: its name as stored (bytes read as Latin-1, like the spreadsheet reader does) and its bytes. */
export interface ZipEntry {
  readonly name: string;
  readonly data: Uint8Array;
}

const count = (n: number) => n.toLocaleString("en-US");

function tooMany(limit: UnpackLimit, max: number, what: string, label: string): UnpackLimitError {
  const text: Record<UnpackLimit, string> = {
    cells: `${label} has more than ${count(max)} cells`,
    elements: `${label} has more than ${count(max)} XML elements`,
    entries: `${label} holds more than ${count(max)} files`,
    sheet_span: `${label} spans more than ${count(max)} cells`,
    unpacked_bytes: `${label} unpacks to more than ${count(Math.round(max / MB))} MB`,
  };
  return new UnpackLimitError(limit, max, what ? `${text[limit]} (${what})` : text[limit]);
}

/** True for bytes the spreadsheet reader takes for a ZIP: "PK" and two small bytes (local header, empty archive, spanned). */
export function looksLikeZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2]! < 0x09 && bytes[3]! < 0x09;
}

/** Deflate cannot produce more than 1,032 bytes per compressed byte (a 258-byte match in under 2 bits), plus a block's overhead. */
const DEFLATE_MAX_RATIO = 1032;

const damaged = (label: string, why: string) => new Error(`${label} is damaged: ${why}`);

interface DirectoryEntry {
  compressed: number;
  flags: number;
  method: number;
  offset: number;
  size: number;
}

/** The central directory's entries; throws when there is none, or when it is over the entry or size limits. */
function readDirectory(bytes: Uint8Array, limits: UnpackLimits, label: string): DirectoryEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (view.getUint32(at, true) === 0x06054b50) { end = at; break; }
  }
  if (end < 0) throw damaged(label, "no ZIP directory");
  const onDisk = view.getUint16(end + 8, true);
  const total = view.getUint16(end + 10, true);
  const directoryAt = view.getUint32(end + 16, true);
  // 0xFFFF / 0xFFFFFFFF mark a ZIP64 directory: more entries or bytes than any limit allows.
  if (total > limits.maxEntries || onDisk > limits.maxEntries) throw tooMany("entries", limits.maxEntries, "", label);
  if (onDisk !== total) throw damaged(label, "a ZIP spanning several disks");
  if (directoryAt === 0xffffffff) throw tooMany("unpacked_bytes", limits.maxUnpackedBytes, "", label);
  const entries: DirectoryEntry[] = [];
  let declared = 0;
  let at = directoryAt;
  for (let i = 0; i < total; i++) {
    if (at + 46 > end || view.getUint32(at, true) !== 0x02014b50) throw damaged(label, "a broken ZIP directory");
    const entry = {
      flags: view.getUint16(at + 8, true),
      method: view.getUint16(at + 10, true),
      compressed: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      offset: view.getUint32(at + 42, true),
    };
    declared += entry.size;
    if (declared > limits.maxUnpackedBytes) throw tooMany("unpacked_bytes", limits.maxUnpackedBytes, "", label);
    if (entry.method === 8 && entry.size > entry.compressed * DEFLATE_MAX_RATIO + 1024) {
      throw damaged(label, "an entry claims more than compression can hold");
    }
    entries.push(entry);
    at += 46 + view.getUint16(at + 28, true) + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return entries;
}

/**
 * Inflates `input` (raw DEFLATE) into exactly `size` bytes, fed in small slices so little more
 * than the limit is ever produced. Past `size` the output is only counted, up to `budget` (what
 * the archive may still unpack): a stream that keeps going is over the limit, one that stops
 * short of it is damaged.
 */
async function inflate(input: Uint8Array, size: number, budget: number, fail: { damaged: () => Error; over: () => Error }): Promise<Uint8Array> {
  const out = new Uint8Array(size);
  const stream = new DecompressionStream("deflate-raw");
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  let produced = 0;
  let over = false;
  const reading = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      if (produced + value.byteLength <= size) out.set(value, produced);
      produced += value.byteLength;
      if (produced > budget) {
        over = true;
        await reader.cancel().catch(() => undefined);
        return;
      }
    }
  })();
  const SLICE = 16 * 1024;
  try {
    for (let at = 0; at < input.length && !over; at += SLICE) {
      await writer.ready;
      await writer.write(input.subarray(at, at + SLICE) as Uint8Array<ArrayBuffer>);
    }
    if (!over) await writer.close();
  } catch {
    // The reading side tells: over the limit, or a stream that does not inflate.
  }
  let broken = false;
  await reading.catch(() => { broken = true; });
  await writer.abort().catch(() => undefined);
  if (over) throw fail.over();
  if (broken || produced !== size) throw fail.damaged();
  return out;
}

/** Bytes as Latin-1 text, one character per byte (how the spreadsheet reader names ZIP entries). */
function latin1(bytes: Uint8Array): string {
  let text = "";
  for (let i = 0; i < bytes.length; i += 4096) text += String.fromCharCode(...bytes.subarray(i, i + 4096));
  return text;
}

const LT = 0x3c;

function isNameEnd(byte: number | undefined): boolean {
  return byte === undefined || byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d || byte === 0x2f || byte === 0x3e;
}

/** Column letters and row digits of `A1` → [column, row] (1-based), or null. */
function cellOf(ref: string): [number, number] | null {
  const match = /^\$?([A-Za-z]{1,7})\$?(\d{1,10})$/.exec(ref.trim());
  if (!match) return null;
  let column = 0;
  for (const ch of match[1]!.toUpperCase()) column = column * 26 + (ch.charCodeAt(0) - 64);
  return [column, Number(match[2])];
}

/** How many cells a range such as `A1:C3` covers (1 for a single cell or a reference that does not parse). */
function rangeCells(ref: string): number {
  const [from, to = from] = ref.split(":");
  const a = cellOf(from ?? "");
  const b = cellOf(to ?? "");
  if (!a || !b) return 1;
  return (Math.abs(b[0] - a[0]) + 1) * (Math.abs(b[1] - a[1]) + 1);
}

const decoder = new TextDecoder("latin1");

/** The `ref` attribute of the tag starting at `from` (the spreadsheet reader fills every cell of a hyperlink's range). */
function refAttribute(data: Uint8Array, from: number): string {
  let to = from;
  while (to < data.length && data[to] !== 0x3e && to - from < 4096) to++;
  const match = /\sref\s*=\s*["']([^"']*)["']/.exec(decoder.decode(data.subarray(from, to)));
  return match?.[1] ?? "";
}

/** Counts elements, cells (`<c>`, with any namespace prefix) and the cells of hyperlink ranges in one part. */
function countXml(data: Uint8Array, totals: { cells: number; elements: number }): void {
  for (let i = data.indexOf(LT); i >= 0 && i < data.length; i = data.indexOf(LT, i + 1)) {
    const next = data[i + 1];
    if (next === undefined || next === 0x2f || next === 0x3f || next === 0x21) continue;
    totals.elements++;
    // The element's local name: after the last ':' of the name.
    let start = i + 1;
    let end = start;
    while (end < data.length && !isNameEnd(data[end]) && end - start < 64) {
      if (data[end] === 0x3a) start = end + 1;
      end++;
    }
    const length = end - start;
    if (length === 1 && data[start] === 0x63) totals.cells++;
    else if (length === 9 && decoder.decode(data.subarray(start, end)) === "hyperlink") totals.cells += rangeCells(refAttribute(data, end));
  }
}

/**
 * Unpacks a ZIP archive in memory within `limits`, or throws: an {@link UnpackLimitError} naming the
 * limit when it is over one (entries, declared or actual unpacked bytes, cells, XML elements), a
 * plain `Error` when it is not a ZIP this reader takes (damaged, encrypted, ZIP64, a compression
 * other than deflate). `label` names the file in messages ("the spreadsheet", "the archive").
 * Nothing is inflated past the limits, whatever the headers claim.
 */
export async function unpackZip(bytes: Uint8Array, limits: UnpackLimits = WORKBOOK_LIMITS, label = "the archive"): Promise<ZipEntry[]> {
  const directory = readDirectory(bytes, limits, label);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const entries: ZipEntry[] = [];
  const totals = { cells: 0, elements: 0 };
  let unpacked = 0;
  for (const entry of directory) {
    const at = entry.offset;
    if (at + 30 > bytes.length || view.getUint32(at, true) !== 0x04034b50) throw damaged(label, "a broken ZIP entry");
    const nameLength = view.getUint16(at + 26, true);
    const dataAt = at + 30 + nameLength + view.getUint16(at + 28, true);
    if (dataAt + entry.compressed > bytes.length) throw damaged(label, "an entry runs past the end of the file");
    const name = latin1(bytes.subarray(at + 30, at + 30 + nameLength));
    if (entry.flags & 0x41) throw damaged(label, "encrypted ZIP entries are not read");
    const input = bytes.subarray(dataAt, dataAt + entry.compressed);
    const budget = limits.maxUnpackedBytes - unpacked;
    let data: Uint8Array;
    if (entry.method === 0) {
      if (entry.size !== entry.compressed) throw damaged(label, "a stored entry whose sizes differ");
      data = input;
    } else if (entry.method === 8) {
      data = await inflate(input, entry.size, budget, {
        damaged: () => damaged(label, `entry ${name.slice(0, 100)} does not unpack to its declared size`),
        over: () => tooMany("unpacked_bytes", limits.maxUnpackedBytes, "", label),
      });
    } else {
      throw damaged(label, `compression method ${entry.method} is not read`);
    }
    unpacked += data.length;
    countXml(data, totals);
    if (totals.cells > limits.maxCells) throw tooMany("cells", limits.maxCells, "", label);
    if (totals.elements > limits.maxElements) throw tooMany("elements", limits.maxElements, "", label);
    entries.push({ name, data });
  }
  return entries;
}

/** The refusal of a sheet whose rows × columns are over `max` (a sparse sheet with far-apart cells). */
export function sheetSpanError(sheet: string, rows: number, columns: number, max: number, label = "the spreadsheet"): UnpackLimitError {
  return tooMany("sheet_span", max, `sheet "${sheet}": ${count(rows)} rows × ${count(columns)} columns`, label);
}
