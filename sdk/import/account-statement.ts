import type { IsoDate } from "../dates.ts";
import { PluginError } from "../errors.ts";
import type { ImportedTransaction, ImportSkippedRow, ImportWarning } from "../kinds/import-plugin.ts";
import { type CurrencyCode, Decimal } from "../money.ts";
import { skipper } from "./skips.ts";

/**
 * What a booking of a bank account statement is, as its importer reads the booking's type:
 * `transfer` (a deposit, a payout, a direct debit, a card payment), `interest`, `fee`, `tax`,
 * `trade` (a securities purchase or sale, or its fee booked on its own line), `dividend` (a dividend
 * or fund distribution, or its withholding tax booked on its own line), `security` (a booking on a
 * security whose type does not say which), `exchange` (one currency's side of a currency exchange,
 * whose other side is not on the statement), `dayTax` (a tax the statement books without saying what
 * for, as Scalable's taxes "auf Kundenebene": see {@link accountStatement}), `unknown` (a type the
 * importer does not know).
 */
export type StatementBookingKind = "dayTax" | "dividend" | "exchange" | "fee" | "interest" | "security" | "tax" | "trade" | "transfer" | "unknown";

/** One booking of an account statement: its line in the document's text, day, signed amount (money in positive) and what the statement prints. */
export interface StatementBooking {
  readonly amount: Decimal;
  /** The running balance the statement prints after this booking, where it prints one: checked against the balance before it and the amount. */
  readonly balance?: Decimal;
  /** What a skip reason calls the booking where its kind's word does not fit ("a distribution", "the fee of a trade"; default "a trade", "a dividend"). */
  readonly called?: string;
  readonly date: IsoDate;
  readonly kind: StatementBookingKind;
  readonly line: number;
  /** A booking a `dayTax` of the same day may be the tax of, besides interest (a Vorabpauschale). */
  readonly taxed?: boolean;
  /** The counterparty and purpose as printed (for the description and the skip reason). */
  readonly text: string;
  /** The booking's type as printed ("Lastschrift", "EFFEKTEN", "Entgelte"); "" on a statement without a type column, whose text says what a booking is. */
  readonly type: string;
}

/** What {@link accountStatement} reads. */
export interface AccountStatementSpec {
  /** Who issued the statement, first in every description ("comdirect"). */
  readonly bank: string;
  /** What the statement calls its two balances in a refusal or a warning; default "opening balance" and "closing balance" (flatex: "old balance", "new balance"). */
  readonly balanceNames?: { readonly closing: string; readonly opening: string };
  readonly bookings: readonly StatementBooking[];
  /** The balance the statement prints after its last booking. */
  readonly closing: Decimal;
  /** The day of the closing balance, named in the warning of a statement without an opening balance. */
  readonly closingDate?: IsoDate;
  readonly currency: CurrencyCode;
  /** Descriptions of the imported rows carry the booking's text without its type, a note before it ("tax refund: …"); for a statement whose type is a broad category ("Kartentransaktion") or that prints none. Default: the type and the text, a note after them ("… (debit interest)"). */
  readonly describeByText?: boolean;
  /** The bank's names of the documents that carry a trade and a dividend, for the skip reasons ("" when the bank gives none). */
  readonly documents: { readonly dividend: string; readonly trade: string };
  /** The words for those documents in a skip reason; default "contract note" and "dividend notice". */
  readonly documentWords?: { readonly dividend?: string; readonly trade?: string };
  /** The money in and money out the statement prints (Trade Republic's overview): the bookings' credits and debits must make them. */
  readonly moneyInOut?: { readonly in: Decimal; readonly out: Decimal };
  /** The document's name (its file name), first in every message. */
  readonly name: string;
  /** The balance the statement prints before its first booking; absent when the statement prints none: its rows are then not checked, and an info `statementUnreconciled` says so. */
  readonly opening?: Decimal;
  /** Whether a refusal names the bookings' total beside the balance they make; default true. */
  readonly showBookingsTotal?: boolean;
}

/** The rows of an account statement: its transactions and, for each booking without one, the reason. */
export interface AccountStatementRows {
  readonly skippedRows: ImportSkippedRow[];
  readonly transactions: ImportedTransaction[];
  readonly warnings: ImportWarning[];
}

/** An ISIN, or the words a German bank puts beside a security's number on a booking. */
const SECURITY = /\b[A-Z]{2}[A-Z0-9]{9}\d\b|\bWKN\b|\bWPKNR\b|\bWP-ABRECHNUNG\b/;

/** A booking names a security when its text holds an ISIN, a WKN or a securities settlement number. */
export function namesSecurity(text: string): boolean {
  return SECURITY.test(text);
}

