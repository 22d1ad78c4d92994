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
    "Line 6: the booking (Gutschrift, 0.00 EUR) of 2025-03-10 moves no money (0.00 EUR), so there is nothing to import",
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

// The options the statements of Trade Republic, flatex and Scalable need: running balances, printed money in and
// out, no opening balance, taxes assigned by the day, a currency exchange, a statement without a type column.
const on = (date: string, b: StatementBooking): StatementBooking => ({ ...b, date: date as IsoDate });

test("with running balances, a booking whose printed balance does not follow from the one before is refused naming its line, and the last balance must be the closing balance", () => {
  const run = (second: string, closing: string) => accountStatement({
    ...spec([{ ...booking(1, "50", "transfer", "Gutschrift"), balance: new Decimal(150) }, { ...booking(2, "-20", "transfer", "Lastschrift"), balance: new Decimal(second) }], closing),
  });
  expect(run("130", "130").transactions.map((t) => t.type)).toEqual(["DEPOSIT", "WITHDRAWAL"]);
  expect(() => run("120", "120")).toThrow("s.pdf: line 2: the balance 120.00 EUR does not follow from the balance before it (150.00 EUR) and the amount 20.00 EUR; the statement is not imported");
  expect(() => run("130", "131")).toThrow("s.pdf: the rows add up to 130.00 EUR but the statement's closing balance is 131.00 EUR; the statement is not imported");
});

test("printed money in and money out must be the bookings' credits and debits, else the statement is refused naming both", () => {
  const bookings = [booking(1, "50", "transfer", "Gutschrift"), booking(2, "-20", "transfer", "Lastschrift")];
  expect(accountStatement({ ...spec(bookings, "130"), moneyInOut: { in: new Decimal(50), out: new Decimal(20) } }).transactions).toHaveLength(2);
  expect(() => accountStatement({ ...spec(bookings, "130"), moneyInOut: { in: new Decimal(60), out: new Decimal(30) } }))
    .toThrow("s.pdf: the rows bring 50.00 EUR in and 20.00 EUR out but the statement prints 60.00 EUR in and 30.00 EUR out; the statement is not imported");
});

test("a statement without an opening balance is read with an info statementUnreconciled naming its closing balance and day, never refused for it", () => {
  const { opening: _, ...noOpening } = spec([booking(1, "50", "transfer", "Gutschrift")], "999");
  const rows = accountStatement({ ...noOpening, closingDate: "2023-03-31" as IsoDate, balanceNames: { opening: "opening balance", closing: "end balance" } });
  expect(rows.transactions.map((t) => t.type)).toEqual(["DEPOSIT"]);
  expect(rows.warnings).toEqual([{ code: "statementUnreconciled", severity: "info", message: "s.pdf: the statement prints no opening balance, so its rows cannot be checked against its end balance (999.00 EUR on 2023-03-31); compare the broker's cash balance after the import" }]);
});

