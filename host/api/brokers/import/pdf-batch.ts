/**
 * Several PDFs uploaded together are stored as one import file: a ZIP of them, the form a ZIP of
 * broker PDFs already has, so they parse into one preview exactly as an uploaded ZIP does.
 * Entries are stored, not deflated: PDFs are compressed already, and storing keeps the request
 * thread to a copy and a CRC per document.
 */

/** Most files one upload may carry (docs/security.md "Bulk-read limits"); their total size is bounded by max_file_upload_mb. */
export const MAX_UPLOAD_FILES = 200;

const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"

/** Whether the bytes start as a PDF does (the parser tells a broken one apart later, per document). */
export function isPdf(bytes: Uint8Array): boolean {
  return PDF_MAGIC.every((b, i) => bytes[i] === b);
}

/** The entry name of an uploaded file: its last path part, without control characters, unique in the archive. */
function entryNames(names: readonly string[]): string[] {
  const seen = new Set<string>();
  return names.map((raw, i) => {
    const base = (raw.split(/[\\/]/).pop() ?? "").replace(/[\x00-\x1f\x7f]/g, "").trim() || `document-${i + 1}.pdf`;
    let name = base;
    for (let n = 2; seen.has(name.toLowerCase()); n++) name = base.replace(/(\.pdf)?$/i, (ext) => ` (${n})${ext}`);
    seen.add(name.toLowerCase());
    return name;
  });
}

/** A ZIP (stored entries, UTF-8 names) of the documents, in the order given. */
export function packPdfs(files: readonly { name: string; bytes: Uint8Array }[]): Uint8Array<ArrayBuffer> {
  const encoder = new TextEncoder();
  const names = entryNames(files.map((f) => f.name)).map((n) => encoder.encode(n));
  let size = 22;
  files.forEach((f, i) => (size += 30 + 46 + 2 * names[i]!.length + f.bytes.length));
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  const centrals: { at: number; crc: number; length: number }[] = [];
  let at = 0;
  files.forEach((f, i) => {
    const name = names[i]!;
    const crc = Bun.hash.crc32(f.bytes) >>> 0;
    centrals.push({ at, crc, length: f.bytes.length });
    view.setUint32(at, 0x04034b50, true);
    view.setUint16(at + 4, 20, true);
    view.setUint16(at + 6, 0x0800, true); // names are UTF-8
    view.setUint32(at + 14, crc, true);
    view.setUint32(at + 18, f.bytes.length, true);
    view.setUint32(at + 22, f.bytes.length, true);
    view.setUint16(at + 26, name.length, true);
    out.set(name, at + 30);
    out.set(f.bytes, at + 30 + name.length);
    at += 30 + name.length + f.bytes.length;
  });
  const directory = at;
  files.forEach((_, i) => {
    const name = names[i]!;
    const c = centrals[i]!;
    view.setUint32(at, 0x02014b50, true);
    view.setUint16(at + 4, 20, true);
    view.setUint16(at + 6, 20, true);
    view.setUint16(at + 8, 0x0800, true);
    view.setUint32(at + 16, c.crc, true);
    view.setUint32(at + 20, c.length, true);
    view.setUint32(at + 24, c.length, true);
    view.setUint16(at + 28, name.length, true);
    view.setUint32(at + 42, c.at, true);
    out.set(name, at + 46);
    at += 46 + name.length;
  });
  view.setUint32(at, 0x06054b50, true);
  view.setUint16(at + 8, files.length, true);
  view.setUint16(at + 10, files.length, true);
  view.setUint32(at + 12, at - directory, true);
  view.setUint32(at + 16, directory, true);
  return out;
}
