/**
 * Content sniffing for uploads (checked for MIME type, executable content
 * blocked). The type comes from the bytes alone; the client's type is never read and the name only
 * decides CSV versus plain text and blocks script extensions that content cannot reveal.
 */
export type SniffResult =
  | { readonly blocked: false; readonly contentType: string }
  | { readonly blocked: true; readonly reason: string };

/** Extensions refused whatever the content: Windows scripts and packages are hard to sniff. */
export const BLOCKED_EXTENSIONS: ReadonlySet<string> = new Set([
  "app", "apk", "bash", "bat", "cmd", "com", "dll", "dylib", "exe", "hta", "jar", "js", "mjs", "msi",
  "php", "pl", "ps1", "py", "rb", "scr", "sh", "so", "vbs", "wsf",
]);

const OOXML_TYPES: Record<string, string> = {
  "ppt/": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  "word/": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  "xl/": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
};

/** Start tags after which a browser treats text as HTML (WHATWG MIME sniffing, "text/html" rule). */
const HTML_START = /^<(!doctype\s+html|html|head|body|script|iframe|h1|div|font|table|a|style|title|b|br|p|meta|link|object|embed|frameset)[\s>/]/;
/** Tags that make text HTML wherever they appear near the start (XHTML after a prolog, inline scripts). */
const HTML_NEAR_START = /<(html|script)[\s>/]/;
const HTML_SCAN_CHARS = 1024;

/** The last extension of a name, lower-cased, ignoring trailing dots and spaces (Windows drops them). */
export function extensionOf(filename: string): string {
  const trimmed = filename.replace(/[. ]+$/, "");
  const dot = trimmed.lastIndexOf(".");
  return dot > 0 ? trimmed.slice(dot + 1).toLowerCase() : "";
}

/** Sniffs `bytes`; `filename` is the client's name, used only as described above. */
export function sniffUpload(bytes: Uint8Array, filename: string): SniffResult {
  const ext = extensionOf(filename);
  if (BLOCKED_EXTENSIONS.has(ext)) return blocked(`.${ext} files are not accepted`);
  const executable = executableKind(bytes);
  if (executable) return blocked(`${executable} content is not accepted`);
  const binary = binaryType(bytes);
  if (binary) return binary;
  const text = decodeText(bytes);
  if (text === null) return allowed("application/octet-stream");
  return textType(text, ext);
}

function allowed(contentType: string): SniffResult {
  return { blocked: false, contentType };
}

function blocked(reason: string): SniffResult {
  return { blocked: true, reason };
}

function startsWith(bytes: Uint8Array, magic: readonly number[], at = 0): boolean {
  if (bytes.length < at + magic.length) return false;
  return magic.every((b, i) => bytes[at + i] === b);
}

function ascii(bytes: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...bytes.subarray(from, to));
}

/** Executables and scripts recognisable by their first bytes. `cafebabe` is both a Mach-O fat binary and a Java class: blocked either way. */
function executableKind(bytes: Uint8Array): string | null {
  if (startsWith(bytes, [0x7f, 0x45, 0x4c, 0x46])) return "ELF executable";
  if (startsWith(bytes, [0x4d, 0x5a])) return "Windows (PE/DOS) executable";
  const head = bytes.length >= 4 ? ascii(bytes, 0, 4) : "";
  const machO = ["\xfe\xed\xfa\xce", "\xfe\xed\xfa\xcf", "\xce\xfa\xed\xfe", "\xcf\xfa\xed\xfe"];
  if (machO.includes(head)) return "Mach-O executable";
  if (["\xca\xfe\xba\xbe", "\xca\xfe\xba\xbf", "\xbe\xba\xfe\xca"].includes(head)) return "Mach-O universal binary or Java class";
  if (head === "\0asm") return "WebAssembly module";
  const offset = startsWith(bytes, [0xef, 0xbb, 0xbf]) ? 3 : 0;
  if (startsWith(bytes, [0x23, 0x21], offset)) return "Script (#!)";
  return null;
}

/** Binary formats recognised by their magic bytes. */
function binaryType(bytes: Uint8Array): SniffResult | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return allowed("image/png");
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return allowed("image/jpeg");
  const head = ascii(bytes, 0, Math.min(bytes.length, 12));
  if (head.startsWith("GIF87a") || head.startsWith("GIF89a")) return allowed("image/gif");
  if (head.startsWith("RIFF") && head.slice(8, 12) === "WEBP") return allowed("image/webp");
  if (head.length === 12 && head.slice(4, 8) === "ftyp" && isAvif(bytes)) return allowed("image/avif");
  if (isBmp(bytes)) return allowed("image/bmp");
  if (startsWith(bytes, [0, 0, 1, 0]) && bytes.length >= 22 && (bytes[4]! | bytes[5]! << 8) > 0) return allowed("image/x-icon");
  if (head.startsWith("%PDF-")) return allowed("application/pdf");
  if (startsWith(bytes, [0x1f, 0x8b])) return allowed("application/gzip");
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])) return zipType(bytes);
  return null;
}

