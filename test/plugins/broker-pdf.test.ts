import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ImportedTransaction, ImportPlugin } from "../../sdk/index.ts";
import { describeFile, pdfErrorCode, pdfText } from "../../sdk/import/index.ts";
import { brokerScalablePdfPlugin } from "../../plugins/broker-scalable-pdf/index.ts";
import { parseScalableText } from "../../plugins/broker-scalable-pdf/parse.ts";
import { brokerTraderepublicPdfPlugin } from "../../plugins/broker-traderepublic-pdf/index.ts";
import { parseTradeRepublicText } from "../../plugins/broker-traderepublic-pdf/parse.ts";
import { Decimal } from "../../sdk/index.ts";
import { runImportPluginContract } from "../../sdk/testing/index.ts";

// Each document type of the PDF importers, every field pinned: the text extracts of
// test/fixtures/pdf/<broker>/ (invented values in the brokers' layouts) and the PDFs generated from
// them (test/fixtures/brim/<broker>-pdf/), which must give the same rows through pdfText.
const FIXTURES = join(import.meta.dir, "..", "fixtures");
const text = (broker: string, name: string) => readFileSync(join(FIXTURES, "pdf", broker, name), "utf8");

/** A row as `type date quantity amount currency isin name [tags] | description`. */
function row(tx: ImportedTransaction): string {
  return [tx.type, tx.date, `q=${new Decimal(tx.quantity ?? "0").toFixed()}`, `${new Decimal(tx.cash!.amount).toFixed()} ${tx.cash!.currency}`, tx.isin ?? "-",
    tx.assetName ?? "-", ...(tx.tags ? [`[${tx.tags.join(",")}]`] : []), `| ${tx.description}`].join(" ");
}
const tr = (name: string) => parseTradeRepublicText(text("traderepublic", name), name).transactions.map(row);
const sc = (name: string) => parseScalableText(text("scalable", name), name).transactions.map(row);
async function pdfSample(dir: string, name: string) {
  const bytes = new Uint8Array(readFileSync(join(FIXTURES, "brim", dir, name)));
  return { bytes, file: { ...describeFile(bytes, name), head: (await pdfText(bytes)).text.slice(0, 4096) } };
}
const trSample = await pdfSample("traderepublic-pdf", "kauf-de.pdf");
const scSample = await pdfSample("scalable-pdf", "kauf.pdf");
runImportPluginContract(brokerTraderepublicPdfPlugin, { sample: { ...trSample, foreign: scSample.file, foreignBytes: scSample.bytes } });
runImportPluginContract(brokerScalablePdfPlugin, { sample: { ...scSample, foreign: trSample.file, foreignBytes: trSample.bytes } });

const sum = (rows: readonly ImportedTransaction[]) => rows.reduce((acc, r) => acc.plus(r.cash!.amount), new Decimal(0)).toFixed(2);

test("Trade Republic Wertpapierabrechnung (German buy): gross, execution day, ISIN, quantity, price and the surcharge as a FEE", () => {
  expect(tr("kauf-de.txt")).toEqual([
    "BUY 2025-03-12 q=12 -542.4 EUR DE000BSP0012 Beispiel Werke AG | Trade Republic kauf-de.txt: buy 12 at 45.2 EUR",
    "FEE 2025-03-12 q=0 -1 EUR DE000BSP0012 Beispiel Werke AG | Trade Republic kauf-de.txt",
  ]);
  const result = parseTradeRepublicText(text("traderepublic", "kauf-de.txt"), "kauf-de.txt");
  expect(result.detectedFormat).toBe("traderepublic/pdf/trade");
  expect(result.transactions[0]!.orderId).toBe("tr:a1b2-c3d4");
  expect(sum(result.transactions)).toBe("-543.40"); // the amount booked
});

test("Trade Republic sell: thousands in the quantity, capital gains tax and solidarity surcharge as one TAX row", () => {
  expect(tr("verkauf-de.txt")).toEqual([
    "SELL 2025-06-20 q=-1250 3885 EUR DE000MST0B47 Musterbau SE | Trade Republic verkauf-de.txt: sell 1250 at 3.108 EUR",
    "FEE 2025-06-20 q=0 -1 EUR DE000MST0B47 Musterbau SE | Trade Republic verkauf-de.txt",
    "TAX 2025-06-20 q=0 -55.65 EUR DE000MST0B47 Musterbau SE | Trade Republic verkauf-de.txt",
  ]);
  expect(sum(parseTradeRepublicText(text("traderepublic", "verkauf-de.txt"), "x").transactions)).toBe("3828.35");
});

