import { describe, expect, test } from "bun:test";
import { extensionOf, isSvg, sniffUpload, zipEntryNames } from "../../core/uploads/mime-sniff.ts";
import { CLEAN_SVG, ELF_HEADER, PNG_1X1 } from "../fixtures/uploads/files.ts";

const text = (s: string) => new TextEncoder().encode(s);
const bytes = (...parts: (number[] | string)[]) =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === "string" ? [...p].map((c) => c.charCodeAt(0)) : p)));
const typeOf = (content: Uint8Array, name = "file") => {
  const result = sniffUpload(content, name);
  return result.blocked ? "BLOCKED" : result.contentType;
};

/** A stored (uncompressed) zip holding empty entries with these names. */
function zipOf(names: string[]): Uint8Array {
  const enc = new TextEncoder();
  const u16 = (n: number) => [n & 0xff, n >> 8];
  const u32 = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, n >>> 24];
  const local: number[] = [];
  const central: number[] = [];
  for (const name of names) {
    const raw = [...enc.encode(name)];
    const offset = local.length;
    local.push(...u32(0x04034b50), ...u16(20), ...u16(0), ...u16(0), ...u32(0), ...u32(0), ...u32(0), ...u32(0), ...u16(raw.length), ...u16(0), ...raw);
    central.push(...u32(0x02014b50), ...u16(20), ...u16(20), ...u16(0), ...u16(0), ...u32(0), ...u32(0), ...u32(0), ...u32(0),
      ...u16(raw.length), ...u16(0), ...u16(0), ...u16(0), ...u16(0), ...u32(0), ...u32(offset), ...raw);
  }
  const eocd = [...u32(0x06054b50), ...u16(0), ...u16(0), ...u16(names.length), ...u16(names.length), ...u32(central.length), ...u32(local.length), ...u16(0)];
  return Uint8Array.from([...local, ...central, ...eocd]);
}

describe("magic bytes decide binary types", () => {
  test("images, PDF and gzip are recognised whatever the name", () => {
    expect(typeOf(PNG_1X1, "a.txt")).toBe("image/png");
    expect(typeOf(bytes([0xff, 0xd8, 0xff, 0xe0], "JFIF"))).toBe("image/jpeg");
    expect(typeOf(bytes("GIF89a", [1, 0, 1, 0]))).toBe("image/gif");
    expect(typeOf(bytes("RIFF", [0, 0, 0, 0], "WEBPVP8 "))).toBe("image/webp");
    expect(typeOf(bytes([0, 0, 0, 0x1c], "ftypavif", [0, 0, 0, 0], "avifmif1miaf"))).toBe("image/avif");
    expect(typeOf(bytes([0, 0, 0, 0x18], "ftypmif1", [0, 0, 0, 0], "mif1avif"))).toBe("image/avif");
    expect(typeOf(bytes("BM", [0x46, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0, 40, 0, 0, 0], new Array(40).fill(0)))).toBe("image/bmp");
    expect(typeOf(bytes([0, 0, 1, 0, 1, 0], new Array(16).fill(0)))).toBe("image/x-icon");
    expect(typeOf(text("%PDF-1.7\n%âãÏÓ\n"))).toBe("application/pdf");
    expect(typeOf(Bun.gzipSync(text("hello")))).toBe("application/gzip");
  });

  test("a CSV starting with BM is not mistaken for a bitmap", () => {
    expect(typeOf(text("BMW,120.5\nVW,99.1\n"))).toBe("text/csv");
  });

  test("zips are application/zip; OOXML is recognised from its entries", () => {
    expect(typeOf(zipOf(["notes.txt"]))).toBe("application/zip");
    expect(typeOf(zipOf(["[Content_Types].xml", "_rels/.rels", "xl/workbook.xml"]), "a.zip"))
      .toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    expect(typeOf(zipOf(["[Content_Types].xml", "word/document.xml"])))
      .toBe("application/vnd.openxmlformats-officedocument.wordprocessingml.document");
    expect(zipEntryNames(zipOf(["a", "b/c"]))).toEqual(["a", "b/c"]);
  });

  test("unknown binary content is application/octet-stream", () => {
    expect(typeOf(bytes([0, 1, 2, 3, 0xfe, 0xff]), "x.png")).toBe("application/octet-stream");
    expect(typeOf(bytes([0xc3, 0x28, 0x41]))).toBe("application/octet-stream");
  });
});

