import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isPluginError } from "../../sdk/index.ts";
import { pdfErrorCode, pdfText } from "../../sdk/import/index.ts";
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
