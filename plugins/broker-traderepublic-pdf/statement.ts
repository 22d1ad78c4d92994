// Trade Republic's monthly account statement, read from the text `pdfText` extracts. Two layouts:
//
// Since 2024, "KONTOÜBERSICHT … UMSATZÜBERSICHT" (English "ACCOUNT STATEMENT SUMMARY … ACCOUNT TRANSACTIONS"):
// - the overview: "PRODUKT ANFANGSSALDO ZAHLUNGSEINGANG ZAHLUNGSAUSGANG ENDSALDO" (English "PRODUCT OPENING
//   BALANCE MONEY IN MONEY OUT ENDING BALANCE"), then "Depotkonto  1.250,00 €  2.011,15 €  1.135,35 €  2.125,80 €"
//   (English "€1,250.00", the sign before the figure);
// - the transactions, over as many pages as it takes (each page repeats the column header): "<day> <month>
//   <year>  <type>  <description>  <amount>  <balance>", the year sometimes wrapped onto the next line under
//   the day ("24 März" / "2025  Kartentransaktion  …"). Money in and money out are two columns, but the text
//   does not say which one a figure stood in: the running balance does (up or down by the amount).
// Every row is checked against the balance before it and the last balance against the printed end balance;
// a statement whose rows do not add up is refused, naming both figures, rather than imported with a gap.
//
// 2020–2023, "KONTOAUSZUG zum <date> … BUCHUNGEN": the header "BUCHUNGSTAG / BUCHUNGSTEXT  BETRAG IN EUR"
// over "WERTSTELLUNG", then two lines per booking, "<booking day>  <text>  <signed amount>" and
// "<value day>  [more text]", over as many pages as it takes, ended by "KONTOSTAND AM <date>:  <balance> EUR".
// No type column (the text says what a booking is: "Accepted PayIn:…", "Auszahlung an Referenzkonto",
// "Your interest payment", "Ausführung Handel …", "Ereignisausführung Ertrag …") and no opening balance, so
// the rows cannot be reconciled: every dated line must belong to a booking, and the end balance must be
// there (the last page read), else the statement is refused.
//
// The rows of both are the SDK's `accountStatement` (the running balance, money in and money out checked
// there): rows a contract note or a dividend notice carries (trades, dividends, the taxes of a sale) are
// skipped with the reason, so uploading the statement beside those documents books nothing twice.
import { type CurrencyCode, type ImportResult, type IsoDate, Decimal, PluginError } from "../../sdk/index.ts";
import { type AccountStatementSpec, accountStatement, type StatementBooking, type StatementBookingKind } from "../../sdk/import/account-statement.ts";
import { detectDecimalMark } from "../../sdk/import/numbers.ts";
import { pdfCells, pdfDocument } from "../../sdk/import/pdf-document.ts";

/** The title line the transactions table starts after (the 2024 layout), or the 2020–2023 layout's title. */
export const STATEMENT_TITLE = /^(UMSATZÜBERSICHT|ACCOUNT TRANSACTIONS|KONTOAUSZUG)$/i;
const OVERVIEW = /^(PRODUKT\s+ANFANGSSALDO|PRODUCT\s+OPENING BALANCE)\b/i;
const MONEY = /^€\s?(-?[\d.,]*\d)$|^(-?[\d.,]*\d)\s?(?:€|EUR)$/;
const DAY = /^(\d{1,2})\s+(\p{L}+)\.?(?:\s+(\d{4}))?$/u;
const MONTHS: Record<string, number> = {
  jan: 1, feb: 2, mär: 3, mar: 3, apr: 4, mai: 5, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, okt: 10, oct: 10, nov: 11, dez: 12, dec: 12,
};

/** What a row is, by its type column: a card payment and a bonus are money in or out like a transfer. */
const TYPES: readonly [RegExp, StatementBookingKind][] = [
  [/^(Zinszahlung|Zinsen|Interest payment|Interest)$/i, "interest"],
  [/^(Überweisung|Einzahlung|Auszahlung|Lastschrift|Transfer|Deposit|Withdrawal|Direct debit)$/i, "transfer"],
  [/^(Kartentransaktion|Card transaction)$/i, "transfer"],
  [/^(Gebühren|Gebühr|Fee|Fees)$/i, "fee"],
  [/^(Prämie|Bonus|Empfehlung|Referral|Reward)$/i, "transfer"],
  [/^(Handel|Trade)$/i, "trade"],
  [/^(Ertrag|Dividende|Earnings|Dividend)$/i, "dividend"],
  [/^(Steuern|Steuer|Taxes|Tax)$/i, "tax"],
];

const moneyOf = (cell: string | undefined) => (cell === undefined ? null : MONEY.exec(cell));

