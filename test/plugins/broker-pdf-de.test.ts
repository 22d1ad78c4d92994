import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ImportedTransaction, ImportPlugin } from "../../sdk/index.ts";
import { describeFile, pdfText } from "../../sdk/import/index.ts";
import { brokerComdirectPdfPlugin } from "../../plugins/broker-comdirect-pdf/index.ts";
import { parseComdirectText } from "../../plugins/broker-comdirect-pdf/parse.ts";
import { brokerConsorsbankPdfPlugin } from "../../plugins/broker-consorsbank-pdf/index.ts";
import { parseConsorsbankText } from "../../plugins/broker-consorsbank-pdf/parse.ts";
import { brokerFlatexPdfPlugin } from "../../plugins/broker-flatex-pdf/index.ts";
import { parseFlatexText } from "../../plugins/broker-flatex-pdf/parse.ts";
import { brokerIngPdfPlugin } from "../../plugins/broker-ing-pdf/index.ts";
import { parseIngText } from "../../plugins/broker-ing-pdf/parse.ts";
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
const ingSample = await pdfSample("ing-pdf", "kauf.pdf");
runImportPluginContract(brokerComdirectPdfPlugin, { sample: { ...cdSample, foreign: scSample.file, foreignBytes: scSample.bytes } });
const csSample = await pdfSample("consorsbank-pdf", "kauf.pdf");
runImportPluginContract(brokerConsorsbankPdfPlugin, { sample: { ...csSample, foreign: ingSample.file, foreignBytes: ingSample.bytes } });
const flSample = await pdfSample("flatex-pdf", "kauf.pdf");
runImportPluginContract(brokerFlatexPdfPlugin, { sample: { ...flSample, foreign: csSample.file, foreignBytes: csSample.bytes } });
runImportPluginContract(brokerIngPdfPlugin, { sample: { ...ingSample, foreign: cdSample.file, foreignBytes: cdSample.bytes } });

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

test("comdirect Wertpapierkauf in partial executions: the quantity and price of the Zusammenfassung, Gesamtprovision and the venue fee one FEE row, summing to the charge", () => {
  const rows = cd("kauf-teilausfuehrung.txt");
  expect(rows.map(row)).toEqual([
    "BUY 2025-05-21 q=25 -10300 EUR FR00CDX00071 Exemple Luxe SA | comdirect kauf-teilausfuehrung.txt: buy 25 at 412 EUR",
    "FEE 2025-05-21 q=0 -32.15 EUR FR00CDX00071 Exemple Luxe SA | comdirect kauf-teilausfuehrung.txt",
  ]);
  expect(sum(rows)).toBe("-10332.15");
});

test("comdirect savings plan execution: a BUY tagged savings-plan with a fractional quantity and its fee", () => {
  expect(cd("sparplan.txt").map(row)).toEqual([
    "BUY 2025-04-15 q=1.8734 -150 EUR IE00CDX00036 Beispiel MSCI World UCITS ETF [savings-plan] | comdirect sparplan.txt: savings plan 1.8734 at 80.0682 EUR",
    "FEE 2025-04-15 q=0 -2.25 EUR IE00CDX00036 Beispiel MSCI World UCITS ETF | comdirect sparplan.txt",
  ]);
  expect(parseComdirectText(text("comdirect", "sparplan.txt"), "s").detectedFormat).toBe("comdirect/pdf/plan");
});

test("comdirect Dividendengutschrift in USD (Depotbestand layout): 'per' and the WKN cut from the name, paid on 'zahlbar ab', gross converted at 'zum Devisenkurs: EUR/USD', the Quellensteuer as a TAX row, summing to the credit", () => {
  const rows = cd("dividende.txt");
  expect(rows.map(row)).toEqual([
    "DIVIDEND 2025-06-12 q=0 40 EUR US00CDX00042 Sample Software Corp. | comdirect dividende.txt: dividend on 60; 45 USD at 1.125 USD/EUR",
    "TAX 2025-06-12 q=0 -6 EUR US00CDX00042 Sample Software Corp. | comdirect dividende.txt: withholding tax",
  ]);
  expect(String(rows[0]!.assetCurrency)).toBe("USD");
  expect(sum(rows)).toBe("34.00");
});

