import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isPluginError } from "../../sdk/index.ts";
import { pdfDocument, pdfErrorCode, pdfText, pdfTextOf } from "../../sdk/import/index.ts";
import { pdfCells } from "../../sdk/import/pdf-document.ts";
import { makePdf } from "../fixtures/pdf/make-pdf.ts";

const FIXTURES = join(import.meta.dir, "..", "fixtures");
const read = (...path: string[]) => new Uint8Array(readFileSync(join(FIXTURES, ...path)));

async function failure(bytes: Uint8Array, options?: Parameters<typeof pdfText>[1]): Promise<{ code: string | null; message: string; plugin: boolean }> {
  try {
    await pdfText(bytes, options);
  } catch (error) {
    return { code: pdfErrorCode(error), message: (error as Error).message, plugin: isPluginError(error) };
  }
  throw new Error("pdfText did not fail");
}

test("pdfText gives the lines in reading order with page and position, table cells two spaces apart", async () => {
  const { lines, pages, text } = await pdfText(read("brim", "traderepublic-pdf", "kauf-de.pdf"));
  expect(pages).toBe(1);
  expect(lines[0]).toEqual({ page: 1, text: "TRADE REPUBLIC BANK GMBH  BRUNNENSTRASSE 19-21  10119 BERLIN", x: 40, y: 800 });
  expect(lines[1]!.y).toBe(788);
  expect(text).toBe(readFileSync(join(FIXTURES, "pdf", "traderepublic", "kauf-de.txt"), "utf8").trimEnd());
  // Umlauts and the euro sign survive (WinAnsi in the PDF).
  expect(text).toContain("AUSFÜHRUNG  e5f6-0a7b");
});

test("pdfText numbers pages and separates them with a form feed line", async () => {
  const { lines, pages, text } = await pdfText(makePdf("first page\n\f\nsecond page  12,00 €"));
  expect(pages).toBe(2);
  expect(lines.map((l) => [l.page, l.text])).toEqual([[1, "first page"], [2, "second page  12,00 €"]]);
  expect(text).toBe("first page\n\f\nsecond page  12,00 €");
});

test("an encrypted PDF is refused as PDF_ENCRYPTED, a PluginError naming the password", async () => {
  const result = await failure(read("pdf", "bad", "encrypted.pdf"));
  expect(result).toEqual({ code: "PDF_ENCRYPTED", plugin: true, message: expect.stringContaining("password") });
});

test("a PDF of images only is refused as PDF_NO_TEXT", async () => {
  expect(await failure(read("pdf", "bad", "image-only.pdf"))).toEqual({ code: "PDF_NO_TEXT", plugin: true, message: expect.stringContaining("no text") });
});

test("a damaged PDF or another file is refused as PDF_UNREADABLE", async () => {
  expect((await failure(read("pdf", "bad", "corrupt.pdf"))).code).toBe("PDF_UNREADABLE");
  expect((await failure(new TextEncoder().encode("date,amount\n2025-01-01,1\n"))).code).toBe("PDF_UNREADABLE");
  expect((await failure(read("brim", "traderepublic-pdf", "kauf-de.pdf").slice(0, 400))).code).toBe("PDF_UNREADABLE");
});

test("a PDF beyond the page bound is refused before its pages are read", async () => {
  const long = makePdf(Array.from({ length: 60 }, (_, i) => `page ${i + 1}`).join("\n\f\n"));
  const started = performance.now();
  const result = await failure(long);
  expect(result.code).toBe("PDF_TOO_LONG");
  expect(result.message).toContain("60 pages; at most 50");
  expect(performance.now() - started).toBeLessThan(5_000);
  expect((await pdfText(long, { maxPages: 60 })).pages).toBe(60);
});

test("reading stops at the time bound between pages", async () => {
  const doc = makePdf(Array.from({ length: 5 }, (_, i) => `page ${i + 1}`).join("\n\f\n"));
  expect((await failure(doc, { timeoutMs: -1 })).code).toBe("PDF_TIMEOUT");
});