interface Row { readonly line: number; readonly cells: string[] }

/** The table's rows: from a line whose first cell is a day to the line ending in two amounts (amount, balance). */
function rowsOf(lines: readonly string[], from: number, name: string): Row[] {
  const rows: Row[] = [];
  let open: Row | null = null;
  for (let i = from; i < lines.length; i++) {
    const cells = pdfCells(lines[i]!);
    if (DAY.test(cells[0] ?? "")) {
      if (open) throw new PluginError("invalid-input", `${name}: line ${open.line}: a transaction without its amount and balance`);
      open = { line: i + 1, cells: [] };
    }
    if (!open) continue;
    open.cells.push(...cells);
    const n = open.cells.length;
    if (n >= 4 && moneyOf(open.cells[n - 1]) && moneyOf(open.cells[n - 2])) {
      rows.push(open);
      open = null;
    }
  }
  if (open) throw new PluginError("invalid-input", `${name}: line ${open.line}: a transaction without its amount and balance`);
  return rows;
}

function dayOf(cells: string[], name: string, line: number): IsoDate {
  const m = DAY.exec(cells.shift()!)!;
  let year = m[3];
  // A wrapped date: the year is the next cell, or starts it ("2025 Handel").
  if (!year) {
    const at = cells.findIndex((c) => /^\d{4}(\s|$)/.test(c));
    if (at < 0) throw new PluginError("invalid-input", `${name}: line ${line}: the date "${m[0]}" has no year`);
    year = cells[at]!.slice(0, 4);
    const rest = cells[at]!.slice(4).trim();
    if (rest === "") cells.splice(at, 1);
    else cells[at] = rest;
  }
  const month = MONTHS[m[2]!.toLowerCase().slice(0, 3)];
  const day = Number(m[1]);
  const iso = month ? `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}` : "";
  const parsed = new Date(`${iso}T00:00:00Z`);
  if (!month || Number.isNaN(parsed.getTime()) || parsed.getUTCDate() !== day) {
    throw new PluginError("invalid-input", `${name}: line ${line}: "${m[0]}${m[3] ? "" : ` ${year}`}" is not a date`);
  }
  return iso as IsoDate;
}

/** What both layouts tell the helper alike. */
const STATEMENT = {
  bank: "Trade Republic", describeByText: true, balanceNames: { opening: "opening balance", closing: "end balance" },
  documents: { trade: "Wertpapierabrechnung / securities settlement", dividend: "" },
} as const satisfies Partial<AccountStatementSpec>;

/** The transactions of a Trade Republic account statement's text (lines trimmed, blank ones dropped). */
export function parseTradeRepublicStatement(lines: readonly string[], name: string): ImportResult {
  const title = lines.findIndex((l) => STATEMENT_TITLE.test(l));
  if (lines.some((l) => LEGACY_HEADER.test(l)) && !/^(UMSATZÜBERSICHT|ACCOUNT TRANSACTIONS)$/i.test(lines[title] ?? "")) return parseLegacyStatement(lines, name);
  const money = lines.flatMap((l) => pdfCells(l).map((c) => moneyOf(c)).filter((m) => m !== null).map((m) => m[1] ?? m[2]!));
  const doc = pdfDocument(name, lines, { decimalMark: detectDecimalMark(money) });
  const amount = (cell: string) => { const m = moneyOf(cell)!; return doc.num(m[1] ?? m[2]); };

  // The overview's first product line: opening balance, money in, money out, end balance.
  const overviewAt = doc.indexOf(OVERVIEW);
  const overview = overviewAt >= 0 && overviewAt + 1 < title ? pdfCells(lines[overviewAt + 1]!).filter((c) => moneyOf(c)) : [];
  if (overview.length !== 4) throw new PluginError("invalid-input", `${name}: the account overview (opening balance, money in, money out, end balance) was not found`);
  const [opening, moneyIn, moneyOut, end] = overview.map(amount) as [Decimal, Decimal, Decimal, Decimal];

  const bookings: StatementBooking[] = [];
  let before = opening;
  for (const { line, cells } of rowsOf(lines, title + 1, name)) {
    const date = dayOf(cells, name, line);
    const balance = amount(cells.pop()!);
    const value = amount(cells.pop()!);
    // The running balance says whether the figure was money in or money out (the helper checks it follows).
    const signed = balance.lt(before) ? value.neg() : value;
    before = balance;
    const typeAt = cells.findIndex((c) => TYPES.some(([re]) => re.test(c)));
    const type = typeAt >= 0 ? cells.splice(typeAt, 1)[0]! : cells.shift() ?? "";
    bookings.push({ line, date, amount: signed, balance, kind: TYPES.find(([re]) => re.test(type))?.[1] ?? "unknown", type, text: cells.join(" ") });
  }
  const rows = accountStatement({ ...STATEMENT, name, currency: "EUR" as CurrencyCode, opening, closing: end, bookings, moneyInOut: { in: moneyIn, out: moneyOut } });
  return { ...rows, detectedFormat: "traderepublic/pdf/statement" };
}