test("comdirect Dividendengutschrift in EUR with Quellensteuer: the gross, thousands in the STK quantity, the foreign tax kept as a TAX row", () => {
  const rows = cd("dividende-eur-quellensteuer.txt");
  expect(rows.map(row)).toEqual([
    "DIVIDEND 2025-05-15 q=0 360 EUR NL00CDX00063 Voorbeeld Bank N.V. | comdirect dividende-eur-quellensteuer.txt: dividend on 1500",
    "TAX 2025-05-15 q=0 -54 EUR NL00CDX00063 Voorbeeld Bank N.V. | comdirect dividende-eur-quellensteuer.txt: withholding tax",
  ]);
  expect(String(rows[0]!.assetCurrency)).toBe("EUR");
  expect(sum(rows)).toBe("306.00");
});

test("comdirect Ertragsgutschrift in EUR without withholding: one DIVIDEND row on the payment day", () => {
  expect(cd("ertrag.txt").map(row)).toEqual([
    "DIVIDEND 2025-08-20 q=0 49.2 EUR DE000CDX0052 Beispiel Dividenden Fonds LD | comdirect ertrag.txt: dividend on 120",
  ]);
});

test("comdirect: each generated PDF parses to the rows of its text extract; another broker's document is refused", async () => {
  const plugin = (await brokerComdirectPdfPlugin.create({} as never)) as ImportPlugin;
  await samePdfRows(plugin, "comdirect-pdf", "comdirect", parseComdirectText, ["kauf", "kauf-teilausfuehrung", "verkauf", "sparplan", "dividende", "dividende-eur-quellensteuer", "ertrag"]);
  expect(plugin.accepts(scSample.file)).toBe(0);
  expect(() => parseComdirectText(text("scalable", "kauf.txt"), "kauf.pdf")).toThrow("kauf.pdf: not a comdirect document");
  const sc = (await brokerScalablePdfPlugin.create({} as never)) as ImportPlugin;
  expect(sc.accepts(cdSample.file)).toBe(0);
});

const ing = (name: string) => parseIngText(text("ing", name), name).transactions;

test("ING Wertpapierabrechnung Kauf: execution day, ISIN from 'ISIN (WKN)', the first name line, order number; commission and venue fee one FEE row", () => {
  const rows = ing("kauf.txt");
  expect(rows.map(row)).toEqual([
    "BUY 2025-02-11 q=35 -2142 EUR DE000ING0019 Beispiel Logistik AG | ING kauf.txt: buy 35 at 61.2 EUR",
    "FEE 2025-02-11 q=0 -11.3 EUR DE000ING0019 Beispiel Logistik AG | ING kauf.txt",
  ]);
  expect(rows[0]!.orderId).toBe("ing:11223344.001");
  expect(sum(rows)).toBe("-2153.30"); // Endbetrag zu Ihren Lasten
});

test("ING Wertpapierabrechnung Verkauf: capital gains tax and solidarity surcharge one TAX row, rows sum to the Endbetrag", () => {
  const rows = ing("verkauf.txt");
  expect(rows.map(row)).toEqual([
    "SELL 2025-09-24 q=-35 2450 EUR DE000ING0019 Beispiel Logistik AG | ING verkauf.txt: sell 35 at 70 EUR",
    "FEE 2025-09-24 q=0 -9.8 EUR DE000ING0019 Beispiel Logistik AG | ING verkauf.txt",
    "TAX 2025-09-24 q=0 -78.71 EUR DE000ING0019 Beispiel Logistik AG | ING verkauf.txt: taxes withheld",
  ]);
  expect(sum(rows)).toBe("2361.49");
});