test("pdfDocument reads amounts in the document's decimal mark and names the document when one is none", () => {
  const doc = pdfDocument("note.pdf", ["Kurswert  EUR 1.234,50"], { decimalMark: "," });
  expect(doc.num("1.234,50").toFixed()).toBe("1234.5");
  expect(doc.num("-0,25").toFixed()).toBe("-0.25");
  expect(pdfDocument("note.pdf", [], { decimalMark: "." }).num("1,234.50").toFixed()).toBe("1234.5");
  expect(() => doc.num("12x")).toThrow('note.pdf: "12x" is not a number');
  expect(() => doc.num(undefined)).toThrow('note.pdf: "" is not a number');
});

test("pdfDocument reads an amount whose sign is written after it, and pdfCells splits a line at runs of two spaces", () => {
  const doc = pdfDocument("statement.pdf", [], { decimalMark: "," });
  expect(doc.signed("1.030,40", "-").toFixed()).toBe("-1030.4");
  expect(doc.signed("2.019,05", "+").toFixed()).toBe("2019.05");
  expect(() => doc.signed("x", "+")).toThrow('statement.pdf: "x" is not a number');
  expect(pdfCells("  01.03.  02.03.  Überweisung  Max Muster   1.000,00+ ")).toEqual(["01.03.", "02.03.", "Überweisung", "Max Muster", "1.000,00+"]);
});

test("pdfDocument reads German and ISO days and refuses an impossible one", () => {
  const doc = pdfDocument("note.pdf", []);
  expect(doc.date("03.02.2025") as string).toBe("2025-02-03");
  expect(doc.date("2025-02-03") as string).toBe("2025-02-03");
  expect(() => doc.date("31.02.2025")).toThrow('note.pdf: "31.02.2025" is not a date');
  expect(() => doc.date("3.2.2025")).toThrow("is not a date");
});

test("pdfDocument finds the first matching line within a range, and need names what is missing", () => {
  const doc = pdfDocument("note.pdf", ["Provision  EUR 1,00", "Kurswert  EUR 10,00", "Provision  EUR 2,00"]);
  expect(doc.find(/^Provision\s+EUR (\S+)/)?.[1]).toBe("1,00");
  expect(doc.find(/^Provision\s+EUR (\S+)/, 1)?.[1]).toBe("2,00");
  expect(doc.find(/^Provision/, 1, 2)).toBeNull();
  expect(doc.indexOf(/^Kurswert/)).toBe(1);
  expect(doc.indexOf(/^Kurswert/, 2)).toBe(-1);
  expect(doc.need("x", "the ISIN")).toBe("x");
  let error: unknown;
  try {
    doc.need(null, "the ISIN");
  } catch (e) {
    error = e;
  }
  expect(isPluginError(error) && (error as Error).message).toBe("note.pdf: the ISIN was not found");
});

test("pdfTextOf gives the host's reading when there is one and reads the bytes otherwise", async () => {
  const given = { lines: [{ page: 1, text: "given", x: 0, y: 0 }], pages: 1, text: "given" };
  expect(await pdfTextOf({ bytes: new Uint8Array(0), pdf: given })).toBe(given);
  expect((await pdfTextOf({ bytes: makePdf("read here") })).text).toBe("read here");
});

test("pdfDocument refuses a cancellation: a line starting or ending with Storno or Stornierung, not one that only mentions it", () => {
  for (const title of ["STORNO DIVIDENDE", "Dividendenabrechnung STORNO", "Stornierung Wertpapierabrechnung Kauf Fonds"]) {
    expect(() => pdfDocument("s.pdf", ["Bank", title]).refuseCancellation()).toThrow("s.pdf: a cancellation (Storno) of an earlier document is not imported");
  }
  expect(() => pdfDocument("k.pdf", ["Wertpapierabrechnung Kauf", "Stornierungen erfolgen kostenfrei."]).refuseCancellation()).not.toThrow();
});
