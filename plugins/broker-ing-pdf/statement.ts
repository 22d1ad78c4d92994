// ING Germany's account statement (Kontoauszug of the Girokonto, the Extra-Konto or another account the Direkt-Depot
// settles through), read from the text `pdfText` extracts. Layout (2020–2026):
//
// - the letterhead "ING-DiBa AG · 60628 Frankfurt am Main", "Datum <date>", beside the address "Alter Saldo
//   1.204,50 Euro" and "Neuer Saldo 1.204,37 Euro", then "<account> Nummer <number>" and "Kontoauszug <month>
//   <year>" (or "Kontoauszug <year>");
// - the table "Buchung  Buchung / Verwendungszweck  Betrag (EUR)" / "Valuta": a booking's first line is "<booking
//   day>  <type>  <party>  <signed amount>" ("Gutschrift", "Lastschrift", "Ueberweisung", "Wertpapierkauf",
//   "Zinsertrag", "Kapitalertragsteuer", "Entgelt", …), the next line starts with the value day and the purpose
//   ("WP-ABRECHNUNG <number> Kauf ISIN <isin> <name>" for a trade), more lines (mandate, reference) may follow.
//   Each page repeats the account line, the title and the table header; the table ends with "Neuer Saldo <amount>",
//   followed by the interest computation of the period ("Abschluss für Konto …"), which is not a booking.
//
// The statement prints no running balance: the bookings must lead from the opening to the closing balance.
// The older layout with a running balance ("Valuta Vorgang Umsatz Valutensaldo", 2010) is not read.
import { type CurrencyCode, type ImportResult, PluginError } from "../../sdk/index.ts";
import { accountStatement, namesSecurity, type StatementBooking, type StatementBookingKind } from "../../sdk/import/account-statement.ts";
import { pdfDocument } from "../../sdk/import/pdf-document.ts";

const DATE = String.raw`\d{2}\.\d{2}\.\d{4}`;
const AMOUNT = String.raw`-?[\d.]*\d,\d{2}`;

/** The statement's title and account lines. */
export const STATEMENT_TITLE = /^Kontoauszug\s+(?:\p{L}+\s+)?\d{4}$/u;
export const STATEMENT_ACCOUNT = /^(.+?)\s+Nummer\s+\S+$/;
const TABLE = /^Buchung\s+Buchung \/ Verwendungszweck\s+Betrag \(EUR\)$/;
const BOOKING = new RegExp(`^(${DATE})\\s+(.+?)\\s+(${AMOUNT})$`);
const VALUE_DAY = new RegExp(`^${DATE}(?:\\s+(.*))?$`);
const END = new RegExp(`^Neuer Saldo\\s+(${AMOUNT})$`);
const FOOTER = /^(ING-DiBa AG|Steuernummer:|\w+_T$)/;

const KINDS: readonly [RegExp, StatementBookingKind][] = [
  [/^Wertpapier(kauf|verkauf)\b/i, "trade"],
  [/^(Dividende|Dividendengutschrift|Ertrag|Ertragsgutschrift|Zins\/Dividende|Fondsausschüttung|Ausschüttung)/i, "dividend"],
  [/^(Zinsertrag|Zinsen|Habenzinsen|Sollzinsen|Abschluss)/i, "interest"],
  [/^(Kapitalertrags?teuer|Solidaritätszuschlag|Kirchensteuer|Steuer)/i, "tax"],
  [/^(Entgelt|Gebühr|Depotgebühr|Kontoführung)/i, "fee"],
  [/^(Gutschrift|Lastschrift|Ueberweisung|Überweisung|Echtzeitüberweisung|Dauerauftrag|Abbuchung|Gehalt|Rente|Bargeld|Retoure|Rücküberweisung|Einzahlung|Auszahlung|Umbuchung)/i, "transfer"],
];

/** An ING account statement: ING-DiBa's letterhead first, the statement's title and its table header. */
export function isIngStatement(lines: readonly string[]): boolean {
  return /\bING-DiBa\b/.test(lines[0] ?? "") && lines.some((l) => STATEMENT_TITLE.test(l)) && lines.some((l) => TABLE.test(l));
}

/** The bookings of an ING account statement's text (lines trimmed, blank ones and page breaks dropped) as ledger rows. */
export function parseIngStatement(lines: readonly string[], name: string): ImportResult {
  const doc = pdfDocument(name, lines, { decimalMark: "," });
  const tableAt = doc.indexOf(TABLE);
  const header = (label: string) => doc.num(doc.need(doc.find(new RegExp(`\\b${label}\\s+(${AMOUNT})\\s+Euro$`), 0, tableAt), `the ${label} (${label} … Euro) above the bookings`)[1]);
  const opening = header("Alter Saldo");
  const closing = header("Neuer Saldo");
  const account = doc.need(doc.find(STATEMENT_ACCOUNT, 0, tableAt), "the account (<account> Nummer …)")[1]!;
  const endAt = doc.indexOf(END, tableAt);
  if (endAt < 0) throw new PluginError("invalid-input", `${name}: the end of the bookings (Neuer Saldo) was not found; the statement is not imported`);
  const printed = doc.num(END.exec(lines[endAt]!)![1]);
  if (!printed.eq(closing)) {
    throw new PluginError("invalid-input", `${name}: the bookings end at Neuer Saldo ${printed.toFixed(2)} EUR but the statement's head prints ${closing.toFixed(2)} EUR; the statement is not imported`);
  }

  const bookings: StatementBooking[] = [];
  for (let i = tableAt + 1; i < endAt; i++) {
    const m = BOOKING.exec(lines[i]!);
    const valuta = m && i + 1 < endAt ? VALUE_DAY.exec(lines[i + 1]!) : null;
    if (!m || !valuta) continue;
    const cells = m[2]!.split(/\s{2,}/);
    const first = cells.shift()!;
    const kind = KINDS.find(([re]) => re.test(first))?.[1] ?? "unknown";
    // A type printed with its party in one cell ("Lastschrift Stadtwerke"): the type is its first word.
    const type = cells.length > 0 || kind === "unknown" ? first : /^\S+/.exec(first)![0];
    const party = type === first ? cells : [first.slice(type.length).trim(), ...cells];
    const text = [...party, valuta[1] ?? ""].filter((c) => c !== "");
    // Further lines up to the next booking: mandate and reference, or a security's numbers; a trade's purpose
    // wraps the security's name onto the line after it ("… ISIN DE000ING0019 Beispiel Logistik" "AG").
    for (let j = i + 2; j < endAt && !BOOKING.test(lines[j]!) && !FOOTER.test(lines[j]!) && !TABLE.test(lines[j]!); j++) {
      if (namesSecurity(lines[j]!) || (j === i + 2 && namesSecurity(valuta[1] ?? "") && !/^(Referenz|Mandat):/.test(lines[j]!))) text.push(lines[j]!);
    }
    bookings.push({ line: i + 1, date: doc.date(m[1]!), amount: doc.num(m[3]), kind, type, text: text.join(" ") });
  }
  const rows = accountStatement({
    name, bank: `ING ${account}`, currency: "EUR" as CurrencyCode, opening, closing, bookings,
    documents: { trade: "Wertpapierabrechnung", dividend: "Dividendengutschrift / Ertragsgutschrift" },
  });
  return { ...rows, detectedFormat: "ing/pdf/statement" };
}