test("ING Kauf aus Sparplan: a BUY tagged savings-plan without costs", () => {
  expect(ing("sparplan.txt").map(row)).toEqual([
    "BUY 2025-07-01 q=2.0461 -200 EUR IE00ING00026 Beispiel Welt Aktien UCITS ETF [savings-plan] | ING sparplan.txt: savings plan 2.0461 at 97.7469 EUR",
  ]);
  expect(parseIngText(text("ing", "sparplan.txt"), "s").detectedFormat).toBe("ing/pdf/plan");
});

test("ING Dividendengutschrift in USD (QuSt before the conversion, as ING prints it): the gross in EUR is the USD gross at the 'Umg. z. Dev.-Kurs' rate, not the converted Zwischensumme; QuSt and domestic taxes one TAX row summing to the Gesamtbetrag", () => {
  const rows = ing("dividende.txt");
  expect(rows.map(row)).toEqual([
    "DIVIDEND 2025-06-16 q=0 40 EUR US00ING00034 Sample Food Corp. | ING dividende.txt: dividend on 80; 44 USD at 1.1 USD/EUR",
    "TAX 2025-06-16 q=0 -10.22 EUR US00ING00034 Sample Food Corp. | ING dividende.txt: taxes withheld",
  ]);
  expect(String(rows[0]!.assetCurrency)).toBe("USD");
  expect(sum(rows)).toBe("29.78");
});

test("ING Ertragsgutschrift in EUR without a Zahltag: the Valuta day, taxes one TAX row", () => {
  const rows = ing("ertrag.txt");
  expect(rows.map(row)).toEqual([
    "DIVIDEND 2025-10-15 q=0 45 EUR DE000ING0043 Beispiel Rentenfonds | ING ertrag.txt: dividend on 150",
    "TAX 2025-10-15 q=0 -8.31 EUR DE000ING0043 Beispiel Rentenfonds | ING ertrag.txt: taxes withheld",
  ]);
  expect(sum(rows)).toBe("36.69");
});

test("ING: each generated PDF parses to the rows of its text extract; comdirect's and ING's importers refuse each other's documents", async () => {
  const plugin = (await brokerIngPdfPlugin.create({} as never)) as ImportPlugin;
  await samePdfRows(plugin, "ing-pdf", "ing", parseIngText, ["kauf", "verkauf", "sparplan", "dividende", "ertrag"]);
  expect(plugin.accepts(cdSample.file)).toBe(0);
  const comdirect = (await brokerComdirectPdfPlugin.create({} as never)) as ImportPlugin;
  expect(comdirect.accepts(ingSample.file)).toBe(0);
  expect(() => parseIngText(text("comdirect", "kauf.txt"), "kauf.pdf")).toThrow("kauf.pdf: not an ING (ING-DiBa) document");
  expect(() => parseComdirectText(text("ing", "kauf.txt"), "kauf.pdf")).toThrow("not a comdirect document");
});

const cs = (name: string) => parseConsorsbankText(text("consorsbank", name), name).transactions;

test("Consorsbank KAUF: the day of 'KAUF AM', name, WKN and ISIN from one line, ST quantity, price per share; Provision and Handelsentgelt one FEE row", () => {
  const rows = cs("kauf.txt");
  expect(rows.map(row)).toEqual([
    "BUY 2025-03-04 q=25 -2210 EUR DE000CSB0011 BEISPIEL CHEMIE AG NAMENS-AKTIEN O.N. | Consorsbank kauf.txt: buy 25 at 88.4 EUR",
    "FEE 2025-03-04 q=0 -11.7 EUR DE000CSB0011 BEISPIEL CHEMIE AG NAMENS-AKTIEN O.N. | Consorsbank kauf.txt",
  ]);
  expect(rows[0]!.orderId).toBe("consorsbank:55667788.001");
  expect(sum(rows)).toBe("-2221.70"); // Wert … EUR
});