const money = (d: Decimal) => `${d.toFixed(2)}`;
const refused = (message: string) => new PluginError("invalid-input", `${message}; the statement is not imported`);

/**
 * Whether the statement adds up; throws naming both figures when it does not. With running balances,
 * each booking's balance must follow from the one before it; the money in and out, where printed, must
 * be the bookings' credits and debits. Answers the warning of a statement without an opening balance.
 */
function reconcile(spec: AccountStatementSpec): ImportWarning | null {
  const { name, currency, opening, closing } = spec;
  const names = spec.balanceNames ?? { opening: "opening balance", closing: "closing balance" };
  const cash = (d: Decimal) => `${money(d)} ${currency}`;
  if (opening === undefined) {
    return {
      code: "statementUnreconciled",
      message: `${name}: the statement prints no ${names.opening}, so its rows cannot be checked against its ${names.closing} (${cash(closing)}${spec.closingDate ? ` on ${spec.closingDate}` : ""}); compare the broker's cash balance after the import`,
      severity: "info",
    };
  }
  if (spec.bookings.some((b) => b.balance !== undefined)) {
    let before = opening;
    for (const b of spec.bookings) {
      const after = before.plus(b.amount);
      if (b.balance !== undefined && !after.eq(b.balance)) {
        throw refused(`${name}: line ${b.line}: the balance ${cash(b.balance)} does not follow from the balance before it (${cash(before)}) and the amount ${cash(b.amount.abs())}`);
      }
      before = b.balance ?? after;
    }
    if (!before.eq(closing)) throw refused(`${name}: the rows add up to ${cash(before)} but the statement's ${names.closing} is ${cash(closing)}`);
  } else {
    const total = spec.bookings.reduce((sum, b) => sum.plus(b.amount), new Decimal(0));
    const end = opening.plus(total);
    if (!end.eq(closing)) {
      const shown = spec.showBookingsTotal ?? true;
      throw refused(`${name}: the ${names.opening} ${cash(opening)} and the bookings${shown ? ` (${cash(total)})` : ""} make ${cash(end)}${shown ? "," : ""} but the statement's ${names.closing} is ${cash(closing)}`);
    }
  }
  if (spec.moneyInOut) {
    const credits = spec.bookings.filter((b) => b.amount.gt(0)).reduce((sum, b) => sum.plus(b.amount), new Decimal(0));
    const debits = spec.bookings.filter((b) => b.amount.lt(0)).reduce((sum, b) => sum.minus(b.amount), new Decimal(0));
    if (!credits.eq(spec.moneyInOut.in) || !debits.eq(spec.moneyInOut.out)) {
      throw refused(`${name}: the rows bring ${cash(credits)} in and ${cash(debits)} out but the statement prints ${cash(spec.moneyInOut.in)} in and ${cash(spec.moneyInOut.out)} out`);
    }
  }
  return null;
}

/**
 * The ledger rows of a bank account statement (a broker's settlement account, a current account),
 * the same way for every bank: first the statement must add up (the opening balance plus every
 * booking is the closing balance; with running balances (`balance`) each booking's from the one before;
 * with `moneyInOut` the credits and debits; else the whole statement is refused naming both figures,
 * never imported with a gap; a statement that prints no opening balance is read with an info
 * `statementUnreconciled` instead); then a deposit or payout is a DEPOSIT or a WITHDRAWAL, interest an
 * INTEREST row (debit interest a FEE), a fee a FEE row, a tax without a security a TAX row (a refund of
 * fees an INTEREST row, of taxes an INTEREST row with an info `taxRefund`). A trade, a dividend, a tax on
 * a security, and any other booking naming a security, are left to the contract note or dividend notice
 * that carries them: each is a `skippedRows` entry naming that document, so a statement uploaded beside
 * them books nothing twice. A `dayTax` (a tax the statement does not say the reason of) is the tax of the
 * trade or dividend booked the same day, skipped; on a day with neither it is a tax like any other; on
 * a day with both such a booking and interest (or a `taxed` booking) it cannot be told and is skipped
 * with a warning `taxUnassigned`. An `exchange` is skipped with a warning `currencyExchange`; a booking
 * of a type the importer does not know with a warning `unknownRowType`.
 * Example: `accountStatement({ name: "k.pdf", bank: "ING", currency: "EUR", opening, closing,
 * bookings, documents: { trade: "Wertpapierabrechnung", dividend: "Dividendengutschrift" } })`.
 */