test("Trade Republic savings plan execution: a BUY tagged savings-plan on the execution day, fractional quantity, no fee", () => {
  expect(tr("sparplan-de.txt")).toEqual([
    "BUY 2025-02-03 q=0.912345 -100 EUR IE00BSPL0001 Global Index ETF USD (Acc) [savings-plan] | Trade Republic sparplan-de.txt: savings plan 0.912345 at 109.61 EUR",
  ]);
});

test("Trade Republic securities settlement in English: decimal points, Pcs., external cost surcharge", () => {
  expect(tr("buy-en.txt")).toEqual([
    "BUY 2025-04-07 q=3.5 -736.4 EUR US00EXR00019 Example Robotics Inc. | Trade Republic buy-en.txt: buy 3.5 at 210.4 EUR",
    "FEE 2025-04-07 q=0 -1 EUR US00EXR00019 Example Robotics Inc. | Trade Republic buy-en.txt",
  ]);
});

test("Trade Republic Dividende in USD: gross in EUR on the payment day, withholding tax converted at the document's rate, all taxes one TAX row", () => {
  expect(tr("dividende-de.txt")).toEqual([
    "DIVIDEND 2025-05-15 q=0 20 EUR US00SMPU0017 Sample Utilities Corp. | Trade Republic dividende-de.txt: dividend on 40; 22 USD at 1.1 USD/EUR",
    "TAX 2025-05-15 q=0 -4.79 EUR US00SMPU0017 Sample Utilities Corp. | Trade Republic dividende-de.txt: taxes withheld",
  ]);
  expect(sum(parseTradeRepublicText(text("traderepublic", "dividende-de.txt"), "x").transactions)).toBe("15.21");
});

test("Trade Republic Dividende of the 2026 layout: the first page's decimal points are read as such although the tax page writes commas; gross before the quantity (Stücke), the ISIN alone, the withholding tax converted, taxes one TAX row", () => {
  const rows = parseTradeRepublicText(text("traderepublic", "dividende-2026-de.txt"), "dividende-2026-de.txt").transactions;
  expect(rows.map(row)).toEqual([
    "DIVIDEND 2026-05-29 q=0 8.2 EUR US00BSPC0019 Beispiel Capital Corp. | Trade Republic dividende-2026-de.txt: dividend on 52.318204; 9.42 USD at 1.15 USD/EUR",
    "TAX 2026-05-29 q=0 -2.1 EUR US00BSPC0019 Beispiel Capital Corp. | Trade Republic dividende-2026-de.txt: taxes withheld",
  ]);
  expect(String(rows[0]!.assetCurrency)).toBe("USD");
  expect(sum(rows)).toBe("6.10"); // the booking
});

test("Trade Republic cash dividend in English: the ISIN on its own line, withholding tax converted", () => {
  expect(tr("dividend-en.txt")).toEqual([
    "DIVIDEND 2025-07-01 q=0 8 EUR US00EXRT0018 Example Realty Trust | Trade Republic dividend-en.txt: dividend on 25; 10 USD at 1.25 USD/EUR",
    "TAX 2025-07-01 q=0 -1.2 EUR US00EXRT0018 Example Realty Trust | Trade Republic dividend-en.txt: taxes withheld",
  ]);
});

test("Trade Republic Zinsabrechnung: interest gross on the booking day with its taxes", () => {
  expect(tr("zinsen-de.txt")).toEqual([
    "INTEREST 2025-08-01 q=0 12.4 EUR - - | Trade Republic zinsen-de.txt: interest",
    "TAX 2025-08-01 q=0 -3.27 EUR - - | Trade Republic zinsen-de.txt: taxes withheld",
  ]);
});

test("Scalable Capital Wertpapierabrechnung Kauf: trade day from the execution details, commission as a FEE", () => {
  expect(sc("kauf.txt")).toEqual([
    "BUY 2025-05-14 q=8 -785 EUR IE00SCAL0015 Beispiel World UCITS ETF | Scalable Capital kauf.txt: buy 8 at 98.125 EUR",
    "FEE 2025-05-14 q=0 -0.99 EUR IE00SCAL0015 Beispiel World UCITS ETF | Scalable Capital kauf.txt",
  ]);
  expect(parseScalableText(text("scalable", "kauf.txt"), "k").transactions[0]!.orderId).toBe("scalable:500000001");
});