test("Consorsbank VERKAUF: capital gains tax, solidarity surcharge and church tax one TAX row, rows sum to the credit", () => {
  const rows = cs("verkauf.txt");
  expect(rows.map(row)).toEqual([
    "SELL 2025-11-18 q=-25 2600 EUR DE000CSB0011 BEISPIEL CHEMIE AG NAMENS-AKTIEN O.N. | Consorsbank verkauf.txt: sell 25 at 104 EUR",
    "FEE 2025-11-18 q=0 -9.95 EUR DE000CSB0011 BEISPIEL CHEMIE AG NAMENS-AKTIEN O.N. | Consorsbank verkauf.txt",
    "TAX 2025-11-18 q=0 -104.43 EUR DE000CSB0011 BEISPIEL CHEMIE AG NAMENS-AKTIEN O.N. | Consorsbank verkauf.txt: taxes withheld",
  ]);
  expect(sum(rows)).toBe("2485.62");
});

test("Consorsbank KAUF … IN SPARPLAN: a BUY tagged savings-plan at the Preis pro Anteil, the issue fee as a FEE row", () => {
  expect(cs("sparplan.txt").map(row)).toEqual([
    "BUY 2025-05-15 q=4.36681 -100 EUR LU00CSB00028 BEISPIEL MSCI EM UCITS ETF REG. SHS USD ACC. [savings-plan] | Consorsbank sparplan.txt: savings plan 4.36681 at 22.9 EUR",
    "FEE 2025-05-15 q=0 -1.5 EUR LU00CSB00028 BEISPIEL MSCI EM UCITS ETF REG. SHS USD ACC. | Consorsbank sparplan.txt",
  ]);
  expect(parseConsorsbankText(text("consorsbank", "sparplan.txt"), "s").detectedFormat).toBe("consorsbank/pdf/plan");
});

test("Consorsbank Dividendengutschrift in USD: 'Brutto in EUR' on the Zahltag with the Devisenkurs noted, Quellensteuer and domestic taxes one TAX row", () => {
  const rows = cs("dividende.txt");
  expect(rows.map(row)).toEqual([
    "DIVIDEND 2025-08-14 q=0 32 EUR US00CSB00037 SAMPLE RAILWAYS INC. REGISTERED SHARES DL 1 | Consorsbank dividende.txt: dividend on 50; 40 USD at 1.25 USD/EUR",
    "TAX 2025-08-14 q=0 -8.17 EUR US00CSB00037 SAMPLE RAILWAYS INC. REGISTERED SHARES DL 1 | Consorsbank dividende.txt: taxes withheld",
  ]);
  expect(String(rows[0]!.assetCurrency)).toBe("USD");
  expect(sum(rows)).toBe("23.83"); // Netto zugunsten
});

test("Consorsbank Dividendengutschrift of the 2025 layout (figures above their labels, Bestand above the quantity, no Zahltag): 'Brutto in EUR' on the Valuta day, the Quellensteuer a TAX row summing to the credit", () => {
  const rows = cs("dividende-2025.txt");
  expect(rows.map(row)).toEqual([
    "DIVIDEND 2025-06-26 q=0 64.14 EUR US00CSB00052 SAMPLE CHIPS INC. Registered Shares DL -,001 | Consorsbank dividende-2025.txt: dividend on 120; 74.4 USD at 1.16 USD/EUR",
    "TAX 2025-06-26 q=0 -9.62 EUR US00CSB00052 SAMPLE CHIPS INC. Registered Shares DL -,001 | Consorsbank dividende-2025.txt: taxes withheld",
  ]);
  expect(String(rows[0]!.assetCurrency)).toBe("USD");
  expect(sum(rows)).toBe("54.52"); // Netto zugunsten
});

test("Consorsbank fund savings plan in USD (ORDERABRECHNUNG, 'Sparplanname:'): a BUY tagged savings-plan at the euro value of the Nettoinventarwert, the Ausgabegebühr a FEE row", () => {
  const rows = cs("sparplan-fonds-usd.txt");
  expect(rows.map(row)).toEqual([
    "BUY 2025-10-15 q=0.54243 -146.34 EUR LU00CSB00068 BEISPIEL-GL EQ.A-DL [savings-plan] | Consorsbank sparplan-fonds-usd.txt: savings plan 0.54243 at 310.25 USD",
    "FEE 2025-10-15 q=0 -3.66 EUR LU00CSB00068 BEISPIEL-GL EQ.A-DL | Consorsbank sparplan-fonds-usd.txt",
  ]);
  expect(String(rows[0]!.assetCurrency)).toBe("USD");
  expect(rows[0]!.orderId).toBe("consorsbank:55667799.001");
  expect(sum(rows)).toBe("-150.00"); // Wert … EUR 150,00
});

