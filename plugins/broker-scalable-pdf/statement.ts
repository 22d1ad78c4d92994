// Scalable Capital's monthly account statement (Kontoauszug of the Verrechnungskonto, its own layout since
// 2025, "Scalable Capital GmbH" or "Scalable Capital Bank GmbH"), read from the text `pdfText` extracts:
//
// "Kontoauszug", "Zeitraum 01.10.2025 - 31.10.2025", "Kontostand am 01.10.2025  1.250,40 EUR" (opening) and
// "Kontostand am 31.10.2025  2.095,71 EUR" (closing), the header "Buchung  Wertstellung  Beschreibung  Betrag"
// (repeated on each page), then one line per booking, "<booking day>  <value day>  <text>  <+/-amount> EUR",
// a trade's or a distribution's security on the line below ("10,00 Stk. <name> (<ISIN>)", "<name> (<ISIN>)").
//
// The opening balance plus every booking must make the closing balance, else the statement is refused
// naming both figures. Bookings a contract note or a dividend note carries (Kauf / Verkauf eines
// Finanzinstruments, the Handelsgebühr, Kapitalmaßnahme Ausschüttungen, US Quellensteuer) are skipped
// naming that document. The statement books taxes at customer level ("Auf Kundenebene einbehaltene oder
// erstattete Kapitalertragssteuer", "… Solidaritätszuschlag auf Kundenebene") without saying what for: on a
// day with a trade or a distribution they are that note's taxes and skipped; on a day with neither (interest,
// Vorabpauschale) they are imported; on a day with both kinds they cannot be told apart and are skipped
// with a warning naming their amount.
import { type ImportedTransaction, type ImportResult, type ImportSkippedRow, type ImportWarning, Decimal, PluginError } from "../../sdk/index.ts";
import { pdfDocument } from "../../sdk/import/pdf-document.ts";
import { skipper } from "../../sdk/import/skips.ts";

const BALANCE = /^Kontostand am (\d{2}\.\d{2}\.\d{4}) ([\d.]*\d,\d{2}) ([A-Z]{3})$/;
const HEADER = /^Buchung Wertstellung Beschreibung Betrag$/;
const BOOKING = /^(\d{2}\.\d{2}\.\d{4}) (\d{2}\.\d{2}\.\d{4}) (.+?) ([+-]?[\d.]*\d,\d{2}) ([A-Z]{3})$/;
const DATED = /^\d{2}\.\d{2}\.\d{4} \d{2}\.\d{2}\.\d{4}\b/;
const SECURITY = /^(?:.*\s)?\(([A-Z]{2}[A-Z0-9]{9}\d)\)$/;

type Kind = "customerTax" | "dividend" | "fee" | "interest" | "noteFee" | "noteTax" | "trade" | "transfer" | "withdrawal";
const KINDS: readonly [RegExp, Kind][] = [
  [/^(Kauf|Verkauf) eines Finanzinstruments$/i, "trade"],
  [/^Handelsgebühr$/i, "noteFee"],
  [/^(Kapitalmaßnahme )?(Ausschüttungen?|Dividenden?)$/i, "dividend"],
  [/Quellensteuer$/i, "noteTax"],
  [/auf Kundenebene|Kirchensteuer/i, "customerTax"],
  [/^Erhaltene Zinsen$/i, "interest"],
  [/^Überweisung$/i, "transfer"],
  [/^Abhebung vom Geldkonto$/i, "withdrawal"],
  [/gebühr$|^Entgelt/i, "fee"],
];

/** Whether `lines` (whitespace collapsed) are a Scalable Capital account statement. */
export function isScalableStatement(lines: readonly string[]): boolean {
  return lines.some((l) => /^Kontoauszug$/i.test(l)) && lines.some((l) => HEADER.test(l)) && lines.filter((l) => BALANCE.test(l)).length >= 2;
}

interface Booking { readonly date: string; readonly isin?: string; readonly kind: Kind | undefined; readonly line: number; readonly signed: Decimal; readonly text: string }

