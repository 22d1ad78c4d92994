import { expect, test } from "bun:test";
import { accountStatement, namesSecurity, type StatementBooking } from "../../sdk/import/index.ts";
import { type CurrencyCode, Decimal, type IsoDate } from "../../sdk/index.ts";

// The rows of a bank account statement, shared by the PDF importers of comdirect, ING and Consorsbank: which
// ledger type each kind of booking becomes (by its sign), which bookings are left to another document, and the
// refusal of a statement that does not add up.
const booking = (line: number, amount: string, kind: StatementBooking["kind"], type: string, text = ""): StatementBooking =>
  ({ line, date: "2025-03-10" as IsoDate, amount: new Decimal(amount), kind, type, text });
const spec = (bookings: StatementBooking[], closing: string) => ({
  name: "s.pdf", bank: "Bank", currency: "EUR" as CurrencyCode, opening: new Decimal(100), closing: new Decimal(closing), bookings,
  documents: { trade: "Abrechnung", dividend: "Gutschrift" },
});

test("each booking kind becomes the ledger type its sign allows: a transfer a DEPOSIT or WITHDRAWAL, debit interest a FEE, a refunded fee or tax an INTEREST row", () => {
  const rows = accountStatement(spec([
    booking(1, "50", "transfer", "Gutschrift"), booking(2, "-20", "transfer", "Lastschrift"),
    booking(3, "1.5", "interest", "Zinsen"), booking(4, "-0.4", "interest", "Sollzinsen"),
    booking(5, "-2", "fee", "Entgelt"), booking(6, "2", "fee", "Entgelt"),
    booking(7, "-3", "tax", "Steuer"), booking(8, "3", "tax", "Steuer"),
  ], "131.1"));
  expect(rows.transactions.map((t) => [t.row, t.type, String(t.cash!.amount)])).toEqual([
    [1, "DEPOSIT", "50"], [2, "WITHDRAWAL", "-20"], [3, "INTEREST", "1.5"], [4, "FEE", "-0.4"],
    [5, "FEE", "-2"], [6, "INTEREST", "2"], [7, "TAX", "-3"], [8, "INTEREST", "3"],
  ]);
  expect(rows.transactions.map((t) => t.description)).toContain("Bank s.pdf: Sollzinsen (debit interest)");
  expect(rows.skippedRows).toEqual([]);
});

test("a trade, a dividend, and a tax or transfer naming a security are skipped naming the document that carries them; an unknown type is skipped with a warning; nothing is written for them", () => {
  const rows = accountStatement(spec([
    booking(1, "-500", "trade", "Wertpapierkauf", "ISIN DE000BSP0012"), booking(2, "12", "dividend", "Dividende"),
    booking(3, "-4", "tax", "Kapitalertragsteuer", "WKN BSP001"), booking(4, "30", "transfer", "Gutschrift", "Ertrag US00BSP00019"),
    booking(5, "-1", "unknown", "Sonstiges"), booking(6, "0", "transfer", "Gutschrift"),
  ], "-363"));
  expect(rows.transactions).toEqual([]);
  expect(rows.skippedRows.map((s) => s.reason)).toEqual([
    "Line 1: a trade (Wertpapierkauf: ISIN DE000BSP0012, -500.00 EUR) is imported from its contract note (Abrechnung); upload that beside the statement",
    "Line 2: a dividend (Dividende, 12.00 EUR) is imported from its dividend notice (Gutschrift); upload that beside the statement",
    "Line 3: a booking on a security (Kapitalertragsteuer: WKN BSP001, -4.00 EUR) is imported from its contract note (Abrechnung) or dividend notice (Gutschrift); upload that beside the statement",
    "Line 4: a booking on a security (Gutschrift: Ertrag US00BSP00019, 30.00 EUR) is imported from its contract note (Abrechnung) or dividend notice (Gutschrift); upload that beside the statement",
    "Line 5: a booking of type \"Sonstiges\" (Sonstiges, -1.00 EUR) this importer does not read; not imported, enter it by hand if it moved cash",
    "Line 6: a booking of no amount (Gutschrift, 0.00 EUR) moves no cash",
  ]);
  expect(rows.warnings.map((w) => [w.code, w.severity])).toEqual([
    ["coveredByContractNote", "info"], ["coveredByDividendNotice", "info"], ["coveredBySecurityDocument", "info"], ["coveredBySecurityDocument", "info"],
    ["unknownRowType", "warning"], ["zeroBooking", "info"],
  ]);
});

test("a statement whose opening balance and bookings do not make its closing balance is refused naming both figures", () => {
  expect(() => accountStatement(spec([booking(1, "50", "transfer", "Gutschrift")], "149.99")))
    .toThrow("s.pdf: the opening balance 100.00 EUR and the bookings (50.00 EUR) make 150.00 EUR, but the statement's closing balance is 149.99 EUR; the statement is not imported");
});

test("a booking names a security by an ISIN, WKN, WPKNR or WP-ABRECHNUNG, not by an IBAN or a BIC", () => {
  expect(["ISIN DE000BSP0012", "WKN: A14Y6F", "WPKNR: LYX018", "WP-ABRECHNUNG 0001"].map(namesSecurity)).toEqual([true, true, true, true]);
  expect(["DE12500105170648489890", "COBADEFFXXX", "Sparrate Maerz"].map(namesSecurity)).toEqual([false, false, false]);
});