test("Consorsbank Ertragsgutschrift in EUR without taxes: one DIVIDEND row", () => {
  expect(cs("ertrag.txt").map(row)).toEqual([
    "DIVIDEND 2025-11-03 q=0 50 EUR DE000CSB0045 BEISPIEL EURO RENTEN FONDS INHABER-ANTEILE A | Consorsbank ertrag.txt: dividend on 200",
  ]);
});

test("Consorsbank: each generated PDF parses to the rows of its text extract; the other German importers refuse its documents and it refuses theirs", async () => {
  const plugin = (await brokerConsorsbankPdfPlugin.create({} as never)) as ImportPlugin;
  await samePdfRows(plugin, "consorsbank-pdf", "consorsbank", parseConsorsbankText, ["kauf", "verkauf", "sparplan", "sparplan-fonds-usd", "dividende", "dividende-2025", "ertrag"]);
  for (const other of [cdSample, ingSample, scSample]) expect(plugin.accepts(other.file)).toBe(0);
  for (const other of [brokerComdirectPdfPlugin, brokerIngPdfPlugin]) expect(((await other.create({} as never)) as ImportPlugin).accepts(csSample.file)).toBe(0);
  expect(() => parseConsorsbankText(text("ing", "kauf.txt"), "kauf.pdf")).toThrow("kauf.pdf: not a Consorsbank document");
});

const fl = (name: string) => parseFlatexText(text("flatex", name), name).transactions;

test("flatex Wertpapierabrechnung Kauf: two-column 'label : value' cells; Schlusstag, ISIN and WKN from the position, Provision and Fremde Spesen one FEE row", () => {
  const rows = fl("kauf.txt");
  expect(rows.map(row)).toEqual([
    "BUY 2025-01-21 q=60 -1470 EUR DE000FLX0012 BEISPIEL ENERGIE AG INH. O.N. | flatex kauf.txt: buy 60 at 24.5 EUR",
    "FEE 2025-01-21 q=0 -6.61 EUR DE000FLX0012 BEISPIEL ENERGIE AG INH. O.N. | flatex kauf.txt",
  ]);
  expect(rows[0]!.orderId).toBe("flatex:123456781/1");
  expect(sum(rows)).toBe("-1476.61"); // Endbetrag
});

test("flatex Verkauf: the taxes withheld (Einbeh. Steuer) as a TAX row, rows sum to the Endbetrag", () => {
  const rows = fl("verkauf.txt");
  expect(rows.map(row)).toEqual([
    "SELL 2025-08-05 q=-60 1830 EUR DE000FLX0012 BEISPIEL ENERGIE AG INH. O.N. | flatex verkauf.txt: sell 60 at 30.5 EUR",
    "FEE 2025-08-05 q=0 -5.9 EUR DE000FLX0012 BEISPIEL ENERGIE AG INH. O.N. | flatex verkauf.txt",
    "TAX 2025-08-05 q=0 -94.9 EUR DE000FLX0012 BEISPIEL ENERGIE AG INH. O.N. | flatex verkauf.txt: taxes withheld",
  ]);
  expect(sum(rows)).toBe("1729.20");
});

test("flatex Kauf aus Sparplan: a BUY tagged savings-plan with a fractional quantity and no fee row for zero costs", () => {
  expect(fl("sparplan.txt").map(row)).toEqual([
    "BUY 2025-03-03 q=1.245638 -125 EUR IE00FLX00026 BEISPIEL GLOBAL UCITS ETF [savings-plan] | flatex sparplan.txt: savings plan 1.245638 at 100.35 EUR",
  ]);
  expect(parseFlatexText(text("flatex", "sparplan.txt"), "s").detectedFormat).toBe("flatex/pdf/plan");
});

