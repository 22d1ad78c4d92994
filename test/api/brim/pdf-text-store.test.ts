import { afterAll, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pdfTextPath } from "../../../core/brim/import-plugins.ts";
import { brimPdfHead, brimPdfTexts, brimPreview } from "../../../host/api/brokers/import/brim-parse.task.ts";
import { type PdfExtract, storedPdfs } from "../../../host/api/brokers/import/pdf-text-store.ts";
import { pdfText, PdfTextError } from "../../../sdk/import/pdf.ts";
import { buildZip } from "../../helpers/archives.ts";
import { tempDataDir } from "../../helpers/server.ts";
import { makePdf } from "../../fixtures/pdf/make-pdf.ts";
import { sample } from "./helpers.ts";

// The text of a stored file's PDFs is read once and kept beside the file; every later use reads that.
const dir = tempDataDir("pt-pdf-text-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `pdfText` counting its readings. */
function counting(): { extract: PdfExtract; readings: () => number } {
  let n = 0;
  return { extract: (bytes) => (n++, pdfText(bytes)), readings: () => n };
}

function stored(name: string, bytes: Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

test("a stored PDF's text is read once: a second use reads the artefact beside the file, the same lines", async () => {
  const path = stored("a", sample("traderepublic-pdf", "kauf-de.pdf"));
  const { extract, readings } = counting();
  const first = await storedPdfs(path, { extract });
  expect(readings()).toBe(1);
  expect(existsSync(pdfTextPath(path))).toBe(true);
  const again = await storedPdfs(path, { extract });
  expect(readings()).toBe(1);
  expect(again).toEqual(first!);
  expect(again!.documents[0]!.text).toEqual(await pdfText(sample("traderepublic-pdf", "kauf-de.pdf")));
});

test("each PDF of a ZIP is read once, an unreadable one with its reason, and the text view answers the kept texts", async () => {
  const zip = buildZip([
    { name: "b.pdf", data: sample("scalable-pdf", "kauf.pdf") },
    { name: "a.pdf", data: new Uint8Array(readFileSync(join(import.meta.dir, "..", "..", "fixtures", "pdf", "bad", "encrypted.pdf"))) },
    { name: "c.pdf", data: makePdf("third document") },
  ]);
  const path = stored("b", zip);
  const { extract, readings } = counting();
  const read = await storedPdfs(path, { extract });
  expect(readings()).toBe(3);
  expect(read!.documents.map((d) => [d.name, d.reason, d.text?.text.slice(0, 14) ?? null])).toEqual([
    ["a.pdf", "PDF_ENCRYPTED", null],
    ["b.pdf", null, expect.any(String)],
    ["c.pdf", null, "third document"],
  ]);
  expect((await storedPdfs(path, { extract }))!.documents).toEqual(read!.documents);
  expect(readings()).toBe(3);
  // The tasks find the artefact too: a changed text in it is what they answer, so they read no PDF.
  writeFileSync(pdfTextPath(path), readFileSync(pdfTextPath(path), "utf8").replaceAll("third document", "kept document"));
  expect((await brimPdfTexts({ filePath: path, filename: "x.zip", anonymise: false }))!.map((d) => d.text?.slice(0, 13) ?? d.reason))
    .toEqual(["PDF_ENCRYPTED", expect.any(String), "kept document"]);
});

test("detection, the text view and the preview of a stored PDF answer its kept text", async () => {
  const path = stored("c", makePdf("Bank of Examples  statement\nline two"));
  await storedPdfs(path);
  writeFileSync(pdfTextPath(path), readFileSync(pdfTextPath(path), "utf8").replaceAll("line two", "line kept"));
  expect(await brimPdfHead({ filePath: path })).toEqual({ ok: true, head: "Bank of Examples  statement\nline kept" });
  expect((await brimPdfTexts({ filePath: path, filename: "s.pdf", anonymise: false }))![0]!.text).toBe("Bank of Examples  statement\nline kept");
  const preview = await brimPreview({ filePath: path });
  expect(preview?.ok && preview.preview.rows).toEqual([["1", "Bank of Examples  statement"], ["1", "line kept"]]);
});

test("a document stopped by the time bound leaves no artefact: it is read again next time", async () => {
  const path = stored("d", makePdf("slow document"));
  let n = 0;
  const slow: PdfExtract = async () => {
    n++;
    throw new PdfTextError("PDF_TIMEOUT", "reading the PDF's text took longer than 20 s and was stopped");
  };
  expect((await storedPdfs(path, { extract: slow }))!.documents[0]!.reason).toBe("PDF_TIMEOUT");
  expect(existsSync(pdfTextPath(path))).toBe(false);
  expect((await storedPdfs(path))!.documents[0]!.text?.text).toBe("slow document");
  expect(n).toBe(1);
  expect(existsSync(pdfTextPath(path))).toBe(true);
});

test("an artefact of another layout version is read again and rewritten; a file that is no PDF gets none", async () => {
  const path = stored("e", makePdf("versioned"));
  writeFileSync(pdfTextPath(path), `${JSON.stringify({ format: "pdf-text", version: 0, documents: 1 })}\n{"name":null,"text":null,"reason":"PDF_NO_TEXT","message":"x"}\n`);
  const { extract, readings } = counting();
  expect((await storedPdfs(path, { extract }))!.documents[0]!.text?.text).toBe("versioned");
  expect(readings()).toBe(1);
  expect(readFileSync(pdfTextPath(path), "utf8")).toStartWith(JSON.stringify({ format: "pdf-text", version: 1, documents: 1 }));
  const csv = stored("f", new TextEncoder().encode("date,amount\n2025-01-01,1\n"));
  expect((await storedPdfs(csv))!.pdf).toBe(false);
  expect(await brimPdfTexts({ filePath: csv, filename: "f.csv", anonymise: true })).toBeNull();
  expect(existsSync(pdfTextPath(csv))).toBe(false);
  expect(readdirSync(dir).filter((n) => n.endsWith(".tmp"))).toEqual([]);
});
