// Scalable Capital's monthly account statement (Kontoauszug of the Verrechnungskonto, its own layout since
// 2025, "Scalable Capital GmbH" or "Scalable Capital Bank GmbH"), read from the text `pdfText` extracts:
//
// "Kontoauszug", "Zeitraum 01.10.2025 - 31.10.2025", "Kontostand am 01.10.2025  1.250,40 EUR" (opening) and
// "Kontostand am 31.10.2025  2.095,71 EUR" (closing), the header "Buchung  Wertstellung  Beschreibung  Betrag"
// (repeated on each page), then one line per booking, "<booking day>  <value day>  <text>  <+/-amount> EUR",
// a trade's or a distribution's security on the line below ("10,00 Stk. <name> (<ISIN>)", "<name> (<ISIN>)").
//
// The rows are the SDK's `accountStatement`: the opening balance plus every booking must make the closing
// balance, else the statement is refused naming both figures. Bookings a contract note or a dividend note
// carries (Kauf / Verkauf eines Finanzinstruments, the Handelsgebühr, Kapitalmaßnahme Ausschüttungen, US
// Quellensteuer) are skipped naming that document. The statement books taxes at customer level ("Auf
// Kundenebene einbehaltene oder erstattete Kapitalertragssteuer", "… Solidaritätszuschlag auf Kundenebene")
// without saying what for: they are the helper's `dayTax`, assigned by the day's other bookings (a
// Vorabpauschale is a booking they may be the tax of, like interest).
import { type CurrencyCode, type ImportResult, PluginError } from "../../sdk/index.ts";
import { accountStatement, type StatementBooking, type StatementBookingKind } from "../../sdk/import/account-statement.ts";
import { pdfDocument } from "../../sdk/import/pdf-document.ts";

const BALANCE = /^Kontostand am (\d{2}\.\d{2}\.\d{4}) ([\d.]*\d,\d{2}) ([A-Z]{3})$/;
const HEADER = /^Buchung Wertstellung Beschreibung Betrag$/;
const BOOKING = /^(\d{2}\.\d{2}\.\d{4}) (\d{2}\.\d{2}\.\d{4}) (.+?) ([+-]?[\d.]*\d,\d{2}) ([A-Z]{3})$/;
const DATED = /^\d{2}\.\d{2}\.\d{4} \d{2}\.\d{2}\.\d{4}\b/;
const SECURITY = /^(?:.*\s)?\(([A-Z]{2}[A-Z0-9]{9}\d)\)$/;

/** What a booking is, from its text, and what a skip reason calls it where "a trade" or "a dividend" does not fit. */
const KINDS: readonly [RegExp, StatementBookingKind, string?][] = [
  [/^(Kauf|Verkauf) eines Finanzinstruments$/i, "trade"],
  [/^Handelsgebühr$/i, "trade", "the fee of a trade"],
  [/^(Kapitalmaßnahme )?(Ausschüttungen?|Dividenden?)$/i, "dividend", "a distribution"],
  [/Quellensteuer$/i, "dividend", "the withholding tax of a distribution"],
  [/auf Kundenebene|Kirchensteuer/i, "dayTax"],
  [/^Erhaltene Zinsen$/i, "interest"],
  [/^(Überweisung|Abhebung vom Geldkonto)$/i, "transfer"],
  [/gebühr$|^Entgelt/i, "fee"],
];

/** Whether `lines` (whitespace collapsed) are a Scalable Capital account statement. */
export function isScalableStatement(lines: readonly string[]): boolean {
  return lines.some((l) => /^Kontoauszug$/i.test(l)) && lines.some((l) => HEADER.test(l)) && lines.filter((l) => BALANCE.test(l)).length >= 2;
}

/** The transactions of a Scalable Capital account statement (lines trimmed, whitespace collapsed, blank ones dropped). */
export function parseScalableStatement(lines: readonly string[], name: string): ImportResult {
  const doc = pdfDocument(name, lines, { decimalMark: "," });
  const [openAt, closeAt] = lines.flatMap((l, i) => (BALANCE.test(l) ? [i] : [])) as [number, number];
  const open = BALANCE.exec(lines[openAt]!)!;
  const close = BALANCE.exec(lines[closeAt]!)!;
  const currency = open[3]!;
  if (close[3] !== currency) throw new PluginError("invalid-input", `${name}: the opening balance is in ${currency} but the closing one in ${close[3]}; the statement is not imported`);

  const bookings: StatementBooking[] = [];
  for (let i = closeAt + 1; i < lines.length; i++) {
    if (!DATED.test(lines[i]!)) continue; // a page's footer and header, a booking's security line (read below)
    const m = BOOKING.exec(lines[i]!);
    if (!m || m[5] !== currency) throw new PluginError("invalid-input", `${name}: line ${i + 1}: "${lines[i]}" is not a booking (booking day, value day, text, signed amount in ${currency}); the statement is not imported`);
    const security = SECURITY.exec(lines[i + 1] ?? "");
    const text = security && !DATED.test(lines[i + 1]!) ? `${m[3]} ${lines[i + 1]}` : m[3]!;
    const [, kind, called] = KINDS.find(([re]) => re.test(m[3]!)) ?? [];
    bookings.push({
      line: i + 1, date: doc.date(m[1]!), amount: doc.num(m[4]!.replace(/^\+/, "")), kind: kind ?? "unknown", type: "", text,
      ...(called ? { called } : {}), ...(/^Vorabpauschale$/i.test(m[3]!) ? { taxed: true } : {}),
    });
  }
  const rows = accountStatement({
    name, bank: "Scalable Capital", currency: currency as CurrencyCode, opening: doc.num(open[2]), closing: doc.num(close[2]), bookings,
    describeByText: true, showBookingsTotal: false,
    documents: { trade: "Wertpapierabrechnung", dividend: "" }, documentWords: { dividend: "dividend note" },
  });
  return { ...rows, detectedFormat: "scalable/pdf/statement" };
}