test("flatex Dividendengutschrift in USD: gross in EUR is the credit plus the taxes withheld, Devisenkurs noted, on the Valuta day", () => {
  const rows = fl("dividende.txt");
  expect(rows.map(row)).toEqual([
    "DIVIDEND 2025-09-10 q=0 30 EUR US00FLX00034 SAMPLE PHARMA INC. REG. SHS | flatex dividende.txt: dividend on 120; 36 USD at 1.2 USD/EUR",
    "TAX 2025-09-10 q=0 -8.1 EUR US00FLX00034 SAMPLE PHARMA INC. REG. SHS | flatex dividende.txt: taxes withheld",
  ]);
  expect(String(rows[0]!.assetCurrency)).toBe("USD");
  expect(sum(rows)).toBe("21.90");
});

test("flatex Ertragsmitteilung of a distributing fund in EUR without taxes: one DIVIDEND row", () => {
  expect(fl("ertrag.txt").map(row)).toEqual([
    "DIVIDEND 2025-12-15 q=0 45 EUR IE00FLX00042 BEISPIEL EUROPA DIVIDENDE ETF | flatex ertrag.txt: dividend on 300",
  ]);
});

test("flatex: each generated PDF parses to the rows of its text extract; the other German importers refuse its documents and it refuses theirs", async () => {
  const plugin = (await brokerFlatexPdfPlugin.create({} as never)) as ImportPlugin;
  await samePdfRows(plugin, "flatex-pdf", "flatex", parseFlatexText, ["kauf", "verkauf", "sparplan", "dividende", "ertrag"]);
  for (const other of [cdSample, ingSample, csSample, scSample]) expect(plugin.accepts(other.file)).toBe(0);
  for (const other of [brokerComdirectPdfPlugin, brokerIngPdfPlugin, brokerConsorsbankPdfPlugin]) expect(((await other.create({} as never)) as ImportPlugin).accepts(flSample.file)).toBe(0);
  expect(() => parseFlatexText(text("consorsbank", "kauf.txt"), "kauf.pdf")).toThrow("kauf.pdf: not a flatex / flatexDEGIRO document");
  const two = text("flatex", "kauf.txt").replace(/^(Nr\.123456781.*)$/m, "$1\nNr.123456789/1  Kauf  OTHER AG (DE000FLX0099/FLX009)");
  expect(() => parseFlatexText(two, "sammel.pdf")).toThrow("sammel.pdf: a collective statement (Sammelabrechnung) of 2 orders is not read");
});

test("a flatex cancellation (Storno Wertpapierabrechnung) is claimed by its importer and refused, never read as a trade", async () => {
  expect(() => parseFlatexText(text("flatex", "storno-kauf.txt"), "storno.pdf"))
    .toThrow("storno.pdf: a cancellation (Storno) of an earlier document is not imported; leave out or delete the transactions of the document it cancels");
  const plugin = (await brokerFlatexPdfPlugin.create({} as never)) as ImportPlugin;
  const storno = await pdfSample("flatex-pdf", "storno-kauf.pdf");
  expect(plugin.accepts(storno.file)).toBeGreaterThanOrEqual(0.9);
  await expect(plugin.parse(storno)).rejects.toThrow("storno-kauf.pdf: a cancellation (Storno)");
  // The other German importers refuse it too, should their titles ever match a cancellation.
  for (const [parse, broker] of [[parseComdirectText, "comdirect"], [parseIngText, "ing"], [parseConsorsbankText, "consorsbank"]] as const) {
    const note = text(broker, "kauf.txt").split("\n");
    const at = note.findIndex((l) => /^(Wertpapierkauf|Wertpapierabrechnung Kauf|KAUF AM)/i.test(l));
    note.splice(at + 1, 0, "Stornierung");
    expect(() => parse(note.join("\n"), "x.pdf")).toThrow("x.pdf: a cancellation (Storno)");
  }
});