/** The column header of the 2020–2023 layout, naming the account's currency. */
const LEGACY_HEADER = /^(?:BUCHUNGSTAG \/ BUCHUNGSTEXT|WERTSTELLUNG BUCHUNGSTEXT)\s+BETRAG IN ([A-Z]{3})$/;
const LEGACY_END = /^KONTOSTAND AM (\d{2}\.\d{2}\.\d{4}):?\s+(-?[\d.,]*\d) ([A-Z]{3})$/;
const LEGACY_DAY = /^\d{2}\.\d{2}\.\d{4}$/;
const LEGACY_AMOUNT = /^-?\d{1,3}(?:\.\d{3})*,\d{2}$|^-?\d+,\d{2}$/;
/** What a booking of the 2020–2023 layout is, from the start of its text. */
const LEGACY_KINDS: readonly [RegExp, StatementBookingKind][] = [
  [/^(Accepted PayIn|Einzahlung akzeptiert|Customer .* inpayed net|Auszahlung an Referenzkonto|PayOut|Überweisung|Lastschrift)\b/i, "transfer"],
  [/^(Your interest payment|Zinszahlung|Zinsen)\b/i, "interest"],
  [/^(Ausführung Handel|Sparplanausführung|Ausführung Sparplan|Handel)\b/i, "trade"],
  [/^(Ereignisausführung Ertrag|Ertrag|Dividende|Ausschüttung)\b/i, "dividend"],
  [/^(Steueroptimierung|Steuern|Steuer)\b/i, "tax"],
  [/^(Gebühr|Gebühren)\b/i, "fee"],
  [/^(Kartentransaktion|Kartenumsatz)\b/i, "transfer"],
];

/** The 2020–2023 statement: dated bookings with signed amounts, no opening balance to check them against. */
function parseLegacyStatement(lines: readonly string[], name: string): ImportResult {
  const header = lines.findIndex((l) => LEGACY_HEADER.test(l));
  const currency = LEGACY_HEADER.exec(lines[header]!)![1]!;
  const endAt = lines.findIndex((l, i) => i > header && LEGACY_END.test(l));
  if (endAt < 0) throw new PluginError("invalid-input", `${name}: the statement's end balance ("KONTOSTAND AM <date>: <amount> ${currency}") was not found: a page may be missing; the statement is not imported`);
  const amounts = lines.slice(header + 1, endAt).map((l) => pdfCells(l)).filter((c) => c.length >= 3 && LEGACY_DAY.test(c[0]!)).map((c) => c[c.length - 1]!);
  const doc = pdfDocument(name, lines, { decimalMark: detectDecimalMark(amounts) });
  const bookings: StatementBooking[] = [];
  for (let i = header + 1; i < endAt; i++) {
    const cells = pdfCells(lines[i]!);
    if (!LEGACY_DAY.test(cells[0] ?? "")) continue; // the page's footer and header
    const line = i + 1;
    const amountCell = cells.length >= 3 ? cells[cells.length - 1]! : "";
    if (!LEGACY_AMOUNT.test(amountCell)) {
      throw new PluginError("invalid-input", `${name}: line ${line}: "${lines[i]}" is a booking without its amount (or a value date without its booking); the statement is not imported`);
    }
    const text = [...cells.slice(1, -1)];
    // The second line: the value day, and the rest of the text.
    const next = pdfCells(lines[i + 1] ?? "");
    if (i + 1 < endAt && LEGACY_DAY.test(next[0] ?? "") && !(next.length >= 3 && LEGACY_AMOUNT.test(next[next.length - 1]!))) {
      text.push(...next.slice(1));
      i++;
    }
    const joined = text.join(" ");
    bookings.push({ line, date: doc.date(cells[0]!), amount: doc.num(amountCell), kind: LEGACY_KINDS.find(([re]) => re.test(joined))?.[1] ?? "unknown", type: "", text: joined });
  }
  const end = LEGACY_END.exec(lines[endAt]!)!;
  // No opening balance: the helper notes that the rows cannot be checked against the end balance.
  const rows = accountStatement({ ...STATEMENT, name, currency: currency as CurrencyCode, closing: doc.num(end[2]), closingDate: doc.date(end[1]!), bookings });
  return { ...rows, detectedFormat: "traderepublic/pdf/statement-2020" };
}
