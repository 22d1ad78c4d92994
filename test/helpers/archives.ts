/**
 * Archives for tests, built at run time instead of committed as binaries: a tiny ZIP writer
 * (decompression bombs, archives whose headers lie about their sizes, minimal workbooks), streamed
 * compression of long repeated runs, and tar blocks. ZIP entries are deflated with
 * `Bun.deflateSync` (raw DEFLATE) unless `stored`; `declaredSize` overrides the uncompressed size
 * written in both headers (a lie the reader must not trust).
 */
export interface ZipEntrySpec {
  name: string;
  data: Uint8Array | string;
  stored?: boolean;
  declaredSize?: number;
  /** Use compressed bytes made elsewhere (e.g. one deflate stream shared by many entries). */
  compressed?: Uint8Array;
}

const encoder = new TextEncoder();

export function buildZip(entries: readonly ZipEntrySpec[]): Uint8Array<ArrayBuffer> {
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const entry of entries) {
    const data = typeof entry.data === "string" ? encoder.encode(entry.data) : entry.data;
    const body = entry.compressed ?? (entry.stored ? data : Bun.deflateSync(data as Uint8Array<ArrayBuffer>, { level: 9 }));
    const name = encoder.encode(entry.name);
    const size = entry.declaredSize ?? data.length;
    const crc = Bun.hash.crc32(data) >>> 0;
    const method = entry.stored ? 0 : 8;
    const local = new Uint8Array(30 + name.length);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, 0x04034b50, true);
    lv.setUint16(4, 20, true);
    lv.setUint16(8, method, true);
    lv.setUint32(14, crc, true);
    lv.setUint32(18, body.length, true);
    lv.setUint32(22, size, true);
    lv.setUint16(26, name.length, true);
    local.set(name, 30);
    const central = new Uint8Array(46 + name.length);
    const cv = new DataView(central.buffer);
    cv.setUint32(0, 0x02014b50, true);
    cv.setUint16(4, 20, true);
    cv.setUint16(6, 20, true);
    cv.setUint16(10, method, true);
    cv.setUint32(16, crc, true);
    cv.setUint32(20, body.length, true);
    cv.setUint32(24, size, true);
    cv.setUint16(28, name.length, true);
    cv.setUint32(42, offset, true);
    central.set(name, 46);
    locals.push(local, body);
    centrals.push(central);
    offset += local.length + body.length;
  }
  const cdSize = centrals.reduce((n, c) => n + c.length, 0);
  const end = new Uint8Array(22);
  const ev = new DataView(end.buffer);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, entries.length, true);
  ev.setUint16(10, entries.length, true);
  ev.setUint32(12, cdSize, true);
  ev.setUint32(16, offset, true);
  const out = new Uint8Array(offset + cdSize + 22);
  let at = 0;
  for (const part of [...locals, ...centrals, end]) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`;
const ROOT_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const WORKBOOK = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`;
const WORKBOOK_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`;

/** The sheet part of a one-sheet workbook: `dimension` (optional) and `rows` (the `<sheetData>` content). */
export function sheetXml(rows: string, dimension?: string): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${dimension ? `<dimension ref="${dimension}"/>` : ""}<sheetData>${rows}</sheetData></worksheet>`;
}

/** A minimal one-sheet XLSX whose sheet part is `sheet` (see {@link sheetXml}); `sheetEntry` overrides that entry. */
export function buildXlsx(sheet: string | Uint8Array, sheetEntry: Partial<ZipEntrySpec> = {}): Uint8Array<ArrayBuffer> {
  return buildZip([
    { name: "[Content_Types].xml", data: CONTENT_TYPES },
    { name: "_rels/.rels", data: ROOT_RELS },
    { name: "xl/workbook.xml", data: WORKBOOK },
    { name: "xl/_rels/workbook.xml.rels", data: WORKBOOK_RELS },
    { name: "xl/worksheets/sheet1.xml", data: sheet, ...sheetEntry },
  ]);
}

/**
 * `head`, then `chunk` `times` over, then `tail`, compressed as a stream (raw DEFLATE for a ZIP
 * entry, or gzip): a bomb of hundreds of megabytes is built without ever holding them.
 */
export async function compressRepeated(
  head: Uint8Array | string, chunk: Uint8Array | string, times: number, tail: Uint8Array | string, format: "deflate-raw" | "gzip" = "deflate-raw",
): Promise<{ compressed: Uint8Array<ArrayBuffer>; size: number }> {
  const bytes = (v: Uint8Array | string) => (typeof v === "string" ? encoder.encode(v) : v) as Uint8Array<ArrayBuffer>;
  const stream = new CompressionStream(format);
  const writer = stream.writable.getWriter();
  const collected = new Response(stream.readable).arrayBuffer();
  const body = bytes(chunk);
  await writer.write(bytes(head));
  for (let i = 0; i < times; i++) {
    await writer.ready;
    await writer.write(body);
  }
  await writer.write(bytes(tail));
  await writer.close();
  return { compressed: new Uint8Array(await collected), size: bytes(head).length + body.length * times + bytes(tail).length };
}

/** The `<sheetData>` rows of a {@link bombSheet} in three parts, for {@link compressRepeated}: head, one row of 20 cells, tail. */
export function bombSheetParts(): { head: string; row: string; tail: string } {
  const [head, tail] = sheetXml("@").split("@") as [string, string];
  return { head, row: `<row>${"<c><v>1</v></c>".repeat(20)}</row>`, tail };
}

/**
 * A sheet of `cells` identical numeric cells, 20 to a row, as bytes: the XML is a huge run of the
 * same text, so it deflates about a thousand to one (the shape of an XLSX decompression bomb).
 */
export function bombSheet(cells: number): Uint8Array {
  const perRow = 20;
  const row = encoder.encode(`<row>${"<c><v>1</v></c>".repeat(perRow)}</row>`);
  const rows = Math.ceil(cells / perRow);
  const head = encoder.encode(sheetXml("").replace("</sheetData></worksheet>", ""));
  const tail = encoder.encode("</sheetData></worksheet>");
  const out = new Uint8Array(head.length + row.length * rows + tail.length);
  out.set(head, 0);
  for (let i = 0; i < rows; i++) out.set(row, head.length + i * row.length);
  out.set(tail, head.length + rows * row.length);
  return out;
}

/** A ustar header block for a regular file `name` of `size` bytes (the tar layout Bun.Archive writes). */
export function tarHeader(name: string, size: number): Uint8Array<ArrayBuffer> {
  const header = new Uint8Array(512);
  const put = (at: number, text: string) => header.set(encoder.encode(text), at);
  put(0, name);
  put(100, "0000644\0");
  put(108, "0000000\0");
  put(116, "0000000\0");
  put(124, `${size.toString(8).padStart(11, "0")}\0`);
  put(136, "00000000000\0");
  put(148, "        ");
  put(156, "0");
  put(257, "ustar\0");
  put(263, "00");
  const sum = header.reduce((a, b) => a + b, 0);
  put(148, `${sum.toString(8).padStart(6, "0")}\0 `);
  return header;
}

/** `bytes` padded with zeros to whole 512-byte tar blocks. */
export function tarBlocks(bytes: Uint8Array | string): Uint8Array<ArrayBuffer> {
  const data = typeof bytes === "string" ? encoder.encode(bytes) : bytes;
  const out = new Uint8Array(Math.ceil(data.length / 512) * 512);
  out.set(data);
  return out;
}
