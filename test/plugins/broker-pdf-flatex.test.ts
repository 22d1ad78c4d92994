import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ImportedTransaction, ImportPlugin } from "../../sdk/index.ts";
import { Decimal } from "../../sdk/index.ts";
import { describeFile, pdfText } from "../../sdk/import/index.ts";
import { brokerFlatexPdfPlugin } from "../../plugins/broker-flatex-pdf/index.ts";
import { parseFlatexText } from "../../plugins/broker-flatex-pdf/parse.ts";

// flatex's notes of its FinTech Group Bank years (2017–2020) and its account statement: the text extracts of
// test/fixtures/pdf/flatex/fintech-*.txt and kontoauszug.txt (invented values in the layout of real documents)
// with every field pinned, and the PDFs made from them.
const FIXTURES = join(import.meta.dir, "..", "fixtures");
const text = (name: string) => readFileSync(join(FIXTURES, "pdf", "flatex", name), "utf8");

/** A row as `type date quantity amount currency isin name [tags] | description`. */
function row(tx: ImportedTransaction): string {
  return [tx.type, tx.date, `q=${new Decimal(tx.quantity ?? "0").toFixed()}`, `${new Decimal(tx.cash!.amount).toFixed()} ${tx.cash!.currency}`, tx.isin ?? "-",
    tx.assetName ?? "-", ...(tx.tags ? [`[${tx.tags.join(",")}]`] : []), `| ${tx.description}`].join(" ");
}
const sum = (rows: readonly ImportedTransaction[]) => rows.reduce((acc, r) => acc.plus(r.cash!.amount), new Decimal(0)).toFixed(2);

test("FinTech Group Bank Wertpapierabrechnung Kauf (to 2018: 'Kurswert  EUR  800,00', no colon, the currency first): the Schlusstag of the letterhead, Provision and Fremde Spesen one FEE row, the fee breakdown below not counted again", () => {
  const result = parseFlatexText(text("fintech-kauf.txt"), "fintech-kauf.txt");
  expect(result.detectedFormat).toBe("flatex/pdf/fintech/trade");
  expect(result.transactions.map(row)).toEqual([
    "BUY 2017-03-13 q=25 -800 EUR DE000FLX0046 BEISPIEL MASCHINEN AG O.N. | flatex fintech-kauf.txt: buy 25 at 32 EUR",
    "FEE 2017-03-13 q=0 -5.9 EUR DE000FLX0046 BEISPIEL MASCHINEN AG O.N. | flatex fintech-kauf.txt",
  ]);
  expect(result.transactions.map((t) => t.orderId)).toEqual(["flatex:87654321/1", "flatex:87654321/1"]);
  expect(sum(result.transactions)).toBe("-805.90"); // Endbetrag
});

test("FinTech Group Bank Wertpapierabrechnung Verkauf (2019: 'Kurswert  3.000,00 EUR'): thousands in the quantity, Provision and Fremde Spesen one FEE row, Einbeh. Steuer a TAX row, summing to the Endbetrag", () => {
  const result = parseFlatexText(text("fintech-verkauf.txt"), "fintech-verkauf.txt");
  expect(result.detectedFormat).toBe("flatex/pdf/fintech/trade");
  expect(result.transactions.map(row)).toEqual([
    "SELL 2019-05-07 q=-1200 3000 EUR DE000FLX0053 MUSTER LOGISTIK AG NA O.N. | flatex fintech-verkauf.txt: sell 1200 at 2.5 EUR",
    "FEE 2019-05-07 q=0 -7.4 EUR DE000FLX0053 MUSTER LOGISTIK AG NA O.N. | flatex fintech-verkauf.txt",
    "TAX 2019-05-07 q=0 -103.55 EUR DE000FLX0053 MUSTER LOGISTIK AG NA O.N. | flatex fintech-verkauf.txt: taxes withheld",
  ]);
  expect(sum(result.transactions)).toBe("2889.05"); // Endbetrag
});

test("FinTech Group Bank Dividendengutschrift für ausländische Wertpapiere ('St.  :  80', the colon set apart): the gross in EUR is the credit plus the taxes withheld, the USD gross and Devisenkurs noted, on the Valuta day", () => {
  const result = parseFlatexText(text("fintech-dividende.txt"), "fintech-dividende.txt");
  expect(result.detectedFormat).toBe("flatex/pdf/fintech/dividend");
  expect(result.transactions.map(row)).toEqual([
    "DIVIDEND 2019-06-14 q=0 35.71 EUR US00FLX00067 MUSTER FOODS INC. REG. SHS | flatex fintech-dividende.txt: dividend on 80; 40 USD at 1.12 USD/EUR",
    "TAX 2019-06-14 q=0 -9.13 EUR US00FLX00067 MUSTER FOODS INC. REG. SHS | flatex fintech-dividende.txt: taxes withheld",
  ]);
  expect(String(result.transactions[0]!.assetCurrency)).toBe("USD");
  expect(sum(result.transactions)).toBe("26.58"); // Endbetrag
});

