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
import { brokerIngPdfPlugin } from "../../plugins/broker-ing-pdf/index.ts";
import { parseIngText } from "../../plugins/broker-ing-pdf/parse.ts";
import { brokerScalablePdfPlugin } from "../../plugins/broker-scalable-pdf/index.ts";
import { brokerTraderepublicPdfPlugin } from "../../plugins/broker-traderepublic-pdf/index.ts";
import { Decimal } from "../../sdk/index.ts";

// The account statements of comdirect (Finanzreport), ING (Kontoauszug of the Girokonto and the Extra-Konto) and
// Consorsbank (Kontoauszug of the Verrechnungskonto): every booking's classification pinned by hand on the text
// extracts of test/fixtures/pdf/<broker>/ (invented values in each bank's real layout), the statement's balances
// checked, and the PDFs generated from them (test/fixtures/brim/<broker>-pdf/) giving the same rows.
const FIXTURES = join(import.meta.dir, "..", "fixtures");
const text = (broker: string, name: string) => readFileSync(join(FIXTURES, "pdf", broker, name), "utf8");

/** A row as `line type date amount currency | description`. */
const row = (tx: ImportedTransaction) => `${tx.row} ${tx.type} ${tx.date} ${new Decimal(tx.cash!.amount).toFixed()} ${tx.cash!.currency} | ${tx.description}`;
const sum = (rows: readonly ImportedTransaction[]) => rows.reduce((acc, r) => acc.plus(r.cash!.amount), new Decimal(0));

async function pdfSample(dir: string, name: string) {
  const bytes = new Uint8Array(readFileSync(join(FIXTURES, "brim", dir, name)));
  return { bytes, file: { ...describeFile(bytes, name), head: (await pdfText(bytes)).text.slice(0, 4096) } };
}
const plugin = async (p: { create: (ctx: never) => unknown }) => (await p.create({} as never)) as ImportPlugin;

test("comdirect Finanzreport: the Verrechnungskonto's transfers, custody fee and interest imported with their printed signs, the Steuerverrechnung a TAX row; the two securities bookings skipped naming the contract note or dividend notice, the Tagesgeld account left out", () => {
  const result = parseComdirectText(text("comdirect", "finanzreport.txt"), "finanzreport.txt");
  expect(result.detectedFormat).toBe("comdirect/pdf/statement");
  expect(result.transactions.map(row)).toEqual([
    "29 DEPOSIT 2025-03-04 1500 EUR | comdirect finanzreport.txt: Übertrag / Überweisung Erika Beispiel Sparrate Maerz",
    "33 TAX 2025-03-11 -12.34 EUR | comdirect finanzreport.txt: Steuerverrechnung",
    "37 WITHDRAWAL 2025-03-14 -45 EUR | comdirect finanzreport.txt: Lastschrift / Belastung Beispiel Versicherung AG Beitrag 03/2025",
    "53 FEE 2025-03-20 -1.93 EUR | comdirect finanzreport.txt: Entgelte Verwahrentgelt Beispiel Gold WKN CDX009",
    "59 WITHDRAWAL 2025-03-28 -600 EUR | comdirect finanzreport.txt: Übertrag / Überweisung Erika Beispiel Uebertrag auf Tagesgeld PLUS-Konto",
    "62 INTEREST 2025-03-31 3.12 EUR | comdirect finanzreport.txt: Kontoabschluss Abschluss Zinsen",
  ]);
  expect(result.skippedRows).toEqual([
    { line: 44, reason: "Line 44: a booking on a security (Wertpapiere: BEISPIEL INDUSTRIE AG WPKNR: CDX001 ISIN: DE000CDX0011, -2105.40 EUR) is imported from its contract note (Wertpapierkauf / Wertpapierverkauf) or dividend notice (Dividendengutschrift / Ertragsgutschrift); upload that beside the statement" },
    { line: 56, reason: expect.stringMatching(/^Line 56: a booking on a security \(Wertpapiere: MUSTER VERSORGER SE WPKNR: CDX002 ISIN: DE000CDX0029, 975\.50 EUR\) is imported from its contract note/) },
    { line: 73, reason: "Line 73: the Tagesgeld PLUS-Konto (1 booking, closing balance 2500.00) is another account of the Finanzreport; only the Verrechnungskonto, the account the depot settles through, is imported" },
  ]);
  // Imported and skipped bookings together are the account's movement: Neuer Saldo 1,863.95 minus Alter Saldo 2,150.00.
  expect(sum(result.transactions).plus(-2105.4).plus(975.5).toFixed(2)).toBe("-286.05");
});