test("a tax the statement does not say the reason of (dayTax) is left to the note of a trade or dividend that day, a TAX row on a day with neither, and skipped with a warning taxUnassigned on a day with both a note's booking and interest or a taxed booking", () => {
  const rows = accountStatement(spec([
    on("2025-03-03", booking(1, "-100", "trade", "")), on("2025-03-03", booking(2, "-5", "dayTax", "Kapitalertragsteuer")),
    on("2025-03-04", booking(3, "-2", "dayTax", "Kapitalertragsteuer")), on("2025-03-04", booking(4, "3", "dayTax", "Solidaritätszuschlag")),
    on("2025-03-05", booking(5, "10", "dividend", "")), on("2025-03-05", booking(6, "1", "interest", "Zinsen")), on("2025-03-05", booking(7, "-0.5", "dayTax", "Kapitalertragsteuer")),
    on("2025-03-06", booking(8, "-100", "trade", "")), on("2025-03-06", { ...booking(9, "0", "unknown", "Vorabpauschale"), taxed: true }), on("2025-03-06", booking(10, "-0.7", "dayTax", "Kapitalertragsteuer")),
  ], "-94.2"));
  expect(rows.transactions.map((t) => [t.row, t.type, String(t.cash!.amount)])).toEqual([[3, "TAX", "-2"], [4, "INTEREST", "3"], [6, "INTEREST", "1"]]);
  const why = (line: number) => rows.warnings.find((w) => w.row === line);
  expect([why(2)?.code, why(2)?.message]).toEqual(["coveredByContractNote", "Line 2: taxes (Kapitalertragsteuer, -5.00 EUR) of the trade or distribution booked that day are imported from its note; upload that beside the statement"]);
  expect([why(4)?.code, why(4)?.severity]).toEqual(["taxRefund", "info"]);
  expect([why(7)?.code, why(7)?.severity, why(10)?.code, why(10)?.severity]).toEqual(["taxUnassigned", "warning", "taxUnassigned", "warning"]);
  expect(rows.skippedRows.map((s) => s.line)).toEqual([1, 2, 5, 7, 8, 9, 10]);
});

test("one currency's side of a currency exchange is skipped with a warning currencyExchange, never imported as a transfer", () => {
  const rows = accountStatement(spec([booking(1, "4.35", "exchange", "", "Kundenhandel FX Verkauf USD")], "104.35"));
  expect(rows.transactions).toEqual([]);
  expect(rows.warnings.map((w) => [w.code, w.severity])).toEqual([["currencyExchange", "warning"]]);
  expect(rows.skippedRows[0]!.reason).toStartWith("Line 1: the EUR side of a currency exchange (Kundenhandel FX Verkauf USD, 4.35 EUR); its other side is in another currency");
});

test("a statement without a type column: descriptions are the text with a note before it, a booking is named by its text, and the skip reasons use the bank's words for the booking and its documents", () => {
  const rows = accountStatement({
    ...spec([
      booking(1, "-0.4", "interest", "", "Zinsabschluss"), booking(2, "12.4", "tax", "", "Steuertopfoptimierung"), booking(3, "0", "unknown", "", "Vorabpauschale"),
      booking(4, "1", "unknown", "", "Kapitalmaßnahme XY"), { ...booking(5, "-0.99", "trade", "", "Handelsgebühr"), called: "the fee of a trade" },
      { ...booking(6, "2", "dividend", "", "Ausschüttung"), called: "a distribution" },
    ], "114.01"),
    describeByText: true, documents: { trade: "Wertpapierabrechnung", dividend: "" }, documentWords: { dividend: "dividend note" },
  });
  expect(rows.transactions.map((t) => [t.type, t.description])).toEqual([["FEE", "Bank s.pdf: debit interest: Zinsabschluss"], ["INTEREST", "Bank s.pdf: tax refund: Steuertopfoptimierung"]]);
  expect(rows.skippedRows.map((s) => s.reason)).toEqual([
    "Line 3: the booking \"Vorabpauschale\" of 2025-03-10 moves no money (0.00 EUR), so there is nothing to import",
    "Line 4: a booking \"Kapitalmaßnahme XY\" (1.00 EUR) this importer does not read; not imported, enter it by hand if it moved cash",
    "Line 5: the fee of a trade (Handelsgebühr, -0.99 EUR) is imported from its contract note (Wertpapierabrechnung); upload that beside the statement",
    "Line 6: a distribution (Ausschüttung, 2.00 EUR) is imported from its dividend note; upload that beside the statement",
  ]);
});

test("a refusal names the statement's own words for its balances, with or without the bookings' total", () => {
  expect(() => accountStatement({ ...spec([booking(1, "50", "transfer", "Gutschrift")], "149.99"), balanceNames: { opening: "old balance", closing: "new balance" }, showBookingsTotal: false }))
    .toThrow("s.pdf: the old balance 100.00 EUR and the bookings make 150.00 EUR but the statement's new balance is 149.99 EUR; the statement is not imported");
});
