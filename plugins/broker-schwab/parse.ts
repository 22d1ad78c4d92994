import { type ImportSkippedRow, type ImportedTransaction, type ImportFileMeta, type ImportParseParams, type ImportResult, type ImportWarning } from "../../sdk/index.ts";
import { assetTypeOfName, csvFormat, parseDate, parseDecimal, skipper } from "../../sdk/import/index.ts";
import { lineWas, notImported, unknownType, unreadableLine } from "../../sdk/import/skips.ts";

// Charles Schwab brokerage "Transactions" export (CSV): `"Date","Action","Symbol","Description",
// "Quantity","Price","Fees & Comm","Amount"`, newest first, a "Transactions Total" line at the end.
// Dates are month-first MM/DD/YYYY, sometimes "03/20/2024 as of 03/19/2024" (the first is the
// trade's date); money as "$1,234.56" / "-$950.00"; the account currency is USD. Amount is net:
// a buy's includes its fees (more negative), a sale's has them taken off, so the trade is Amount
// with the fees put back and the fees are their own FEE row. Actions: Buy, Sell, Reinvest Shares
// (buys), Qualified/Non-Qualified/Cash Dividend, Reinvest Dividend, Pr Yr Cash Div, Qual Div
// Reinvest, Pr Yr Div Reinvest, Special (Non) Qual Div, Long/Short Term Cap Gain (Reinvest), NRA Tax Adj and
// Foreign Tax Paid (taxes), Bank/Credit Interest, MoneyLink Transfer, Wire Funds, Journal (cash in
// or out by sign), ADR Mgmt Fee / Service Fee; Stock Split and other position moves are skipped.

const FORMAT = csvFormat({
  headerWithin: 3,
  notFound: "This is not a Charles Schwab transactions export",
  required: ["date", "action", "symbol", "description", "quantity", "price", "fees & comm", "amount"],
  separators: [","],
});

export function acceptsSchwab(file: ImportFileMeta): number {
  return FORMAT.accepts(file);
}

const ZERO = "0" as ImportedTransaction["quantity"];

export function parseSchwab(params: ImportParseParams): ImportResult {
  const table = FORMAT.read(params.bytes);
  const transactions: ImportedTransaction[] = [];
  const warnings: ImportWarning[] = [];
  const skippedRows: ImportSkippedRow[] = [];
  const skip = skipper(warnings, skippedRows);
  FORMAT.walk(table, ({ get, row }) => {
    const date = parseDate(get("Date"), "MDY");
    // What the line was, for a skipped line's reason: its action, symbol or description, date, quantity and amount.
    const what = lineWas(get("Action"), get("Symbol") || get("Description"), get("Date"), get("Quantity"), get("Amount"));
    const unread = (column: string, expected: string) => skip({ code: "rowSkipped", message: unreadableLine(row, column, get(column), expected, what), row, severity: "warning" });
    if (/^transactions total/i.test(get("Date"))) {
      const message = notImported(row, lineWas(get("Date"), get("Amount")), "sums the rows above it", "nothing to enter: those rows are imported one by one");
      return skip({ code: "summaryRowSkipped", message, row, severity: "info" });
    }
    if (!date) return unread("Date", "a date (MM/DD/YYYY)");
    const action = get("Action").toLowerCase();
    const amount = parseDecimal(get("Amount"), ".");
    const fees = parseDecimal(get("Fees & Comm"), ".")?.abs();
    if (get("Amount") !== "" && !amount) return unread("Amount", "an amount");
    const symbol = get("Symbol");
    const assetType = assetTypeOfName(get("Description"));
    const asset = symbol ? { symbol, ...(get("Description") ? { assetName: get("Description") } : {}), ...(assetType ? { assetType } : {}) } : {};
    const usd = (v: string) => ({ amount: v, currency: "USD" }) as ImportedTransaction["cash"];
    const fee = fees && !fees.isZero() ? [{ row, date, type: "FEE" as const, ...asset, quantity: ZERO, cash: usd(fees.neg().toFixed()) }] : [];
    if (/^(buy|sell|reinvest shares)$/.test(action) && amount) {
      const qty = parseDecimal(get("Quantity"), ".")?.abs();
      if (!qty || qty.isZero()) return unread("Quantity", "a quantity");
      const buy = action !== "sell";
      const gross = buy ? amount.abs().minus(fees ?? 0) : amount.abs().plus(fees ?? 0);
      transactions.push({ row, date, type: buy ? "BUY" : "SELL", ...asset, quantity: (buy ? qty : qty.neg()).toFixed() as never, cash: usd((buy ? gross.neg() : gross).toFixed()) }, ...fee);
      return;
    }
    if (!amount || amount.isZero()) {
      const why = "moves no cash (a split, journaled shares or another move of shares, with no price)";
      const message = notImported(row, what, why, "enter the shares it moved by hand as an ADJUSTMENT (shares moved in with their cost basis)");
      return skip({ code: "unsupportedAction", message, row, severity: "warning" });
    }
    const rules: [RegExp, ImportedTransaction["type"], ImportedTransaction["type"] | null, boolean][] = [
      [/dividend|\bdiv\b|cap gain/, "DIVIDEND", "TAX", true],
      [/tax/, "TAX", "DIVIDEND", true],
      [/interest/, "INTEREST", "FEE", false],
      [/moneylink|wire|journal|transfer|deposit|withdraw/, "DEPOSIT", "WITHDRAWAL", false],
      [/fee/, "FEE", "INTEREST", true],
    ];
    const rule = rules.find(([re]) => re.test(action));
    if (!rule) return skip({ code: "unsupportedAction", message: unknownType(row, what), row, severity: "warning" });
    const [, whenPositive, whenNegative, withAsset] = rule;
    const positiveType = whenPositive === "TAX" || whenPositive === "FEE" ? whenNegative : whenPositive;
    const negativeType = whenPositive === "TAX" || whenPositive === "FEE" ? whenPositive : whenNegative;
    const type = amount.gt(0) ? positiveType : negativeType;
    if (!type) {
      const message = notImported(row, what, `has a ${amount.gt(0) ? "positive" : "negative"} amount, which this action never has (a correction?)`, "check it with Schwab and enter it by hand as what it was");
      return skip({ code: "unsupportedAction", message, row, severity: "warning" });
    }
    transactions.push({ row, date, type, ...(withAsset ? asset : {}), quantity: ZERO, cash: usd(amount.toFixed()) });
  });
  return { transactions, warnings, skippedRows };
}