test("Scalable Capital Verkauf: taxes of the first page only (the second repeats the computation), rows sum to the credit", () => {
  const rows = parseScalableText(text("scalable", "verkauf.txt"), "verkauf.txt").transactions;
  expect(rows.map(row)).toEqual([
    "SELL 2025-09-01 q=-1500 18600 EUR DE000SCA0026 Muster Chemie AG | Scalable Capital verkauf.txt: sell 1500 at 12.4 EUR",
    "FEE 2025-09-01 q=0 -0.99 EUR DE000SCA0026 Muster Chemie AG | Scalable Capital verkauf.txt",
    "TAX 2025-09-01 q=0 -158.25 EUR DE000SCA0026 Muster Chemie AG | Scalable Capital verkauf.txt: taxes withheld",
  ]);
  expect(sum(rows)).toBe("18440.76");
});

test("Scalable Capital savings plan: a BUY tagged savings-plan", () => {
  expect(sc("sparplan.txt")).toEqual([
    "BUY 2025-06-02 q=2.548 -250.01 EUR IE00SCAL0015 Beispiel World UCITS ETF [savings-plan] | Scalable Capital sparplan.txt: savings plan 2.548 at 98.12 EUR",
  ]);
});

test("Scalable Capital Dividendenabrechnung in USD: payment day, gross in EUR with the rate noted, withholding and domestic taxes", () => {
  expect(sc("dividende.txt")).toEqual([
    "DIVIDEND 2025-06-10 q=0 12.5 EUR US00SCAD0039 Sample Beverages Inc. | Scalable Capital dividende.txt: dividend on 30; 15 USD at 1.2 USD/EUR",
    "TAX 2025-06-10 q=0 -3.19 EUR US00SCAD0039 Sample Beverages Inc. | Scalable Capital dividende.txt: taxes withheld",
  ]);
});

async function throughPdf(plugin: ImportPlugin, dir: string, name: string) {
  const bytes = new Uint8Array(readFileSync(join(FIXTURES, "brim", dir, name)));
  const file = { ...describeFile(bytes, name), head: (await pdfText(bytes)).text.slice(0, 4096) };
  return { confidence: plugin.accepts(file), result: await plugin.parse({ bytes, file }) };
}

test("Scalable Capital Bank Wertpapierabrechnung für Kundenauftrag (own layout, no Baader Bank): execution day, the table row's quantity, price and amount, the ISIN below it, the order id; no costs", () => {
  const result = parseScalableText(text("scalable", "kauf-2025.txt"), "kauf-2025.txt");
  expect(result.transactions.map(row)).toEqual([
    "BUY 2025-03-12 q=12 -1215 EUR IE00SCAL0023 Beispiel Welt Aktien (Acc) | Scalable Capital kauf-2025.txt: buy 12 at 101.25 EUR",
  ]);
  expect(result.transactions[0]!.orderId).toBe("scalable:SCA1B2C3D4E5F6G");
  expect(result.detectedFormat).toBe("scalable/pdf/trade");
});

test("Scalable Capital Bank Sparplanausführung: a BUY tagged savings-plan with a fractional quantity, summing to the Belastung", () => {
  const result = parseScalableText(text("scalable", "sparplan-2025.txt"), "sparplan-2025.txt");
  expect(result.transactions.map(row)).toEqual([
    "BUY 2025-06-16 q=0.732714 -50 EUR IE00SCAL0056 Beispiel Dividenden Welt (Dist) [savings-plan] | Scalable Capital sparplan-2025.txt: savings plan 0.732714 at 68.24 EUR",
  ]);
  expect(result.detectedFormat).toBe("scalable/pdf/plan");
});

test("Scalable Capital Bank Verkauf with 'Steuern +…' (taxes refunded): a SELL at the table's amount and an INTEREST row for the refund, summing to the Gutschrift; the second page's tax computation not read", () => {
  const rows = parseScalableText(text("scalable", "verkauf-2025.txt"), "verkauf-2025.txt").transactions;
  expect(rows.map(row)).toEqual([
    "SELL 2025-12-29 q=-40 6096 EUR US00SCAL0031 Muster Süßwaren | Scalable Capital verkauf-2025.txt: sell 40 at 152.4 EUR",
    "INTEREST 2025-12-29 q=0 210.45 EUR US00SCAL0031 Muster Süßwaren | Scalable Capital verkauf-2025.txt: tax refund",
  ]);
  expect(sum(rows)).toBe("6306.45");
});

test("Scalable Capital Bank Dividende in USD: the movement's EUR total as the gross on the value day, the USD / EUR rate noted, withholding and domestic taxes one TAX row summing to the Gesamtbetrag", () => {
  const rows = parseScalableText(text("scalable", "dividende-2025.txt"), "dividende-2025.txt").transactions;
  expect(rows.map(row)).toEqual([
    "DIVIDEND 2025-03-14 q=0 28.4 EUR US00SCAL0049 Sample Mortgage Corp. | Scalable Capital dividende-2025.txt: dividend on 85.5; 0.36 USD per share at 1.0838 USD/EUR",
    "TAX 2025-03-14 q=0 -7.25 EUR US00SCAL0049 Sample Mortgage Corp. | Scalable Capital dividende-2025.txt: taxes withheld",
  ]);
  expect(String(rows[0]!.assetCurrency)).toBe("USD");
  expect(sum(rows)).toBe("21.15");
});

