import type { IsoDate } from "../dates.ts";
import { PluginError } from "../errors.ts";
import type { ImportedTransaction, ImportSkippedRow, ImportWarning } from "../kinds/import-plugin.ts";
import { type CurrencyCode, Decimal } from "../money.ts";
import { skipper } from "./skips.ts";

/**
 * What a booking of a bank account statement is, as its importer reads the booking's type:
 * `transfer` (a deposit, a payout, a direct debit, a card payment), `interest`, `fee`, `tax`,
 * `trade` (a securities purchase or sale), `dividend` (a dividend or fund distribution),
 * `security` (a booking on a security whose type does not say which), `unknown` (a type the
 * importer does not know).
 */
export type StatementBookingKind = "dividend" | "fee" | "interest" | "security" | "tax" | "trade" | "transfer" | "unknown";

/** One booking of an account statement: its line in the document's text, day, signed amount (money in positive) and what the statement prints. */
export interface StatementBooking {
  readonly amount: Decimal;
  readonly date: IsoDate;
  readonly kind: StatementBookingKind;
  readonly line: number;
  /** The counterparty and purpose as printed (for the description and the skip reason). */
  readonly text: string;
  /** The booking's type as printed ("Lastschrift", "EFFEKTEN", "Entgelte"). */
  readonly type: string;
}

/** What {@link accountStatement} reads. */
export interface AccountStatementSpec {
  /** Who issued the statement, first in every description ("comdirect"). */
  readonly bank: string;
  readonly bookings: readonly StatementBooking[];
  /** The balance the statement prints after its last booking. */
  readonly closing: Decimal;
  readonly currency: CurrencyCode;
  /** The bank's names of the documents that carry a trade and a dividend, for the skip reasons. */
  readonly documents: { readonly dividend: string; readonly trade: string };
  /** The document's name (its file name), first in every message. */
  readonly name: string;
  /** The balance the statement prints before its first booking. */
  readonly opening: Decimal;
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

/**
 * The ledger rows of a bank account statement (a broker's settlement account, a current account),
 * the same way for every bank: first the statement must add up (the opening balance plus every
 * booking is the closing balance, else the whole statement is refused naming both figures, never
 * imported with a gap); then a deposit or payout is a DEPOSIT or a WITHDRAWAL, interest an INTEREST
 * row (debit interest a FEE), a fee a FEE row, a tax without a security a TAX row (a refund of
 * taxes or fees an INTEREST row). A trade, a dividend, a tax on a security, and any other booking
 * naming a security, are left to the contract note or dividend notice that carries them: each is a
 * `skippedRows` entry naming that document, so a statement uploaded beside them books nothing twice.
 * A booking of a type the importer does not know is skipped with a warning (`unknownRowType`).
 * Example: `accountStatement({ name: "k.pdf", bank: "ING", currency: "EUR", opening, closing,
 * bookings, documents: { trade: "Wertpapierabrechnung", dividend: "Dividendengutschrift" } })`.
 */
export function accountStatement(spec: AccountStatementSpec): AccountStatementRows {
  const { name, currency } = spec;
  const total = spec.bookings.reduce((sum, b) => sum.plus(b.amount), new Decimal(0));
  const end = spec.opening.plus(total);
  if (!end.eq(spec.closing)) {
    throw new PluginError("invalid-input", `${name}: the opening balance ${money(spec.opening)} ${currency} and the bookings (${money(total)} ${currency}) make ${money(end)} ${currency}, but the statement's closing balance is ${money(spec.closing)} ${currency}; the statement is not imported`);
  }
  const transactions: ImportedTransaction[] = [];
  const warnings: ImportWarning[] = [];
  const skippedRows: ImportSkippedRow[] = [];
  const skip = skipper(warnings, skippedRows);
  for (const b of spec.bookings) {
    const { line, amount } = b;
    const what = `${b.type}${b.text === "" ? "" : `: ${b.text}`}, ${money(amount)} ${currency}`;
    const row = (type: ImportedTransaction["type"], note = "") => transactions.push({
      row: line, date: b.date, type, quantity: "0" as never, cash: { amount: amount.toFixed(), currency } as never,
      description: `${spec.bank} ${name}: ${b.type}${b.text === "" ? "" : ` ${b.text}`}${note}`,
    });
    const security = namesSecurity(b.text) || namesSecurity(b.type);
    if (amount.isZero()) skip({ code: "zeroBooking", message: `Line ${line}: a booking of no amount (${what}) moves no cash`, row: line, severity: "info" });
    else if (b.kind === "trade") skip({ code: "coveredByContractNote", message: `Line ${line}: a trade (${what}) is imported from its contract note (${spec.documents.trade}); upload that beside the statement`, row: line, severity: "info" });
    else if (b.kind === "dividend") skip({ code: "coveredByDividendNotice", message: `Line ${line}: a dividend (${what}) is imported from its dividend notice (${spec.documents.dividend}); upload that beside the statement`, row: line, severity: "info" });
    else if (b.kind === "security" || ((b.kind === "tax" || b.kind === "transfer") && security)) {
      skip({ code: "coveredBySecurityDocument", message: `Line ${line}: a booking on a security (${what}) is imported from its contract note (${spec.documents.trade}) or dividend notice (${spec.documents.dividend}); upload that beside the statement`, row: line, severity: "info" });
    } else if (b.kind === "transfer") row(amount.gt(0) ? "DEPOSIT" : "WITHDRAWAL");
    else if (b.kind === "interest") row(amount.gt(0) ? "INTEREST" : "FEE", amount.gt(0) ? "" : " (debit interest)");
    else if (b.kind === "fee") row(amount.lt(0) ? "FEE" : "INTEREST", amount.lt(0) ? "" : " (refund)");
    else if (b.kind === "tax") row(amount.lt(0) ? "TAX" : "INTEREST", amount.lt(0) ? "" : " (tax refund)");
    else skip({ code: "unknownRowType", message: `Line ${line}: a booking of type "${b.type}" (${what}) this importer does not read; not imported, enter it by hand if it moved cash`, row: line, severity: "warning" });
  }
  return { transactions, warnings, skippedRows };
}
