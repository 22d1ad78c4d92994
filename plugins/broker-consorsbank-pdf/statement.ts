// Consorsbank's account statement (Kontoauszug, usually of the Verrechnungskonto), read from the text `pdfText`
// extracts. Layout (Cortal Consors 2012, Consorsbank 2020):
//
// - the letterhead ("Consorsbank • 90318 Nürnberg", earlier "Cortal Consors • …"), "Kontotyp Verrechnungskonto",
//   the balances with the sign after the figure, each label above its figure: "Buchungssaldo alt" / "1.030,40+",
//   "Buchungssaldo neu" / "2.019,05+" (2012: "Saldo alt", "Saldo neu");
// - per page "Kontoauszug <n>  Konto-Nr. …  Blatt <p> / <pages>", "Datum <dd.mm.yy>", and the table
//   "Text/Verwendungszweck  Datum  PNNr  Wert  Soll  Haben";
// - a booking: "<TYPE> [NR.<number>]  <dd.mm.>  <PNNr>  <value dd.mm.>  <amount>-|+" (a debit ends in "-", a credit
//   in "+"), then its text on the following lines (the party, its bank and IBAN, the purpose; a trade "EFFEKTEN"
//   gives "WP-ABRECHNUNG <number>", "Kauf|Verkauf  WKN: <wkn>" and the security's name);
// - between bookings, the balance by value day: "*** Kontostand zum <dd.mm.> ***  3.530,40+" (2012: "***
//   VALUTARISCHER SALDO PER <dd.mm.> ***"): the opening balance plus every booking of the statement whose value
//   day is on or before that day, wherever it stands in the list.
//
// Days are printed without the year: a booking's year is the one that puts it nearest the statement's date. Every
// balance line and the closing balance are checked; a statement that does not add up is refused.
import { type CurrencyCode, Decimal, type ImportResult, type IsoDate, PluginError } from "../../sdk/index.ts";
import { accountStatement, type StatementBooking, type StatementBookingKind } from "../../sdk/import/account-statement.ts";
import { pdfDocument } from "../../sdk/import/pdf-document.ts";

const AMOUNT = String.raw`([\d.]*\d,\d{2})([+-])`;
const TABLE = /^Text\/Verwendungszweck\s+Datum\s+PNNr\s+Wert\s+Soll\s+Haben$/;
const TITLE = /^Kontoauszug \d+\s+Konto-Nr\./;
const BOOKING = new RegExp(`^(\\S.*?)\\s+(\\d{2})\\.(\\d{2})\\.\\s+(\\d{4})\\s+(\\d{2})\\.(\\d{2})\\.\\s+${AMOUNT}$`);
const BALANCE = new RegExp(`^\\*\\*\\*\\s*(?:Kontostand zum|VALUTARISCHER SALDO PER)\\s+(\\d{2})\\.(\\d{2})\\.\\s*\\*\\*\\*\\s+${AMOUNT}$`, "i");
/** Lines that end a booking's text: the page's footer and the next page's head. */
const BOUNDARY = /^(Hinweis für Kontoauszüge|Consorsbank ist|Cortal Consors|Standort|Kontoauszug\s+\d+|Datum\s+\d|BIC|IBAN|Text\/Verwendungszweck)/;

const KINDS: readonly [RegExp, StatementBookingKind][] = [
  [/DIVIDENDE|ERTRAG|ERTRAEGNIS|KUPON|AUSSCHUETTUNG/i, "dividend"],
  [/ZINS|ABSCHLUSS/i, "interest"],
  [/STEUER/i, "tax"],
  [/ENTGELT|GEBUEHR|GEBÜHR|SPESEN|PROVISION/i, "fee"],
  [/UEBERW|ÜBERW|GUTSCHRIFT|LASTSCHRIFT|DAUERAUFTRAG|EINZAHLUNG|AUSZAHLUNG|BARGELD/i, "transfer"],
];

/** A Consorsbank account statement: the bank's name in the letterhead, the statement's page title and its table header. */
export function isConsorsbankStatement(lines: readonly string[]): boolean {
  return /\bConsorsbank\b|\bCortal Consors\b/i.test(lines[0] ?? "") && lines.some((l) => TITLE.test(l)) && lines.some((l) => TABLE.test(l));
}