test("Trade Republic Kontoauszug (German, two pages): interest, deposit, card payments (the merchant as description), direct debit, fee and payout imported with the sign the running balance gives; the trade and the dividend skipped with the document that carries them", () => {
  const result = parseTradeRepublicText(text("traderepublic", "kontoauszug-de.txt"), "kontoauszug-de.txt");
  expect(result.detectedFormat).toBe("traderepublic/pdf/statement");
  expect(result.transactions.map(row)).toEqual([
    "INTEREST 2025-03-01 q=0 2.4 EUR - - | Trade Republic kontoauszug-de.txt: Your interest payment",
    "DEPOSIT 2025-03-03 q=0 2000 EUR - - | Trade Republic kontoauszug-de.txt: Einzahlung akzeptiert: DE12500105170648489890 auf DE02100100100006820101",
    "WITHDRAWAL 2025-03-07 q=0 -4.8 EUR - - | Trade Republic kontoauszug-de.txt: Bäckerei Sonnenschein",
    "WITHDRAWAL 2025-03-17 q=0 -45 EUR - - | Trade Republic kontoauszug-de.txt: Sepa Direct Debit transfer to Stadtwerke Musterort",
    "FEE 2025-03-20 q=0 -5 EUR - - | Trade Republic kontoauszug-de.txt: Ersatzkarte",
    "WITHDRAWAL 2025-03-24 q=0 -37.15 EUR - - | Trade Republic kontoauszug-de.txt: Wochenmarkt Musterort Obst und Gemüse",
    "WITHDRAWAL 2025-03-28 q=0 -500 EUR - - | Trade Republic kontoauszug-de.txt: PayOut to transit",
  ]);
  expect(result.transactions.map((t) => t.row)).toEqual([9, 10, 12, 17, 19, 24, 26]);
  expect(result.skippedRows).toEqual([
    { line: 13, reason: expect.stringMatching(/^Line 13: a trade \(Handel: .*DE000BSP0012.*\) is imported from its contract note/) },
    { line: 15, reason: expect.stringMatching(/^Line 15: a dividend \(Ertrag: .*DE000BSP0038.*\) is imported from its dividend notice/) },
  ]);
  // The imported rows and the skipped ones make the statement's movement: end balance minus opening balance.
  expect(new Decimal(sum(result.transactions)).minus(543.4).plus(8.75).toFixed(2)).toBe("875.80");
});

test("Trade Republic account statement (English): amounts with the euro sign before them and decimal points, transfer in and out, card payment, referral, fee and interest; the trade skipped", () => {
  const result = parseTradeRepublicText(text("traderepublic", "account-statement-en.txt"), "account-statement-en.txt");
  expect(result.detectedFormat).toBe("traderepublic/pdf/statement");
  expect(result.transactions.map(row)).toEqual([
    "DEPOSIT 2025-09-02 q=0 1500 EUR - - | Trade Republic account-statement-en.txt: Deposit accepted: DE12500105170648489891 to DE02100100100006820102",
    "WITHDRAWAL 2025-09-10 q=0 -3.2 EUR - - | Trade Republic account-statement-en.txt: Corner Coffee Ltd",
    "DEPOSIT 2025-09-15 q=0 15.02 EUR - - | Trade Republic account-statement-en.txt: Refund for your gift",
    "FEE 2025-09-22 q=0 -5 EUR - - | Trade Republic account-statement-en.txt: Card replacement",
    "WITHDRAWAL 2025-09-26 q=0 -100 EUR - - | Trade Republic account-statement-en.txt: PayOut to transit",
    "INTEREST 2025-09-30 q=0 0.48 EUR - - | Trade Republic account-statement-en.txt: Your interest payment",
  ]);
  expect(result.skippedRows).toEqual([{ line: 11, reason: expect.stringMatching(/^Line 11: a trade \(Trade: Buy trade IE00BSP00051 .*\) is imported from its contract note/) }]);
  expect(sum(result.transactions)).toBe("1407.30"); // 395.00 end balance, the 1,012.30 trade left to its contract note
});