test("a comdirect Finanzreport whose bookings do not lead from Alter Saldo to Neuer Saldo, or whose overview prints another balance, is refused naming both figures", () => {
  const report = text("comdirect", "finanzreport.txt");
  expect(() => parseComdirectText(report.replace("Beitrag 03/2025  -45,00", "Beitrag 03/2025  -54,00"), "f.pdf"))
    .toThrow("f.pdf: the opening balance 2150.00 EUR and the bookings (-295.05 EUR) make 1854.95 EUR, but the statement's closing balance is 1863.95 EUR; the statement is not imported");
  // A booking lost from the text breaks the balance the same way.
  expect(() => parseComdirectText(report.replace("20.03.2025  Entgelte  Verwahrentgelt Beispiel Gold  -1,93\n", ""), "f.pdf")).toThrow("make 1865.88 EUR, but the statement's closing balance is 1863.95 EUR");
  expect(() => parseComdirectText(report.replace("0000 0000 00  +1.863,95", "0000 0000 00  +1.836,95"), "f.pdf"))
    .toThrow("f.pdf: the Verrechnungskonto closes at 1863.95 EUR but the account overview prints 1836.95 EUR; the statement is not imported");
  expect(() => parseComdirectText(report.replace(/^Verrechnungskonto$/m, "Sparkonto"), "f.pdf")).toThrow("f.pdf: the Finanzreport has no Verrechnungskonto or Girokonto section");
});

test("a comdirect Finanzreport without a Verrechnungskonto imports the Girokonto's bookings (the account the depot settles through then)", () => {
  const giro = text("comdirect", "finanzreport.txt").replace(/^Verrechnungskonto( |$)/gm, "Girokonto$1");
  const result = parseComdirectText(giro, "f.pdf");
  expect(result.transactions).toHaveLength(6);
  expect(result.skippedRows!.at(-1)!.reason).toContain("only the Girokonto, the account the depot settles through, is imported");
});

test("ING Kontoauszug of the Girokonto over two pages: transfers in and out, a card payment, a standing order and the girocard fee with the printed signs; the Wertpapierkauf skipped naming the Wertpapierabrechnung", () => {
  const result = parseIngText(text("ing", "kontoauszug.txt"), "kontoauszug.txt");
  expect(result.detectedFormat).toBe("ing/pdf/statement");
  expect(result.transactions.map(row)).toEqual([
    "14 DEPOSIT 2025-02-03 2500 EUR | ING Girokonto kontoauszug.txt: Gutschrift Erika Beispiel Sparrate Depot",
    "17 WITHDRAWAL 2025-02-05 -62 EUR | ING Girokonto kontoauszug.txt: Lastschrift Stadtwerke Musterort Abschlag Strom 02/25 VK: 000000000",
    "24 WITHDRAWAL 2025-02-14 -4.8 EUR | ING Girokonto kontoauszug.txt: Lastschrift VISA BAECKEREI SONNENSCHEIN NR XXXX 0000 MUSTERORT DE KAUFUMSATZ 12.02 4.80 081512",
    "36 WITHDRAWAL 2025-02-17 -250 EUR | ING Girokonto kontoauszug.txt: Dauerauftrag/Terminueberw. Erika Beispiel Sparen Extra-Konto",
    "38 WITHDRAWAL 2025-02-20 -150 EUR | ING Girokonto kontoauszug.txt: Echtzeitüberweisung Max Muster Anteil Geschenk",
    "40 DEPOSIT 2025-02-21 120.96 EUR | ING Girokonto kontoauszug.txt: Gutschrift/Dauerauftrag Erika Beispiel Taschengeld",
    "42 FEE 2025-02-24 -0.99 EUR | ING Girokonto kontoauszug.txt: Entgelt Erika Beispiel GIROCARD 0000000000000 MONATLICHES ENTGELT GIROCARD",
  ]);
  expect(result.skippedRows).toEqual([
    { line: 21, reason: "Line 21: a trade (Wertpapierkauf: WP-ABRECHNUNG 112233440010 Kauf ISIN DE000ING0019 Beispiel Logistik AG, -2153.30 EUR) is imported from its contract note (Wertpapierabrechnung); upload that beside the statement" },
  ]);
  expect(sum(result.transactions).minus(2153.3).toFixed(2)).toBe("-0.13"); // Neuer Saldo 1,204.37 minus Alter Saldo 1,204.50
});