/** The bookings of a Consorsbank account statement's text (lines trimmed, blank ones and page breaks dropped) as ledger rows. */
export function parseConsorsbankStatement(lines: readonly string[], name: string): ImportResult {
  const doc = pdfDocument(name, lines, { decimalMark: "," });
  const tableAt = doc.indexOf(TABLE);
  const balance = (label: RegExp, what: string): Decimal => {
    const at = doc.indexOf(label, 0, tableAt);
    const m = at < 0 ? null : new RegExp(`(?:^|\\s)${AMOUNT}$`).exec(lines[at]!) ?? new RegExp(`^${AMOUNT}$`).exec(lines[at + 1] ?? "");
    const found = doc.need(m, `the ${what} above the bookings`);
    return doc.signed(found[1]!, found[2]!);
  };
  const opening = balance(/^(Buchungssaldo|Saldo) alt\b/, "opening balance (Buchungssaldo alt)");
  const closing = balance(/^(Buchungssaldo|Saldo) neu\b/, "closing balance (Buchungssaldo neu)");
  const dated = doc.need(doc.find(/^Datum\s+(\d{2})\.(\d{2})\.(\d{2}|\d{4})\b/), "the statement's date (Datum)");
  const statementDay = Date.UTC(Number(dated[3]!.length === 2 ? `20${dated[3]}` : dated[3]), Number(dated[2]) - 1, Number(dated[1]));
  // A day printed without its year: the year that puts it nearest the statement's date (a December booking on a January statement).
  const dayOf = (day: string, month: string): IsoDate => {
    const year = new Date(statementDay).getUTCFullYear();
    const best = [year - 1, year, year + 1].map((y) => ({ y, t: Date.UTC(y, Number(month) - 1, Number(day)) })).sort((a, b) => Math.abs(a.t - statementDay) - Math.abs(b.t - statementDay))[0]!;
    return doc.date(`${day}.${month}.${best.y}`);
  };

  const bookings: (StatementBooking & { readonly value: IsoDate })[] = [];
  const balances: { line: number; day: IsoDate; amount: Decimal }[] = [];
  for (let i = tableAt + 1; i < lines.length; i++) {
    const b = BALANCE.exec(lines[i]!);
    if (b) { balances.push({ line: i + 1, day: dayOf(b[1]!, b[2]!), amount: doc.signed(b[3]!, b[4]!) }); continue; }
    const m = BOOKING.exec(lines[i]!);
    if (!m) continue;
    const type = m[1]!.split(/\s+/)[0]!;
    const text: string[] = [];
    for (let j = i + 1; j < lines.length && !BOOKING.test(lines[j]!) && !BALANCE.test(lines[j]!) && !BOUNDARY.test(lines[j]!); j++) text.push(lines[j]!.replace(/\s+/g, " "));
    const joined = text.join(" ");
    const kind: StatementBookingKind = /^EFFEKTEN$/i.test(type)
      ? (/^(Kauf|Verkauf)\b/m.test(text.join("\n")) ? "trade" : "security")
      : KINDS.find(([re]) => re.test(type))?.[1] ?? "unknown";
    bookings.push({ line: i + 1, date: dayOf(m[2]!, m[3]!), value: dayOf(m[5]!, m[6]!), amount: doc.signed(m[7]!, m[8]!), kind, type, text: joined });
  }
  // Each balance by value day is the opening balance plus every booking valued on or before that day.
  for (const { line, day, amount } of balances) {
    const sum = bookings.filter((b) => b.value <= day).reduce((acc, b) => acc.plus(b.amount), opening);
    if (!sum.eq(amount)) {
      throw new PluginError("invalid-input", `${name}: line ${line}: the balance on ${day} is printed as ${amount.toFixed(2)} EUR but the opening balance and the bookings valued by then make ${sum.toFixed(2)} EUR; the statement is not imported`);
    }
  }
  const rows = accountStatement({
    name, bank: "Consorsbank", currency: "EUR" as CurrencyCode, opening, closing, bookings,
    documents: { trade: "KAUF / VERKAUF contract note", dividend: "Dividendengutschrift / Ertragsgutschrift" },
  });
  return { ...rows, detectedFormat: "consorsbank/pdf/statement" };
}