test("a Trade Republic statement whose rows do not add up to its printed end balance is refused naming both figures; a row whose balance does not follow is refused naming its line", () => {
  const de = text("traderepublic", "kontoauszug-de.txt");
  expect(() => parseTradeRepublicText(de.replace("1.135,35 €  2.125,80 €", "1.135,35 €  2.152,80 €"), "k.pdf"))
    .toThrow("k.pdf: the rows add up to 2125.80 EUR but the statement's end balance is 2152.80 EUR; the statement is not imported");
  // A row lost from the table (here: the fee) breaks the running balance at the row after it.
  expect(() => parseTradeRepublicText(de.replace("20 März 2025  Gebühren  Ersatzkarte  5,00 €  2.662,95 €\n", ""), "k.pdf"))
    .toThrow("k.pdf: line 23: the balance 2625.80 EUR does not follow from the balance before it (2667.95 EUR) and the amount 37.15 EUR");
  expect(() => parseTradeRepublicText(de.replace("2.011,15 €", "2.111,15 €"), "k.pdf")).toThrow("the statement prints 2111.15 EUR in");
  expect(() => parseTradeRepublicText(de.replace(/^Depotkonto.*$/m, ""), "k.pdf")).toThrow("the account overview (opening balance, money in, money out, end balance) was not found");
});

test("a Trade Republic statement row of interest that takes money out (debit interest) is a FEE row, never negative interest income", () => {
  const de = text("traderepublic", "kontoauszug-de.txt").replace("28 März 2025  Überweisung  PayOut to transit  500,00 €", "28 März 2025  Zinszahlung  Sollzinsen  500,00 €");
  const result = parseTradeRepublicText(de, "k.pdf");
  expect(result.transactions.filter((t) => t.row === 26).map(row)).toEqual(["FEE 2025-03-28 q=0 -500 EUR - - | Trade Republic k.pdf: debit interest: Sollzinsen"]);
});

test("Trade Republic Kontoauszug of the 2020–2023 layout (KONTOAUSZUG … BUCHUNGEN, two lines per booking, signed amounts, over two pages): interest, deposit, tax refund and payout imported on the booking day; the trades and the dividend skipped with the document that carries them; the end balance noted as not reconcilable", () => {
  const result = parseTradeRepublicText(text("traderepublic", "kontoauszug-2020-de.txt"), "kontoauszug-2020-de.txt");
  expect(result.detectedFormat).toBe("traderepublic/pdf/statement-2020");
  expect(result.transactions.map(row)).toEqual([
    "INTEREST 2023-03-01 q=0 1.52 EUR - - | Trade Republic kontoauszug-2020-de.txt: Your interest payment",
    "DEPOSIT 2023-03-02 q=0 750 EUR - - | Trade Republic kontoauszug-2020-de.txt: Accepted PayIn:DE12500105170648489890 to DE02100100100006820101",
    "INTEREST 2023-03-17 q=0 3.75 EUR - - | Trade Republic kontoauszug-2020-de.txt: tax refund: Steueroptimierung",
    "WITHDRAWAL 2023-03-27 q=0 -500 EUR - - | Trade Republic kontoauszug-2020-de.txt: Auszahlung an Referenzkonto",
  ]);
  expect(result.transactions.map((t) => t.row)).toEqual([11, 13, 19, 29]);
  expect(result.skippedRows).toEqual([
    { line: 15, reason: expect.stringMatching(/^Line 15: a trade \(Ausführung Handel Direktkauf Kauf DE000BSP0012 .*\) is imported from its contract note/) },
    { line: 17, reason: expect.stringMatching(/^Line 17: a dividend \(Ereignisausführung Ertrag DE000BSP0038 .*\) is imported from its dividend notice/) },
    { line: 21, reason: expect.stringMatching(/^Line 21: a trade \(Ausführung Handel Direktverkauf Verkauf IE00BSP00051 .*\) is imported from its contract note/) },
  ]);
  expect(result.warnings.find((w) => w.code === "statementUnreconciled")?.message).toContain("its end balance (1107.32 EUR on 2023-03-31)");
  // Imported and skipped rows together: the month's movement (1,107.32 end less the 120.35 before it, which the layout does not print).
  expect(new Decimal(sum(result.transactions)).minus(301.2).plus(12.4).plus(1020.5).toFixed(2)).toBe("986.97");
});

test("a Trade Republic statement of the 2020–2023 layout with a booking line cut from its amount, or without its end balance (a page missing), is refused, never imported short", () => {
  const old = text("traderepublic", "kontoauszug-2020-de.txt");
  expect(() => parseTradeRepublicText(old.replace("Auszahlung an Referenzkonto  -500,00", "Auszahlung an Referenzkonto"), "k.pdf"))
    .toThrow(`k.pdf: line 29: "27.03.2023  Auszahlung an Referenzkonto" is a booking without its amount`);
  expect(() => parseTradeRepublicText(old.replace(/^KONTOSTAND AM.*$/m, ""), "k.pdf"))
    .toThrow(`k.pdf: the statement's end balance ("KONTOSTAND AM <date>: <amount> EUR") was not found: a page may be missing`);
});