test("ING Kontoauszug of the Extra-Konto: the Zinsertrag an INTEREST row, Kapitalertragsteuer and Solidaritätszuschlag on it TAX rows, the Lastschrift-Einzug from the reference account a DEPOSIT; the interest computation below Neuer Saldo is not a booking", () => {
  const result = parseIngText(text("ing", "extra-konto-kontoauszug.txt"), "extra.pdf");
  expect(result.transactions.map(row)).toEqual([
    "14 DEPOSIT 2025-06-02 1500 EUR | ING Extra-Konto extra.pdf: Gutschrift Erika Beispiel",
    "20 DEPOSIT 2025-08-04 250 EUR | ING Extra-Konto extra.pdf: Lastschrift-Einzug Erika Beispiel",
    "22 WITHDRAWAL 2025-10-15 -600 EUR | ING Extra-Konto extra.pdf: Ueberweisung Erika Beispiel Umbuchung",
    "24 TAX 2025-12-30 -24.46 EUR | ING Extra-Konto extra.pdf: Kapitalertragsteuer",
    "26 TAX 2025-12-30 -1.34 EUR | ING Extra-Konto extra.pdf: Solidaritätszuschlag",
    "28 INTEREST 2025-12-30 123.62 EUR | ING Extra-Konto extra.pdf: Zinsertrag",
  ]);
  expect(result.skippedRows).toEqual([{ line: 17, reason: expect.stringMatching(/^Line 17: a trade \(Wertpapierkauf: WP-ABRECHNUNG 000000000001 Kauf ISIN IE00ING00026 Beispiel Welt Aktien UCITS ETF, -200\.00 EUR\) is imported from its contract note/) }]);
});

test("an ING Kontoauszug that does not add up (a booking changed, or the closing balance of the table not the head's) is refused naming both figures; the 2010 layout with a running balance is not claimed", () => {
  const giro = text("ing", "kontoauszug.txt");
  expect(() => parseIngText(giro.replace("Max Muster  -150,00", "Max Muster  -15,00"), "k.pdf"))
    .toThrow("k.pdf: the opening balance 1204.50 EUR and the bookings (134.87 EUR) make 1339.37 EUR, but the statement's closing balance is 1204.37 EUR; the statement is not imported");
  expect(() => parseIngText(giro.replace("Neuer Saldo  1.204,37\n", "Neuer Saldo  1.240,37\n"), "k.pdf"))
    .toThrow("k.pdf: the bookings end at Neuer Saldo 1240.37 EUR but the statement's head prints 1204.37 EUR; the statement is not imported");
  const old = giro.replaceAll("Buchung  Buchung / Verwendungszweck  Betrag (EUR)", "Valuta  Vorgang  Umsatz  Valutensaldo");
  expect(() => parseIngText(old, "k.pdf")).toThrow("k.pdf: an ING document of a kind this importer does not read");
});

