import { expect, test } from "bun:test";
import { join } from "node:path";
import { anonymise, runImport } from "../../host/api/brokers/import/pdf-text.cli.ts";
import { parseScalableText } from "../../plugins/broker-scalable-pdf/parse.ts";
import { parseTradeRepublicText } from "../../plugins/broker-traderepublic-pdf/parse.ts";

// `npm run cli -- import pdf-text <file.pdf> --anonymise`: the text importers read, with the owner's
// name, address, IBAN and account numbers masked, and still parsed the same way by the importers.
const PDFS = join(import.meta.dir, "..", "fixtures", "brim");

async function cli(...args: string[]): Promise<string> {
  const lines: string[] = [];
  expect(await runImport("pdf-text", args, (line) => lines.push(line))).toBe(0);
  return lines.join("\n");
}

test("the text of a PDF is printed as the importers read it", async () => {
  const text = await cli(join(PDFS, "traderepublic-pdf", "kauf-de.pdf"));
  expect(text).toContain("Erika Beispiel  SEITE  1 von 1");
  expect(text).toContain("DE02100100100006820101  14.03.2025  -543,40 EUR");
});

test("--anonymise masks the name, the address, the IBAN and account numbers, and keeps what the importer reads", async () => {
  const text = await cli(join(PDFS, "traderepublic-pdf", "kauf-de.pdf"), "--anonymise");
  for (const secret of ["Erika", "Beispiel  SEITE", "Lindenweg", "54321", "Musterort", "4711000042", "DE02100100100006820101", "10000001"]) expect(text).not.toContain(secret);
  expect(text).toContain("Xxxxx Xxxxxxxx  SEITE  1 von 1");
  expect(text).toContain("DEPOT  0000000000");
  expect(text).toContain("DE00000000000000000000  14.03.2025  -543,40 EUR");
  expect(text).toContain("ISIN: DE000BSP0012");
  expect(text).toContain("TRADE REPUBLIC BANK GMBH  BRUNNENSTRASSE 19-21  10119 BERLIN");
  const original = parseTradeRepublicText(await cli(join(PDFS, "traderepublic-pdf", "kauf-de.pdf")), "x").transactions;
  expect(parseTradeRepublicText(text, "x").transactions).toEqual(original);
});

test("--anonymise on a Baader Bank note: customer, depot and reference numbers masked, the note still parses the same", async () => {
  const raw = await cli(join(PDFS, "scalable-pdf", "verkauf.pdf"));
  const text = anonymise(raw);
  for (const secret of ["Erika", "Lindenweg", "1234567", "1234567001", "1234567002"]) expect(text).not.toContain(secret);
  expect(text).toContain("Stamm-Nr.: 0000000");
  const strip = (rows: ReturnType<typeof parseScalableText>["transactions"]) => rows.map(({ orderId: _, ...rest }) => rest);
  expect(strip(parseScalableText(text, "x").transactions)).toEqual(strip(parseScalableText(raw, "x").transactions));
});

test("a PDF without text is refused with its reason", async () => {
  await expect(runImport("pdf-text", [join(PDFS, "..", "pdf", "bad", "image-only.pdf")], () => undefined)).rejects.toThrow("PDF_NO_TEXT");
  await expect(runImport("pdf-text", [], () => undefined)).rejects.toThrow("Expected: import pdf-text");
});