test("a booking of the 2020–2023 Trade Republic statement layout that the importer does not know is skipped with a warning naming it and its amount, never dropped silently", () => {
  const result = parseTradeRepublicText(text("traderepublic", "kontoauszug-2020-de.txt").replace("Steueroptimierung  3,75", "Kapitalmaßnahme XY  3,75"), "k.pdf");
  expect(result.transactions.map((t) => t.row)).toEqual([11, 13, 29]);
  expect(result.warnings.filter((w) => w.code === "unknownRowType")).toEqual([
    { code: "unknownRowType", message: `Line 19: a booking "Kapitalmaßnahme XY" (3.75 EUR) this importer does not read; not imported, enter it by hand if it moved cash`, row: 19, severity: "warning" },
  ]);
  expect(result.skippedRows!.map((s) => s.line)).toEqual([15, 17, 19, 21]);
});

test("Scalable Capital contract note in English (Buy): execution day, the table row's quantity (pc.), price and amount with decimal points and thousands commas, the ISIN below it, the order id; order fees a FEE row summing to the Debit", () => {
  const result = parseScalableText(text("scalable", "kauf-en.txt"), "kauf-en.txt");
  expect(result.transactions.map(row)).toEqual([
    "BUY 2025-08-12 q=15 -3186 EUR IE00SCAL0049 Example All Country Equity (Acc) | Scalable Capital kauf-en.txt: buy 15 at 212.4 EUR",
    "FEE 2025-08-12 q=0 -0.99 EUR IE00SCAL0049 Example All Country Equity (Acc) | Scalable Capital kauf-en.txt",
  ]);
  expect(result.detectedFormat).toBe("scalable/pdf/trade");
  expect(result.transactions.map((t) => t.orderId)).toEqual(["scalable:SCAEN1A2B3C4D5E", "scalable:SCAEN1A2B3C4D5E"]);
  expect(sum(result.transactions)).toBe("-3186.99"); // Debit
});

test("Scalable Capital contract note in English (Sell): a SELL at the table's amount on the execution day, equal to the Credit", () => {
  const result = parseScalableText(text("scalable", "verkauf-en.txt"), "verkauf-en.txt");
  expect(result.transactions.map(row)).toEqual([
    "SELL 2025-09-18 q=-40 3926 EUR NL00SCAL0057 Example Semiconductor Equipment NV | Scalable Capital verkauf-en.txt: sell 40 at 98.15 EUR",
  ]);
  expect(result.transactions[0]!.orderId).toBe("scalable:SCAEN9Z8Y7X6W5V");
  expect(sum(result.transactions)).toBe("3926.00"); // Credit
});

test("Scalable Capital contract note in English for a savings plan order: a BUY tagged savings-plan with a fractional quantity, equal to the Debit", () => {
  const result = parseScalableText(text("scalable", "sparplan-en.txt"), "sparplan-en.txt");
  expect(result.transactions.map(row)).toEqual([
    "BUY 2025-06-05 q=12.5 -100 EUR IE00SCAL0064 Example India Equity (Acc) [savings-plan] | Scalable Capital sparplan-en.txt: savings plan 12.5 at 8 EUR",
  ]);
  expect(result.detectedFormat).toBe("scalable/pdf/plan");
});

test("a Scalable Capital English contract note whose figures do not make its Debit is refused, never imported short", () => {
  const withUnknownCost = text("scalable", "kauf-en.txt").replace("Debit  3,186.99 EUR", "Exchange fee +1.50 EUR\nDebit  3,186.99 EUR");
  expect(() => parseScalableText(withUnknownCost, "k.pdf")).toThrow("do not make the booked 3186.99 EUR");
});

test("a Scalable Capital Bank note whose figures do not make its booking (a line the reader does not know) is refused, never imported short", () => {
  const withUnknownCost = text("scalable", "kauf-2025.txt").replace("Belastung  1.215,00 EUR", "Ordergebühr  -0,99 EUR\nBelastung  1.215,00 EUR");
  expect(() => parseScalableText(withUnknownCost, "k.pdf")).toThrow("do not make the booked 1215 EUR");
});