test("Consorsbank Kontoauszug of the Verrechnungskonto over two pages: the transfer in, the direct debit and the transfer out imported with the sign after the figure, on the booking day with the year of the statement's date; both EFFEKTEN bookings skipped naming the contract note", () => {
  const result = parseConsorsbankText(text("consorsbank", "kontoauszug.txt"), "kontoauszug.txt");
  expect(result.detectedFormat).toBe("consorsbank/pdf/statement");
  expect(result.transactions.map(row)).toEqual([
    "20 DEPOSIT 2025-03-03 2500 EUR | Consorsbank kontoauszug.txt: EURO-UEBERW. ERIKA BEISPIEL <COBADEFF > DE00100400000000000000 Sparrate Maerz MOB.000.UE.000000",
    "30 WITHDRAWAL 2025-03-05 -39.9 EUR | Consorsbank kontoauszug.txt: LASTSCHRIFT BEISPIEL MOBILFUNK GMBH <BYLADEM1001> DE00700202700000000000 Rechnung 03/2025",
    "48 WITHDRAWAL 2025-03-25 -400 EUR | Consorsbank kontoauszug.txt: UEBERWEISUNG ERIKA BEISPIEL <INGDDEFFXXX> DE00500105170000000000 Umbuchung Girokonto",
  ]);
  expect(result.skippedRows).toEqual([
    { line: 26, reason: "Line 26: a trade (EFFEKTEN: WP-ABRECHNUNG 5566778800 Kauf WKN: CSB001 BEISPIEL CHEMIE AG NAMENS-AKTIEN O.N., -2221.70 EUR) is imported from its contract note (KAUF / VERKAUF contract note); upload that beside the statement" },
    { line: 43, reason: expect.stringMatching(/^Line 43: a trade \(EFFEKTEN: WP-ABRECHNUNG 5566779900 Verkauf WKN: CSB009 .*, 1150\.25 EUR\) is imported from its contract note/) },
  ]);
  expect(sum(result.transactions).minus(2221.7).plus(1150.25).toFixed(2)).toBe("988.65"); // Buchungssaldo neu 2,019.05 minus alt 1,030.40
});

test("a Consorsbank Kontoauszug whose balance by value day does not follow from its bookings, or whose bookings miss the closing balance, is refused naming both figures", () => {
  const statement = text("consorsbank", "kontoauszug.txt");
  // The direct debit changed: the balance of 05.03. (valued on or before that day) no longer follows.
  expect(() => parseConsorsbankText(statement.replace("05.03.  39,90-", "05.03.  93,90-"), "k.pdf"))
    .toThrow("k.pdf: line 34: the balance on 2025-03-05 is printed as 3490.50 EUR but the opening balance and the bookings valued by then make 3436.50 EUR; the statement is not imported");
  expect(() => parseConsorsbankText(statement.replace("Buchungssaldo neu\n2.019,05+", "Buchungssaldo neu\n2.091,05+"), "k.pdf"))
    .toThrow("k.pdf: the opening balance 1030.40 EUR and the bookings (988.65 EUR) make 2019.05 EUR, but the statement's closing balance is 2091.05 EUR; the statement is not imported");
});

