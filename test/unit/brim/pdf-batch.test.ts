import { describe, expect, test } from "bun:test";
import { type BatchDocument, interestCoveredByNotices } from "../../../core/brim/pdf-batch.calc.ts";
import type { ImportedTransaction } from "../../../sdk/index.ts";

const tx = (row: number, date: string, type: ImportedTransaction["type"], amount: string, extra: Partial<ImportedTransaction> = {}): ImportedTransaction =>
  ({ row, date, type, quantity: "0", cash: { amount, currency: "EUR" }, ...extra }) as never;
const statement = (row: number, ...transactions: ImportedTransaction[]): BatchDocument => ({ format: "traderepublic/pdf/statement", name: `s${row}.pdf`, row, transactions });
const notice = (row: number, date: string, gross: string, tax: string): BatchDocument =>
  ({ format: "traderepublic/pdf/interest", name: `n${row}.pdf`, row, transactions: [tx(1, date, "INTEREST", gross), tx(1, date, "TAX", tax)] });

describe("a statement's interest row covered by an interest notice of the same batch", () => {
  test("is the statement row whose amount is the notice's gross less its taxes, paid within a week; the reason names the notice and its figures", () => {
    const covered = interestCoveredByNotices([statement(1, tx(4, "2025-03-03", "DEPOSIT", "2.40"), tx(9, "2025-03-01", "INTEREST", "2.40")), notice(2, "2025-03-01", "3.26", "-0.86")]);
    expect(covered).toEqual([{ document: 1, index: 1, reason: "s1.pdf: Line 9: the interest credited on 2025-03-01 (2.40 EUR, after taxes) is booked from n2.pdf: 3.26 interest less 0.86 taxes; left out so it is not counted twice" }]);
  });

  test("is never matched by another amount, a payment more than a week apart, a notice on an asset, or a notice already used", () => {
    expect(interestCoveredByNotices([statement(1, tx(9, "2025-03-01", "INTEREST", "2.41")), notice(2, "2025-03-01", "3.26", "-0.86")])).toEqual([]);
    expect(interestCoveredByNotices([statement(1, tx(9, "2025-03-01", "INTEREST", "2.40")), notice(2, "2025-03-09", "3.26", "-0.86")])).toEqual([]);
    const onAsset: BatchDocument = { name: "d.pdf", row: 2, transactions: [tx(1, "2025-03-01", "INTEREST", "2.40", { isin: "DE000BSP0012" })] };
    expect(interestCoveredByNotices([statement(1, tx(9, "2025-03-01", "INTEREST", "2.40")), onAsset])).toEqual([]);
    // Two statements listing one payment (the same month uploaded twice under two names): the notice covers one of them.
    expect(interestCoveredByNotices([statement(1, tx(9, "2025-03-01", "INTEREST", "2.40")), statement(2, tx(9, "2025-03-01", "INTEREST", "2.40")), notice(3, "2025-03-01", "3.26", "-0.86")]).map((c) => c.document)).toEqual([1]);
    // A statement is never taken for a notice, even one whose only row is interest.
    expect(interestCoveredByNotices([statement(1, tx(9, "2025-03-01", "INTEREST", "2.40")), statement(2, tx(3, "2025-03-01", "INTEREST", "2.40"))])).toEqual([]);
  });
});
