// flatex's account statement (Kontoauszug of the Kontokorrentkonto, the same layout from FinTech Group
// Bank's 2016 statements to flatexDEGIRO's), read from the text `pdfText` extracts:
//
// "Kontoauszug Nr:  004/2023  Seite 1 von 2", "Kontowährung:  EUR", "Alter Saldo vom  30.09.2023  in EUR
// 2.204,18+", the header "Buchungs-  Valuta  Buchungstext  Betrag" / "datum  in EUR" (repeated on each
// page), then one line per booking, "<DD.MM.>  <DD.MM.>  <text>  <amount>+|-" (booking day, value day,
// the sign after the figure; a debit is sometimes printed "-1.000,00-"), its further text on the lines
// below (an order number, the payer's bank, IBAN and name), ended by "Neuer Saldo 31.12.2023 Nr. 004/2023
// Währung EUR  3.992,52+". The days have no year: a day after the new balance's is of the year before.
//
// The rows are the SDK's `accountStatement`: the old balance plus every booking must make the new
// balance, else the statement is refused naming both figures; bookings a contract note or a dividend
// notice carries (Ausführung ORDER, the order's Gebühren, Dividendenzahlung, Erträgnisausschüttung) are
// skipped naming that document; "Kundenhandel FX" is the euro side of a currency exchange, skipped with
// a warning.
import { type CurrencyCode, type ImportResult, type IsoDate, PluginError } from "../../sdk/index.ts";
import { accountStatement, type StatementBooking, type StatementBookingKind } from "../../sdk/import/account-statement.ts";
import { pdfCells, pdfDocument } from "../../sdk/import/pdf-document.ts";

/** A flatex account statement: its number line and its opening balance. */
export const STATEMENT_NUMBER = /^Kontoauszug Nr:?\s+\d+\/\d{4}\b/;
const OLD_BALANCE = /^Alter Saldo vom\s+(\d{2}\.\d{2}\.\d{4})\s+in ([A-Z]{3})\s+([\d.]+,\d{2})([+-])$/;
const NEW_BALANCE = /^Neuer Saldo\s+(\d{2}\.\d{2}\.\d{4})\b.*?\s([A-Z]{3})\s+([\d.]+,\d{2})([+-])$/;
const BOOKING_DAY = /^(\d{2})\.(\d{2})\.$/;
const AMOUNT = /^(-?)([\d.]*\d,\d{2})([+-])$/;

/** What a booking is, from the start of its text; an order's costs booked apart go to its contract note like the trade. */
const KINDS: readonly [RegExp, StatementBookingKind, string?][] = [
  [/^Ausführung ORDER\b/i, "trade"],
  [/^Gebühren Ordernummer\b/i, "trade", "the fee of an order"],
  [/^(Dividendenzahlung|Erträgnisausschüttung|Ertragsausschüttung)\b/i, "dividend"],
  [/^Kundenhandel FX\b/i, "exchange"],
  [/^Zinsabschluss\b/i, "interest"],
  [/^(Überweisung|Lastschrift|Gutschrift|Einzahlung|Auszahlung)\b/i, "transfer"],
  [/^(Depotservicegebühr|Depotgebühren|Gebühr|Gebühren|Entgelt)\b/i, "fee"],
  [/^(Steuertopfoptimierung|Steuer)/i, "tax"],
];


/** Whether `lines` (trimmed) are a flatex account statement. */
export function isFlatexStatement(lines: readonly string[]): boolean {
  return lines.some((l) => STATEMENT_NUMBER.test(l)) && lines.some((l) => OLD_BALANCE.test(l.replace(/\s+/g, " ")));
}

/** The transactions of a flatex account statement's text (lines trimmed, blank ones dropped). */
export function parseFlatexStatement(lines: readonly string[], name: string): ImportResult {
  const doc = pdfDocument(name, lines, { decimalMark: "," });
  const single = lines.map((l) => l.replace(/\s+/g, " "));
  const oldAt = single.findIndex((l) => OLD_BALANCE.test(l));
  const old = OLD_BALANCE.exec(single[oldAt]!)!;
  const currency = old[2]!;
  const newAt = single.findIndex((l, i) => i > oldAt && NEW_BALANCE.test(l));
  if (newAt < 0) throw new PluginError("invalid-input", `${name}: the statement's new balance ("Neuer Saldo <date> … <amount>") was not found: a page may be missing; the statement is not imported`);
  const last = NEW_BALANCE.exec(single[newAt]!)!;
  if (last[2] !== currency) throw new PluginError("invalid-input", `${name}: the old balance is in ${currency} but the new one in ${last[2]}; the statement is not imported`);
  const opening = doc.signed(old[3]!, old[4]!);
  const closing = doc.signed(last[3]!, last[4]!);
  const endDay = doc.date(last[1]!);
  const [endYear, endMonthDay] = [Number(endDay.slice(0, 4)), endDay.slice(5)];

  const bookings: StatementBooking[] = [];
  for (let i = oldAt + 1; i < newAt; i++) {
    const cells = pdfCells(lines[i]!);
    const day = BOOKING_DAY.exec(cells[0] ?? "");
    if (!day) continue; // a booking's further text, or a page's footer and header
    const line = i + 1;
    const amount = AMOUNT.exec(cells[cells.length - 1] ?? "");
    // "-1.000,00-" is a debit; a figure signed both ways cannot be read.
    if (!amount || cells.length < 4 || !BOOKING_DAY.test(cells[1]!) || (amount[1] === "-" && amount[3] === "+")) {
      throw new PluginError("invalid-input", `${name}: line ${line}: "${lines[i]}" is not a booking (booking day, value day, text, amount with its sign); the statement is not imported`);
    }
    const md = `${day[2]}-${day[1]}`;
    const date = doc.date(`${day[1]}.${day[2]}.${md > endMonthDay ? endYear - 1 : endYear}`) as IsoDate;
    const text = cells.slice(2, -1).join(" ");
    const [, kind, called] = KINDS.find(([re]) => re.test(text)) ?? [];
    bookings.push({ line, date, amount: doc.signed(amount[2]!, amount[3]!), kind: kind ?? "unknown", type: "", text, ...(called ? { called } : {}) });
  }
  const rows = accountStatement({
    name, bank: "flatex", currency: currency as CurrencyCode, opening, closing, bookings, describeByText: true, showBookingsTotal: false,
    balanceNames: { opening: "old balance", closing: "new balance" },
    documents: { trade: "Wertpapierabrechnung", dividend: "Dividendengutschrift / Ertragsmitteilung" },
  });
  return { ...rows, detectedFormat: "flatex/pdf/statement" };
}