test("Scalable Capital Kontoauszug (own layout, two pages): interest and its taxes, transfer in, subscription fee and withdrawal imported; trades, the trade fee, the distribution with its withholding and the taxes booked on those days skipped naming their note; a zero Vorabpauschale skipped", () => {
  const result = parseScalableText(text("scalable", "kontoauszug.txt"), "kontoauszug.txt");
  expect(result.detectedFormat).toBe("scalable/pdf/statement");
  expect(result.transactions.map(row)).toEqual([
    "INTEREST 2025-10-01 q=0 4.12 EUR - - | Scalable Capital kontoauszug.txt: Erhaltene Zinsen",
    "TAX 2025-10-01 q=0 -0.05 EUR - - | Scalable Capital kontoauszug.txt: Abgezogener oder erstatteter Solidaritätszuschlag auf Kundenebene",
    "TAX 2025-10-01 q=0 -1.03 EUR - - | Scalable Capital kontoauszug.txt: Auf Kundenebene einbehaltene oder erstattete Kapitalertragssteuer",
    "DEPOSIT 2025-10-02 q=0 1500 EUR - - | Scalable Capital kontoauszug.txt: Überweisung",
    "FEE 2025-10-23 q=0 -4.99 EUR - - | Scalable Capital kontoauszug.txt: Prime-Abonnementgebühr",
    "WITHDRAWAL 2025-10-28 q=0 -400 EUR - - | Scalable Capital kontoauszug.txt: Abhebung vom Geldkonto",
  ]);
  expect(result.transactions.map((t) => t.row)).toEqual([13, 14, 15, 16, 34, 36]);
  expect(result.skippedRows!.map((s) => [s.line, s.reason.replace(/ \(.*\) /, " (…) ")])).toEqual([
    [17, "Line 17: a trade (…) is imported from its contract note (Wertpapierabrechnung); upload that beside the statement"],
    [19, "Line 19: the fee of a trade (…) is imported from its contract note (Wertpapierabrechnung); upload that beside the statement"],
    [26, "Line 26: a distribution (…) is imported from its dividend note; upload that beside the statement"],
    [28, "Line 28: the withholding tax of a distribution (…) is imported from its dividend note; upload that beside the statement"],
    [29, "Line 29: taxes (…) of the trade or distribution booked that day are imported from its note; upload that beside the statement"],
    [30, "Line 30: a trade (…) is imported from its contract note (Wertpapierabrechnung); upload that beside the statement"],
    [32, "Line 32: taxes (…) of the trade or distribution booked that day are imported from its note; upload that beside the statement"],
    [33, "Line 33: taxes (…) of the trade or distribution booked that day are imported from its note; upload that beside the statement"],
    [35, "Line 35: the booking \"Vorabpauschale\" of 2025-10-24 moves no money (0.00 EUR), so there is nothing to import"],
  ]);
  expect(result.skippedRows![0]!.reason).toContain("Kauf eines Finanzinstruments 10,00 Stk. Beispiel Welt Aktien (Acc) (IE00SCAL0031), -1215.00 EUR");
  // Imported and skipped bookings make the month's movement: 2,095.71 closing less 1,250.40 opening.
  expect(new Decimal(sum(result.transactions)).minus(1215).minus(0.99).plus(12.3).minus(1.85).minus(1.23).plus(980.4).minus(25).minus(1.37).toFixed(2)).toBe("845.31");
});

test("a Scalable Capital Kontoauszug whose bookings do not make its closing balance, or with a booking line cut from its amount, is refused; taxes on a day with both a distribution and interest are skipped with a warning, never guessed", () => {
  const statement = text("scalable", "kontoauszug.txt");
  expect(() => parseScalableText(statement.replace("23.10.2025  23.10.2025  Prime-Abonnementgebühr  -4,99 EUR\n", ""), "k.pdf"))
    .toThrow("k.pdf: the opening balance 1250.40 EUR and the bookings make 2100.70 EUR but the statement's closing balance is 2095.71 EUR; the statement is not imported");
  expect(() => parseScalableText(statement.replace("Abhebung vom Geldkonto  -400,00 EUR", "Abhebung vom Geldkonto"), "k.pdf"))
    .toThrow(`k.pdf: line 36: "28.10.2025 28.10.2025 Abhebung vom Geldkonto" is not a booking`);
  const both = statement.replace("02.10.2025  02.10.2025  Überweisung", "01.10.2025  01.10.2025  Kapitalmaßnahme Ausschüttungen  +2,00 EUR\nMuster Konsum Inc. (US00SCAL0072)\n02.10.2025  02.10.2025  Überweisung")
    .replace("Kontostand am 31.10.2025  2.095,71 EUR", "Kontostand am 31.10.2025  2.097,71 EUR");
  const result = parseScalableText(both, "k.pdf");
  expect(result.transactions.filter((t) => t.type === "TAX")).toEqual([]);
  expect(result.warnings.filter((w) => w.code === "taxUnassigned").map((w) => [w.row, w.severity, w.message.slice(0, w.message.indexOf(")") + 1)])).toEqual([
    [14, "warning", "Line 14: taxes (Abgezogener oder erstatteter Solidaritätszuschlag auf Kundenebene, -0.05 EUR)"],
    [15, "warning", "Line 15: taxes (Auf Kundenebene einbehaltene oder erstattete Kapitalertragssteuer, -1.03 EUR)"],
  ]);
});

