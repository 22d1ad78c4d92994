import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ImportedTransaction, ImportPlugin } from "../../sdk/index.ts";
import { describeFile, pdfText } from "../../sdk/import/index.ts";
import { brokerComdirectPdfPlugin } from "../../plugins/broker-comdirect-pdf/index.ts";
import { parseComdirectText } from "../../plugins/broker-comdirect-pdf/parse.ts";
import { brokerScalablePdfPlugin } from "../../plugins/broker-scalable-pdf/index.ts";
import { Decimal } from "../../sdk/index.ts";
import { runImportPluginContract } from "../../sdk/testing/index.ts";

// The PDF importers of German banks and brokers, each document type with every field pinned: the text
// extracts of test/fixtures/pdf/<broker>/ (invented values in the banks' layouts) and the PDFs
// generated from them (test/fixtures/brim/<broker>-pdf/), which must give the same rows through pdfText.
const FIXTURES = join(import.meta.dir, "..", "fixtures");
const text = (broker: string, name: string) => readFileSync(join(FIXTURES, "pdf", broker, name), "utf8");

/** A row as `type date quantity amount currency isin name [tags] | description`. */
function row(tx: ImportedTransaction): string {
  return [tx.type, tx.date, `q=${new Decimal(tx.quantity ?? "0").toFixed()}`, `${new Decimal(tx.cash!.amount).toFixed()} ${tx.cash!.currency}`, tx.isin ?? "-",
    tx.assetName ?? "-", ...(tx.tags ? [`[${tx.tags.join(",")}]`] : []), `| ${tx.description}`].join(" ");
}
const sum = (rows: readonly ImportedTransaction[]) => rows.reduce((acc, r) => acc.plus(r.cash!.amount), new Decimal(0)).toFixed(2);

async function pdfSample(dir: string, name: string) {
  const bytes = new Uint8Array(readFileSync(join(FIXTURES, "brim", dir, name)));
  return { bytes, file: { ...describeFile(bytes, name), head: (await pdfText(bytes)).text.slice(0, 4096) } };
}
const scSample = await pdfSample("scalable-pdf", "kauf.pdf");
const cdSample = await pdfSample("comdirect-pdf", "kauf.pdf");
runImportPluginContract(brokerComdirectPdfPlugin, { sample: { ...cdSample, foreign: scSample.file, foreignBytes: scSample.bytes } });

/** Each text extract's PDF, through the plugin: claimed surely, and the same rows as the extract. */
async function samePdfRows(plugin: ImportPlugin, dir: string, broker: string, parse: (text: string, name: string) => { transactions: readonly ImportedTransaction[] }, names: string[]) {
  for (const name of names) {
    const { bytes, file } = await pdfSample(dir, `${name}.pdf`);
    expect(plugin.accepts(file)).toBeGreaterThanOrEqual(0.9);
    const result = await plugin.parse({ bytes, file });
    expect(result.transactions.map(row)).toEqual(parse(text(broker, `${name}.txt`), `${name}.pdf`).transactions.map(row));
  }
}

const cd = (name: string) => parseComdirectText(text("comdirect", name), name).transactions;

test("comdirect Wertpapierkauf: trade day (Geschäftstag), name without its WKN, ISIN, price; commission and venue fee one FEE row, 'Summe Entgelte' not counted twice", () => {
  const rows = cd("kauf.txt");
  expect(rows.map(row)).toEqual([
    "BUY 2025-03-17 q=40 -2094 EUR DE000CDX0011 Beispiel Industrie AG | comdirect kauf.txt: buy 40 at 52.35 EUR",
    "FEE 2025-03-17 q=0 -11.4 EUR DE000CDX0011 Beispiel Industrie AG | comdirect kauf.txt",
  ]);
  expect(sum(rows)).toBe("-2105.40"); // Zu Ihren Lasten vor Steuern
  expect(parseComdirectText(text("comdirect", "kauf.txt"), "k").detectedFormat).toBe("comdirect/pdf/trade");
});

test("comdirect Wertpapierverkauf: thousands in the quantity, a SELL at the gross and its FEE, summing to the credit before taxes", () => {
  const rows = cd("verkauf.txt");
  expect(rows.map(row)).toEqual([
    "SELL 2025-07-08 q=-1200 9750 EUR DE000CDX0029 Muster Versorger SE | comdirect verkauf.txt: sell 1200 at 8.125 EUR",
    "FEE 2025-07-08 q=0 -24.38 EUR DE000CDX0029 Muster Versorger SE | comdirect verkauf.txt",
  ]);
  expect(sum(rows)).toBe("9725.62");
});

test("comdirect savings plan execution: a BUY tagged savings-plan with a fractional quantity and its fee", () => {
  expect(cd("sparplan.txt").map(row)).toEqual([
    "BUY 2025-04-15 q=1.8734 -150 EUR IE00CDX00036 Beispiel MSCI World UCITS ETF [savings-plan] | comdirect sparplan.txt: savings plan 1.8734 at 80.0682 EUR",
    "FEE 2025-04-15 q=0 -2.25 EUR IE00CDX00036 Beispiel MSCI World UCITS ETF | comdirect sparplan.txt",
  ]);
  expect(parseComdirectText(text("comdirect", "sparplan.txt"), "s").detectedFormat).toBe("comdirect/pdf/plan");
});

test("comdirect Dividendengutschrift in USD: gross converted at the Devisenkurs, the Quellensteuer as a TAX row, summing to the credit", () => {
  const rows = cd("dividende.txt");
  expect(rows.map(row)).toEqual([
    "DIVIDEND 2025-06-12 q=0 40 EUR US00CDX00042 Sample Software Corp. | comdirect dividende.txt: dividend on 60; 45 USD at 1.125 USD/EUR",
    "TAX 2025-06-12 q=0 -6 EUR US00CDX00042 Sample Software Corp. | comdirect dividende.txt: withholding tax",
  ]);
  expect(String(rows[0]!.assetCurrency)).toBe("USD");
  expect(sum(rows)).toBe("34.00");
});

test("comdirect Ertragsgutschrift in EUR without withholding: one DIVIDEND row on the payment day", () => {
  expect(cd("ertrag.txt").map(row)).toEqual([
    "DIVIDEND 2025-08-20 q=0 49.2 EUR DE000CDX0052 Beispiel Dividenden Fonds LD | comdirect ertrag.txt: dividend on 120",
  ]);
});

test("comdirect: each generated PDF parses to the rows of its text extract; another broker's document is refused", async () => {
  const plugin = (await brokerComdirectPdfPlugin.create({} as never)) as ImportPlugin;
  await samePdfRows(plugin, "comdirect-pdf", "comdirect", parseComdirectText, ["kauf", "verkauf", "sparplan", "dividende", "ertrag"]);
  expect(plugin.accepts(scSample.file)).toBe(0);
  expect(() => parseComdirectText(text("scalable", "kauf.txt"), "kauf.pdf")).toThrow("kauf.pdf: not a comdirect document");
  const sc = (await brokerScalablePdfPlugin.create({} as never)) as ImportPlugin;
  expect(sc.accepts(cdSample.file)).toBe(0);
});