test("a FinTech Group Bank note whose Kurswert, costs and taxes do not make its Endbetrag (a cost line not read) is refused, never imported short", () => {
  const unread = text("fintech-kauf.txt").replace("Endbetrag  EUR  -805,90", "Endbetrag  EUR  -807,40");
  expect(() => parseFlatexText(unread, "k.pdf")).toThrow("k.pdf: the Kurswert 800.00 EUR, costs 5.90 and taxes 0.00 do not make the Endbetrag -807.40 EUR; the note is not imported");
});

test("flatex Kontoauszug over two pages (days without a year, the sign after the figure, '-1.000,00-' a debit): interest, transfers in and out, custody and tax-voucher fees, a tax refund imported; trades and the dividend skipped naming their documents, the currency exchange skipped with a warning", () => {
  const result = parseFlatexText(text("kontoauszug.txt"), "kontoauszug.txt");
  expect(result.detectedFormat).toBe("flatex/pdf/statement");
  expect(result.transactions.map(row)).toEqual([
    "INTEREST 2023-10-02 q=0 3.12 EUR - - | flatex kontoauszug.txt: Zinsabschluss 01.07.2023 - 30.09.2023",
    "DEPOSIT 2023-10-09 q=0 2500 EUR - - | flatex kontoauszug.txt: Überweisung",
    "FEE 2023-11-02 q=0 -0.12 EUR - - | flatex kontoauszug.txt: Depotservicegebühr US00FLX00034",
    "WITHDRAWAL 2023-11-20 q=0 -1000 EUR - - | flatex kontoauszug.txt: Überweisung",
    "INTEREST 2023-12-01 q=0 12.4 EUR - - | flatex kontoauszug.txt: tax refund: Steuertopfoptimierung 2023",
    "FEE 2023-12-15 q=0 -5.9 EUR - - | flatex kontoauszug.txt: Gebühr Tax Voucher WKN FLX003",
  ]);
  expect(result.transactions.map((t) => t.row)).toEqual([20, 23, 31, 39, 43, 44]);
  expect(result.skippedRows).toEqual([
    { line: 21, reason: "Line 21: a trade (Ausführung ORDER Kauf DE000FLX0012, -1476.61 EUR) is imported from its contract note (Wertpapierabrechnung); upload that beside the statement" },
    { line: 28, reason: "Line 28: a dividend (Dividendenzahlung US00FLX00034, 21.90 EUR) is imported from its dividend notice (Dividendengutschrift / Ertragsmitteilung); upload that beside the statement" },
    { line: 29, reason: expect.stringMatching(/^Line 29: the EUR side of a currency exchange \(Kundenhandel FX Verkauf USD Devisenkurs, 4\.35 EUR\); .* not imported/) },
    { line: 37, reason: "Line 37: a trade (Ausführung ORDER Verkauf DE000FLX0012, 1729.20 EUR) is imported from its contract note (Wertpapierabrechnung); upload that beside the statement" },
  ]);
  expect(result.warnings.find((w) => w.code === "currencyExchange")?.severity).toBe("warning");
  // Imported and skipped bookings make the statement's movement: 3,992.52 new balance less 2,204.18 old.
  expect(new Decimal(sum(result.transactions)).minus(1476.61).plus(21.9).plus(4.35).plus(1729.2).toFixed(2)).toBe("1788.34");
});

test("a flatex Kontoauszug whose bookings do not make its new balance, with a booking line cut from its amount, or without its new balance (a page missing), is refused, never imported short", () => {
  const statement = text("kontoauszug.txt");
  expect(() => parseFlatexText(statement.replace("02.11.  02.11.  Depotservicegebühr US00FLX00034  0,12-\n", ""), "k.pdf"))
    .toThrow("k.pdf: the old balance 2204.18 EUR and the bookings make 3992.64 EUR but the statement's new balance is 3992.52 EUR; the statement is not imported");
  expect(() => parseFlatexText(statement.replace("Gebühr Tax Voucher WKN FLX003  5,90-", "Gebühr Tax Voucher WKN FLX003"), "k.pdf"))
    .toThrow(`k.pdf: line 44: "15.12.  18.12.  Gebühr Tax Voucher WKN FLX003" is not a booking`);
  expect(() => parseFlatexText(statement.replace(/^Neuer Saldo.*$/m, ""), "k.pdf")).toThrow("k.pdf: the statement's new balance (\"Neuer Saldo <date> … <amount>\") was not found");
});

test("FinTech Group Bank notes and the flatex Kontoauszug are claimed by the flatex importer from their content, and each generated PDF parses to the rows of its text extract", async () => {
  const plugin = (await brokerFlatexPdfPlugin.create({} as never)) as ImportPlugin;
  for (const name of ["fintech-kauf", "fintech-verkauf", "fintech-dividende", "kontoauszug"]) {
    const bytes = new Uint8Array(readFileSync(join(FIXTURES, "brim", "flatex-pdf", `${name}.pdf`)));
    // Named like no flatex file: detection reads the text, never the name.
    const file = { ...describeFile(bytes, "document.pdf"), head: (await pdfText(bytes)).text.slice(0, 4096) };
    expect(plugin.accepts(file)).toBeGreaterThanOrEqual(0.9);
    const result = await plugin.parse({ bytes, file: { ...file, filename: `${name}.pdf` } });
    expect(result.transactions.map(row)).toEqual(parseFlatexText(text(`${name}.txt`), `${name}.pdf`).transactions.map(row));
  }
});