describe("executables and scripts are blocked", () => {
  test("ELF, PE, Mach-O (thin and fat), Java classes and WebAssembly", () => {
    expect(typeOf(ELF_HEADER, "photo.png")).toBe("BLOCKED");
    expect(typeOf(bytes("MZ", [0x90, 0]))).toBe("BLOCKED");
    for (const magic of [[0xfe, 0xed, 0xfa, 0xcf], [0xcf, 0xfa, 0xed, 0xfe], [0xca, 0xfe, 0xba, 0xbe], [0xbe, 0xba, 0xfe, 0xca]]) {
      expect(typeOf(bytes(magic, [0, 0, 0, 0]))).toBe("BLOCKED");
    }
    expect(typeOf(bytes([0], "asm", [1, 0, 0, 0]))).toBe("BLOCKED");
  });

  test("Java and Android packages are blocked by their zip entries", () => {
    expect(typeOf(zipOf(["META-INF/MANIFEST.MF", "Main.class"]), "lib.zip")).toBe("BLOCKED");
    expect(typeOf(zipOf(["AndroidManifest.xml", "classes.dex"]), "app.zip")).toBe("BLOCKED");
  });

  test("#! scripts, also after a byte-order mark", () => {
    expect(typeOf(text("#!/usr/bin/env python3\nprint(1)\n"), "notes.txt")).toBe("BLOCKED");
    expect(typeOf(bytes([0xef, 0xbb, 0xbf], "#!/bin/sh\n"))).toBe("BLOCKED");
  });

  test("HTML and XHTML, by their start or a script/html tag near the start", () => {
    expect(typeOf(text("<!doctype html><p>x"))).toBe("BLOCKED");
    expect(typeOf(text("\n  <HTML lang=en>"))).toBe("BLOCKED");
    expect(typeOf(text(`<?xml version="1.0"?>\n<html xmlns="http://www.w3.org/1999/xhtml"/>`))).toBe("BLOCKED");
    expect(typeOf(text("name,value\nx,<script>alert(1)</script>\n"))).toBe("BLOCKED");
    expect(typeOf(text("<iframe src=x></iframe>"))).toBe("BLOCKED");
  });

  test("script extensions, ignoring case and trailing dots or spaces", () => {
    for (const name of ["a.EXE", "b.ps1", "c.vbs", "d.sh", "e.py", "f.php", "g.jar", "h.hta", "i.wsf", "j.exe. .", "k.mjs"]) {
      expect(typeOf(text("harmless words"), name)).toBe("BLOCKED");
    }
    expect(extensionOf("archive.tar.gz")).toBe("gz");
    expect(extensionOf(".bashrc")).toBe("");
  });
});

describe("SVG", () => {
  test("is recognised after a prolog, comments and a doctype", () => {
    expect(isSvg(CLEAN_SVG)).toBe(true);
    expect(isSvg(`<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x.dtd">\n<svg/>`)).toBe(true);
    expect(isSvg("<svgfoo/>")).toBe(false);
    expect(typeOf(text(CLEAN_SVG), "logo.txt")).toBe("image/svg+xml");
  });

  test("with a script, an event handler or a javascript: URL (even entity-encoded or split by whitespace) is blocked", () => {
    const svg = (inner: string) => text(`<svg xmlns="http://www.w3.org/2000/svg">${inner}</svg>`);
    expect(typeOf(svg("<SCRIPT>alert(1)</SCRIPT>"))).toBe("BLOCKED");
    expect(typeOf(svg(`<rect onclick = "alert(1)"/>`))).toBe("BLOCKED");
    expect(typeOf(svg(`<a href="java\tscript:alert(1)"/>`))).toBe("BLOCKED");
    expect(typeOf(svg(`<a href="&#106;avascript:alert(1)"/>`))).toBe("BLOCKED");
    expect(typeOf(svg(`<text>only words about javascript</text><rect fill="#2a7" data-note="one"/>`))).toBe("image/svg+xml");
  });
});

describe("text", () => {
  test("JSON when it parses, CSV by name or separators, plain text otherwise", () => {
    expect(typeOf(text(`[{"a":1}]`))).toBe("application/json");
    expect(typeOf(text(`{"a":`))).toBe("text/plain");
    expect(typeOf(text("a\tb\n1\t2\n"))).toBe("text/csv");
    expect(typeOf(text("one line only"), "REPORT.CSV")).toBe("text/csv");
    expect(typeOf(text("date,amount\n2024-01-02,10.5\n"))).toBe("text/csv");
    expect(typeOf(text("Hello, world.\nHow are you?\n"))).toBe("text/plain");
  });

  test("control characters other than whitespace make it binary", () => {
    expect(typeOf(text("abc\u0001def"))).toBe("application/octet-stream");
    expect(typeOf(text("colour \u001b[31mred\u001b[0m\n"))).toBe("text/plain");
  });
});