/** ISO-BMFF with an AVIF brand as major or compatible brand. */
function isAvif(bytes: Uint8Array): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const boxEnd = Math.min(view.getUint32(0), bytes.length, 256);
  for (let at = 8; at + 4 <= boxEnd; at += 4) {
    if (at === 12) continue; // minor version, not a brand
    const brand = ascii(bytes, at, at + 4);
    if (brand === "avif" || brand === "avis") return true;
  }
  return false;
}

/** "BM" alone is too weak (a CSV may start with it): also require zero reserved bytes and a known DIB header size. */
function isBmp(bytes: Uint8Array): boolean {
  if (bytes.length < 26 || bytes[0] !== 0x42 || bytes[1] !== 0x4d) return false;
  if (bytes[6] !== 0 || bytes[7] !== 0 || bytes[8] !== 0 || bytes[9] !== 0) return false;
  const dib = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(14, true);
  return [12, 40, 52, 56, 64, 108, 124].includes(dib);
}

/** Entry names from the zip's central directory (cheap: no decompression). */
export function zipEntryNames(bytes: Uint8Array, limit = 2000): string[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const floor = Math.max(0, bytes.length - 22 - 0xffff);
  let eocd = -1;
  for (let at = bytes.length - 22; at >= floor; at--) {
    if (view.getUint32(at, true) === 0x06054b50) { eocd = at; break; }
  }
  if (eocd < 0) return [];
  const names: string[] = [];
  const count = Math.min(view.getUint16(eocd + 10, true), limit);
  let at = view.getUint32(eocd + 16, true);
  const decoder = new TextDecoder();
  for (let i = 0; i < count && at + 46 <= bytes.length && view.getUint32(at, true) === 0x02014b50; i++) {
    const nameLength = view.getUint16(at + 28, true);
    const skip = view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    names.push(decoder.decode(bytes.subarray(at + 46, Math.min(at + 46 + nameLength, bytes.length))));
    at += 46 + nameLength + skip;
  }
  return names;
}

/** OOXML documents are zips with `[Content_Types].xml`; Java and Android packages are executable. */
function zipType(bytes: Uint8Array): SniffResult {
  const names = zipEntryNames(bytes);
  if (names.some((n) => n === "META-INF/MANIFEST.MF" || n.endsWith(".class") || n === "classes.dex")) {
    return blocked("Java or Android package content is not accepted");
  }
  if (names.includes("[Content_Types].xml")) {
    for (const [prefix, type] of Object.entries(OOXML_TYPES)) {
      if (names.some((n) => n.startsWith(prefix))) return allowed(type);
    }
  }
  return allowed("application/zip");
}

/** Valid UTF-8 without NUL or other control characters (tab, line breaks, form feed and escape allowed); BOM removed. */
function decodeText(bytes: Uint8Array): string | null {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return null;
  }
  return /[\0-\x08\x0e-\x1a\x1c-\x1f\x7f]/.test(text) ? null : text;
}

function textType(text: string, ext: string): SniffResult {
  const start = text.trimStart();
  const head = start.slice(0, HTML_SCAN_CHARS).toLowerCase();
  if (isSvg(start)) {
    const unsafe = unsafeSvgReason(text);
    return unsafe ? blocked(`SVG with ${unsafe} is not accepted`) : allowed("image/svg+xml");
  }
  if (HTML_START.test(head) || HTML_NEAR_START.test(head)) return blocked("HTML content is not accepted");
  if ((start.startsWith("{") || start.startsWith("[")) && isJson(start)) return allowed("application/json");
  if (ext === "csv" || looksDelimited(text)) return allowed("text/csv");
  return allowed("text/plain");
}

/** SVG: optional XML prolog, comments, doctype and whitespace, then an `<svg` root. */
export function isSvg(text: string): boolean {
  const rest = text.trimStart()
    .replace(/^<\?xml[\s\S]*?\?>/i, "")
    .replace(/^(\s*<!--[\s\S]*?-->|\s*<!doctype\s+svg[^>]*>)*/i, "")
    .trimStart();
  return /^<svg[\s>/]/i.test(rest);
}

/** Numeric character references decoded, so `jav&#x61;script:` cannot slip past the checks. */
function decodeEntities(text: string): string {
  return text.replace(/&#(x[0-9a-f]+|\d+);?/gi, (_, code: string) => {
    const n = code[0]!.toLowerCase() === "x" ? Number.parseInt(code.slice(1), 16) : Number.parseInt(code, 10);
    return n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : "";
  });
}

/** Scripts, event handler attributes and `javascript:` URLs (browsers ignore whitespace inside the scheme). */
function unsafeSvgReason(text: string): string | null {
  const decoded = decodeEntities(text).toLowerCase();
  if (/<script[\s>/]/.test(decoded)) return "a script element";
  if (/[\s"'/]on[a-z]+\s*=/.test(decoded)) return "an event handler attribute";
  if (decoded.replace(/[\0-\x20]/g, "").includes("javascript:")) return "a javascript: URL";
  return null;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** At least two non-empty lines with the same non-zero count of commas (or semicolons, or tabs). */
function looksDelimited(text: string): boolean {
  const lines = text.split(/\r?\n/, 6).slice(0, 5).filter((l) => l.trim() !== "");
  if (lines.length < 2) return false;
  return [",", ";", "\t"].some((d) => {
    const counts = lines.map((l) => l.split(d).length - 1);
    return counts[0]! > 0 && counts.every((c) => c === counts[0]);
  });
}