export function accountStatement(spec: AccountStatementSpec): AccountStatementRows {
  const { name, currency } = spec;
  const unreconciled = reconcile(spec);
  const transactions: ImportedTransaction[] = [];
  const warnings: ImportWarning[] = [];
  const skippedRows: ImportSkippedRow[] = [];
  const skip = skipper(warnings, skippedRows);
  const document = (which: "dividend" | "trade") => {
    const word = spec.documentWords?.[which] ?? (which === "trade" ? "contract note" : "dividend notice");
    return spec.documents[which] === "" ? word : `${word} (${spec.documents[which]})`;
  };
  // What each day books: a dayTax is the tax of a trade or dividend that day, or of the day's interest.
  const noteDays = new Set(spec.bookings.filter((b) => b.kind === "trade" || b.kind === "dividend").map((b) => b.date));
  const ownDays = new Set(spec.bookings.filter((b) => b.kind === "interest" || b.taxed === true).map((b) => b.date));
  for (const b of spec.bookings) {
    const { line, amount } = b;
    const label = [b.type, b.text].filter((t) => t !== "").join(": ");
    const what = `${label}, ${money(amount)} ${currency}`;
    const row = (type: ImportedTransaction["type"], note = "") => transactions.push({
      row: line, date: b.date, type, quantity: "0" as never, cash: { amount: amount.toFixed(), currency } as never,
      description: `${spec.bank} ${name}: ${spec.describeByText
        ? `${note === "" ? "" : `${note}: `}${b.text}`
        : `${[b.type, b.text].filter((t) => t !== "").join(" ")}${note === "" ? "" : ` (${note})`}`}`,
    });
    const taxRow = () => {
      if (amount.lt(0)) return row("TAX");
      row("INTEREST", "tax refund");
      return warnings.push({ code: "taxRefund", message: `Line ${line}: taxes refunded (${what}) are imported as INTEREST`, row: line, severity: "info" });
    };
    const security = namesSecurity(b.text) || namesSecurity(b.type);
    if (amount.isZero()) {
      // A statement without a type column names the booking by its text.
      skip({ code: "zeroBooking", message: `Line ${line}: the booking ${b.type === "" ? `"${b.text}"` : `(${what})`} of ${b.date} moves no money (${money(amount)} ${currency}), so there is nothing to import`, row: line, severity: "info" });
    } else if (b.kind === "trade") skip({ code: "coveredByContractNote", message: `Line ${line}: ${b.called ?? "a trade"} (${what}) is imported from its ${document("trade")}; upload that beside the statement`, row: line, severity: "info" });
    else if (b.kind === "dividend") skip({ code: "coveredByDividendNotice", message: `Line ${line}: ${b.called ?? "a dividend"} (${what}) is imported from its ${document("dividend")}; upload that beside the statement`, row: line, severity: "info" });
    else if (b.kind === "security" || ((b.kind === "tax" || b.kind === "dayTax" || b.kind === "transfer") && security)) {
      skip({ code: "coveredBySecurityDocument", message: `Line ${line}: a booking on a security (${what}) is imported from its ${document("trade")} or ${document("dividend")}; upload that beside the statement`, row: line, severity: "info" });
    } else if (b.kind === "dayTax" && noteDays.has(b.date) && ownDays.has(b.date)) {
      skip({ code: "taxUnassigned", message: `Line ${line}: taxes (${what}) booked on a day with both a trade or distribution and interest (or another booking they may be the tax of): the statement does not say which they belong to, so they are not imported; enter them by hand unless the note of that day carries them`, row: line, severity: "warning" });
    } else if (b.kind === "dayTax" && noteDays.has(b.date)) skip({ code: "coveredByContractNote", message: `Line ${line}: taxes (${what}) of the trade or distribution booked that day are imported from its note; upload that beside the statement`, row: line, severity: "info" });
    else if (b.kind === "exchange") {
      skip({ code: "currencyExchange", message: `Line ${line}: the ${currency} side of a currency exchange (${what}); its other side is in another currency, not on this statement, so it is not imported: enter the exchange by hand unless a contract note or dividend notice books it`, row: line, severity: "warning" });
    } else if (b.kind === "transfer") row(amount.gt(0) ? "DEPOSIT" : "WITHDRAWAL");
    else if (b.kind === "interest") row(amount.gt(0) ? "INTEREST" : "FEE", amount.gt(0) ? "" : "debit interest");
    else if (b.kind === "fee") row(amount.lt(0) ? "FEE" : "INTEREST", amount.lt(0) ? "" : "fee refund");
    else if (b.kind === "tax" || b.kind === "dayTax") taxRow();
    else {
      const booking = b.type === "" ? `a booking "${b.text}" (${money(amount)} ${currency})` : `a booking of type "${b.type}" (${what})`;
      skip({ code: "unknownRowType", message: `Line ${line}: ${booking} this importer does not read; not imported, enter it by hand if it moved cash`, row: line, severity: "warning" });
    }
  }
  if (unreconciled) warnings.push(unreconciled);
  return { transactions, warnings, skippedRows };
}
