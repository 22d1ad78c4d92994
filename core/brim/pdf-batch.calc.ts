import type { ImportedTransaction } from "../../sdk/index.ts";
import { Decimal } from "../money/decimal.ts";

/** One parsed document of a batch of PDFs: its number in the batch, name, detected format and rows (their `row` the document's own line). */
export interface BatchDocument {
  readonly format?: string;
  readonly name: string;
  readonly row: number;
  readonly transactions: readonly ImportedTransaction[];
}

/** A statement's row left out because a notice of the same batch books it, and why. */
export interface CoveredRow {
  readonly document: number;
  readonly index: number;
  readonly reason: string;
}

const DAYS_APART = 7;
const isStatement = (d: BatchDocument) => /(^|\/)statement(-|$)/.test(d.format ?? "");
const cashOf = (tx: ImportedTransaction) => new Decimal(tx.cash?.amount ?? "0");
const daysBetween = (a: string, b: string) => Math.abs(Date.parse(`${a}T00:00:00Z`) - Date.parse(`${b}T00:00:00Z`)) / 86_400_000;

/**
 * An account statement lists interest as the amount credited after taxes; the interest notice of
 * the same payment (Zinsabrechnung, interest invoice) books its gross and the taxes. Uploaded
 * together, the statement's interest row would count the payment twice: each statement INTEREST row
 * (no asset) whose amount equals what one notice of the batch credits (its INTEREST and TAX rows
 * summed, same currency, paid within a week of it) is left out, naming that notice. A notice is a
 * document that is not a statement and whose rows are one INTEREST row and TAX rows, none on an
 * asset; each notice covers one statement row. `documents` in batch order; answers the rows to drop.
 */
export function interestCoveredByNotices(documents: readonly BatchDocument[]): CoveredRow[] {
  const notices = documents.filter((d) => !isStatement(d) && d.transactions.length > 0
    && d.transactions.every((t) => !t.isin && !t.symbol && !t.assetName && (t.type === "INTEREST" || t.type === "TAX"))
    && d.transactions.filter((t) => t.type === "INTEREST").length === 1
    && new Set(d.transactions.map((t) => t.cash?.currency)).size === 1)
    .map((d) => {
      const interest = d.transactions.find((t) => t.type === "INTEREST")!;
      const net = d.transactions.reduce((sum, t) => sum.plus(cashOf(t)), new Decimal(0));
      return { doc: d, currency: interest.cash?.currency, date: interest.date, gross: cashOf(interest), net, used: false };
    });
  const covered: CoveredRow[] = [];
  for (const statement of documents.filter(isStatement)) {
    statement.transactions.forEach((tx, index) => {
      if (tx.type !== "INTEREST" || tx.isin || tx.symbol || tx.assetName) return;
      const amount = cashOf(tx);
      const match = notices
        .filter((n) => !n.used && n.currency === tx.cash?.currency && n.net.eq(amount) && daysBetween(n.date, tx.date) <= DAYS_APART)
        .sort((a, b) => daysBetween(a.date, tx.date) - daysBetween(b.date, tx.date))[0];
      if (!match) return;
      match.used = true;
      const taxes = match.gross.minus(match.net);
      covered.push({
        document: statement.row,
        index,
        reason: `${statement.name}: Line ${tx.row ?? "?"}: the interest credited on ${tx.date} (${amount.toFixed(2)} ${tx.cash?.currency}, after taxes) is booked from ${match.doc.name}: ${match.gross.toFixed(2)} interest${taxes.isZero() ? "" : ` less ${taxes.toFixed(2)} taxes`}; left out so it is not counted twice`,
      });
    });
  }
  return covered;
}