/** The transactions of a Scalable Capital account statement (lines trimmed, whitespace collapsed, blank ones dropped). */
export function parseScalableStatement(lines: readonly string[], name: string): ImportResult {
  const doc = pdfDocument(name, lines, { decimalMark: "," });
  const [openAt, closeAt] = lines.flatMap((l, i) => (BALANCE.test(l) ? [i] : [])) as [number, number];
  const open = BALANCE.exec(lines[openAt]!)!;
  const close = BALANCE.exec(lines[closeAt]!)!;
  const currency = open[3]!;
  if (close[3] !== currency) throw new PluginError("invalid-input", `${name}: the opening balance is in ${currency} but the closing one in ${close[3]}; the statement is not imported`);
  const opening = doc.num(open[2]);
  const closing = doc.num(close[2]);
  const money = (d: Decimal) => `${d.toFixed(2)} ${currency}`;

  const bookings: Booking[] = [];
  for (let i = closeAt + 1; i < lines.length; i++) {
    if (!DATED.test(lines[i]!)) continue; // a page's footer and header, a booking's security line (read below)
    const m = BOOKING.exec(lines[i]!);
    if (!m || m[5] !== currency) throw new PluginError("invalid-input", `${name}: line ${i + 1}: "${lines[i]}" is not a booking (booking day, value day, text, signed amount in ${currency}); the statement is not imported`);
    const security = SECURITY.exec(lines[i + 1] ?? "");
    const text = security && !DATED.test(lines[i + 1]!) ? `${m[3]} ${lines[i + 1]}` : m[3]!;
    bookings.push({ date: doc.date(m[1]!), kind: KINDS.find(([re]) => re.test(m[3]!))?.[1], line: i + 1, signed: doc.num(m[4]!.replace(/^\+/, "")), text, ...(security ? { isin: security[1] } : {}) });
  }
  const total = bookings.reduce((sum, b) => sum.plus(b.signed), opening);
  if (!total.eq(closing)) {
    throw new PluginError("invalid-input", `${name}: the opening balance ${money(opening)} and the bookings make ${money(total)} but the statement's closing balance is ${money(closing)}; the statement is not imported`);
  }

  // What else each day books: the customer-level taxes belong to a note's event or to the statement's own.
  const noteDays = new Set(bookings.filter((b) => b.kind === "trade" || b.kind === "dividend").map((b) => b.date));
  const ownDays = new Set(bookings.filter((b) => b.kind === "interest" || (b.kind === undefined && /^Vorabpauschale$/i.test(b.text))).map((b) => b.date));

  const base = `Scalable Capital ${name}`;
  const transactions: ImportedTransaction[] = [];
  const warnings: ImportWarning[] = [];
  const skippedRows: ImportSkippedRow[] = [];
  const skip = skipper(warnings, skippedRows);
  for (const { date, kind, line, signed, text } of bookings) {
    const row = (type: ImportedTransaction["type"], description: string) =>
      transactions.push({ row: line, date: date as never, type, quantity: "0" as never, cash: { amount: signed.toFixed(), currency } as never, description: `${base}: ${description}` });
    const what = `${text}, ${money(signed)}`;
    if (signed.isZero()) skip({ code: "zeroBooking", message: `Line ${line}: the booking "${text}" of ${date} moves no money (0.00 ${currency}), so there is nothing to import`, row: line, severity: "info" });
    else if (kind === "trade" || kind === "noteFee") skip({ code: "coveredByContractNote", message: `Line ${line}: ${kind === "trade" ? "a trade" : "the fee of a trade"} (${what}) is imported from its contract note (Wertpapierabrechnung); upload that beside the statement`, row: line, severity: "info" });
    else if (kind === "dividend" || kind === "noteTax") skip({ code: "coveredByDividendNotice", message: `Line ${line}: ${kind === "dividend" ? "a distribution" : "the withholding tax of a distribution"} (${what}) is imported from its dividend note; upload that beside the statement`, row: line, severity: "info" });
    else if (kind === "customerTax" && noteDays.has(date) && ownDays.has(date)) {
      skip({ code: "taxUnassigned", message: `Line ${line}: taxes (${what}) booked on a day with both a trade or distribution and interest or a Vorabpauschale: the statement does not say which they belong to, so they are not imported; enter them by hand unless the note of that day carries them`, row: line, severity: "warning" });
    } else if (kind === "customerTax" && noteDays.has(date)) skip({ code: "coveredByContractNote", message: `Line ${line}: taxes (${what}) of the trade or distribution booked that day are imported from its note; upload that beside the statement`, row: line, severity: "info" });
    else if (kind === "customerTax" && signed.gt(0)) {
      row("INTEREST", `tax refund: ${text}`);
      warnings.push({ code: "taxRefund", message: `Line ${line}: taxes refunded (${what}) are imported as INTEREST`, row: line, severity: "info" });
    } else if (kind === "customerTax") row("TAX", text);
    else if (kind === "interest") row(signed.gt(0) ? "INTEREST" : "FEE", signed.gt(0) ? text : `interest charged: ${text}`);
    else if (kind === "transfer" || kind === "withdrawal") row(signed.gt(0) ? "DEPOSIT" : "WITHDRAWAL", text);
    else if (kind === "fee") row(signed.gt(0) ? "INTEREST" : "FEE", signed.gt(0) ? `fee refund: ${text}` : text);
    else skip({ code: "unknownRowType", message: `Line ${line}: a booking "${text}" (${money(signed)}) this importer does not read; not imported, enter it by hand if it moved cash`, row: line, severity: "warning" });
  }
  return { transactions, warnings, skippedRows, detectedFormat: "scalable/pdf/statement" };
}