test("a Consorsbank booking of a type the importer does not know is skipped with a warning, the rest of the statement still imported; a January statement puts its December bookings in the year before", () => {
  const unknown = parseConsorsbankText(text("consorsbank", "kontoauszug.txt").replace("LASTSCHRIFT  05.03.", "SONDERBUCHUNG  05.03."), "k.pdf");
  expect(unknown.transactions).toHaveLength(2);
  expect(unknown.warnings.filter((w) => w.severity === "warning")).toEqual([expect.objectContaining({ code: "unknownRowType", row: 30 })]);
  expect(unknown.skippedRows![1]!.reason).toStartWith("Line 30: a booking of type \"SONDERBUCHUNG\"");
  const january = text("consorsbank", "kontoauszug.txt").replaceAll("Datum 31.03.25", "Datum 02.01.26").replaceAll(".03.", ".12.").replace("Kontostand zum 31.12.25", "Kontostand zum 02.01.26");
  expect(parseConsorsbankText(january, "k.pdf").transactions.map((t) => String(t.date))).toEqual(["2025-12-03", "2025-12-05", "2025-12-25"]);
});

test("each statement's generated PDF is claimed by its own importer and parses to the rows of its text extract; no other PDF importer claims it", async () => {
  const all = [brokerComdirectPdfPlugin, brokerIngPdfPlugin, brokerConsorsbankPdfPlugin, brokerFlatexPdfPlugin, brokerScalablePdfPlugin, brokerTraderepublicPdfPlugin];
  const samples = [
    [brokerComdirectPdfPlugin, "comdirect", "finanzreport", parseComdirectText],
    [brokerIngPdfPlugin, "ing", "kontoauszug", parseIngText],
    [brokerIngPdfPlugin, "ing", "extra-konto-kontoauszug", parseIngText],
    [brokerConsorsbankPdfPlugin, "consorsbank", "kontoauszug", parseConsorsbankText],
  ] as const;
  for (const [owner, broker, name, parse] of samples) {
    const { bytes, file } = await pdfSample(`${broker}-pdf`, `${name}.pdf`);
    const importer = await plugin(owner);
    expect(importer.accepts(file)).toBeGreaterThanOrEqual(0.9);
    const result = await importer.parse({ bytes, file });
    const fromText = parse(text(broker, `${name}.txt`), `${name}.pdf`);
    expect(result.transactions.map(row)).toEqual(fromText.transactions.map(row));
    expect(result.skippedRows).toEqual(fromText.skippedRows!);
    for (const other of all.filter((p) => p !== owner)) expect([other.manifest.id, (await plugin(other)).accepts(file)]).toEqual([other.manifest.id, 0]);
  }
});

test("the statements' labels read the same when the PDF's text puts a wider gap between a label and its figure (cells two spaces or more apart)", () => {
  const widen = (t: string, ...labels: string[]) => labels.reduce((acc, l) => acc.replaceAll(`${l} `, `${l}  `), t);
  const same = (parse: (t: string, n: string) => { transactions: readonly ImportedTransaction[] }, broker: string, name: string, ...labels: string[]) =>
    expect(parse(widen(text(broker, name), ...labels), name).transactions.map(row)).toEqual(parse(text(broker, name), name).transactions.map(row));
  same(parseComdirectText, "comdirect", "finanzreport.txt", "Alter Saldo", "Neuer Saldo", "Finanzreport Nr. 3 per");
  same(parseIngText, "ing", "kontoauszug.txt", "Girokonto Nummer", "Kontoauszug Februar", "Girokonto");
  same(parseConsorsbankText, "consorsbank", "kontoauszug.txt", "Kontostand zum", "Datum", "***");
});

test("a comdirect booking of a transfer type that names a security on its following lines (a distribution booked as Gutschrift) is skipped, never imported as a deposit", () => {
  const report = text("comdirect", "finanzreport.txt").replace("24.03.2025  Wertpapiere  MUSTER VERSORGER SE  +975,50", "24.03.2025  Gutschrift  MUSTER VERSORGER SE  +975,50");
  const result = parseComdirectText(report, "f.pdf");
  expect(result.transactions.map((t) => t.row)).toEqual([29, 33, 37, 53, 59, 62]);
  expect(result.skippedRows![1]!.reason).toStartWith("Line 56: a booking on a security (Gutschrift: MUSTER VERSORGER SE WPKNR: CDX002 ISIN: DE000CDX0029, 975.50 EUR)");
});