test("each generated PDF parses through its plugin to the same rows as its text extract", async () => {
  const tr = (await brokerTraderepublicPdfPlugin.create({} as never)) as ImportPlugin;
  const sc = (await brokerScalablePdfPlugin.create({} as never)) as ImportPlugin;
  for (const [plugin, dir, broker, parse] of [[tr, "traderepublic-pdf", "traderepublic", parseTradeRepublicText], [sc, "scalable-pdf", "scalable", parseScalableText]] as const) {
    for (const name of ["kauf-de", "dividende-de", "dividende-2026-de", "sparplan-de", "kauf", "dividende", "verkauf", "kauf-2025", "sparplan-2025", "verkauf-2025", "dividende-2025", "kontoauszug-de", "kontoauszug-2020-de", "account-statement-en", "kauf-en", "verkauf-en", "sparplan-en", "kontoauszug"]) {
      let raw: string;
      try { raw = text(broker, `${name}.txt`); } catch { continue; }
      const { confidence, result } = await throughPdf(plugin, dir, `${name}.pdf`);
      expect(confidence).toBeGreaterThanOrEqual(0.9);
      expect(result.transactions.map(row)).toEqual(parse(raw, `${name}.pdf`).transactions.map(row));
    }
  }
});

test("a PDF of the other broker, an image-only PDF and an encrypted one are refused with their reason", async () => {
  const tr = (await brokerTraderepublicPdfPlugin.create({} as never)) as ImportPlugin;
  const otherBytes = new Uint8Array(readFileSync(join(FIXTURES, "brim", "scalable-pdf", "kauf.pdf")));
  const otherFile = { ...describeFile(otherBytes, "kauf.pdf"), head: (await pdfText(otherBytes)).text.slice(0, 4096) };
  expect(tr.accepts(otherFile)).toBe(0);
  await expect(tr.parse({ bytes: otherBytes, file: otherFile })).rejects.toThrow("kauf.pdf: not a Trade Republic document");
  const bad = async (name: string) => {
    const bytes = new Uint8Array(readFileSync(join(FIXTURES, "pdf", "bad", name)));
    try {
      await tr.parse({ bytes, file: describeFile(bytes, name) });
    } catch (error) {
      return pdfErrorCode(error);
    }
    return "parsed";
  };
  expect(await bad("image-only.pdf")).toBe("PDF_NO_TEXT");
  expect(await bad("encrypted.pdf")).toBe("PDF_ENCRYPTED");
  expect(await bad("corrupt.pdf")).toBe("PDF_UNREADABLE");
  expect(() => parseTradeRepublicText(text("scalable", "kauf.txt"), "kauf.pdf")).toThrow("not a Trade Republic document");
  expect(() => parseScalableText(text("traderepublic", "kauf-de.txt"), "kauf-de.pdf")).toThrow("not a Scalable Capital document");
});

test("a cancellation (Storno) of a Trade Republic or Scalable dividend is claimed by its importer and refused, never read as a dividend", async () => {
  const tr = (await brokerTraderepublicPdfPlugin.create({} as never)) as ImportPlugin;
  const sc = (await brokerScalablePdfPlugin.create({} as never)) as ImportPlugin;
  const refusal = "a cancellation (Storno) of an earlier document is not imported; leave out or delete the transactions of the document it cancels";
  expect(() => parseTradeRepublicText(text("traderepublic", "storno-dividende-de.txt"), "storno.pdf")).toThrow(`storno.pdf: ${refusal}`);
  expect(() => parseScalableText(text("scalable", "storno-dividende.txt"), "storno.pdf")).toThrow(`storno.pdf: ${refusal}`);
  for (const [plugin, dir, name] of [[tr, "traderepublic-pdf", "storno-dividende-de.pdf"], [sc, "scalable-pdf", "storno-dividende.pdf"]] as const) {
    const bytes = new Uint8Array(readFileSync(join(FIXTURES, "brim", dir, name)));
    const file = { ...describeFile(bytes, name), head: (await pdfText(bytes)).text.slice(0, 4096) };
    expect(plugin.accepts(file)).toBeGreaterThanOrEqual(0.9);
    await expect(plugin.parse({ bytes, file })).rejects.toThrow(`${name}: ${refusal}`);
  }
});
