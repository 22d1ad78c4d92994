import { type ImportSkippedRow, type ImportedTransaction, type ImportFileMeta, type ImportParseParams, type ImportResult, type ImportWarning } from "../../sdk/index.ts";
import { assetTypeOfName, csvFormat, parseDate, parseDecimal, skipper } from "../../sdk/import/index.ts";
import { lineWas, notImported, unknownType, unreadableLine } from "../../sdk/import/skips.ts";

// Scalable Capital transactions export (Broker and PRIME+; web app > Transactions > Export, CSV):
// `date;time;status;reference;description;assetType;type;isin;shares;price;amount;fee;tax;currency`,
// semicolons, decimal commas ("1.000,00"), dates YYYY-MM-DD. amount is the trade or cash value,
// signed from the account's side; fee and tax are separate, signed negative. Types: Buy, Sell,
// Savings plan, Distribution, Interest, Deposit, Withdrawal, Fee, Taxes; only rows whose status
// is Executed are imported (Cancelled, Rejected, Pending are skipped with an info warning).

const FORMAT = csvFormat({
  notFound: "This is not a Scalable Capital transactions export",
  required: ["date", "status", "reference", "type", "isin", "shares", "amount", "fee", "tax", "currency"],
  separators: [";"],
});

export function acceptsScalable(file: ImportFileMeta): number {
  return FORMAT.accepts(file);
}

const ZERO = "0" as ImportedTransaction["quantity"];
const TYPES: Record<string, ImportedTransaction["type"]> = {
  buy: "BUY", "savings plan": "BUY", sell: "SELL", distribution: "DIVIDEND", dividend: "DIVIDEND", interest: "INTEREST",
  deposit: "DEPOSIT", withdrawal: "WITHDRAWAL", fee: "FEE", taxes: "TAX", tax: "TAX",
};

export function parseScalable(params: ImportParseParams): ImportResult {
  const table = FORMAT.read(params.bytes);
  const transactions: ImportedTransaction[] = [];
  const warnings: ImportWarning[] = [];
  const skippedRows: ImportSkippedRow[] = [];
  const skip = skipper(warnings, skippedRows);
  FORMAT.walk(table, ({ get, row }) => {
    // What the line was, for a skipped line's reason: its type, description, ISIN, day and amount.
    const what = lineWas(get("type"), get("description"), get("isin"), get("date"), get("amount") && `${get("amount")} ${get("currency")}`.trim());
    const status = get("status");
    if (status.toLowerCase() !== "executed") {
      const todo = status.toLowerCase() === "pending" ? "export again once it is executed, or enter it by hand then" : "nothing to enter: an order that was not executed moves no cash or shares";
      return skip({ code: "notExecuted", message: notImported(row, what, `has the status "${status || "empty"}", not Executed`, todo), row, severity: "info" });
    }
    const type = TYPES[get("type").toLowerCase()];
    const date = parseDate(get("date"), "YMD");
    const currency = get("currency").toUpperCase();
    const amount = parseDecimal(get("amount"), ",");
    const unread = (column: string, expected: string) => skip({ code: "rowSkipped", message: unreadableLine(row, column, get(column), expected, what), row, severity: "warning" });
    if (!type) return skip({ code: "unsupportedType", message: unknownType(row, what), row, severity: "warning" });
    if (!date) return unread("date", "a date (YYYY-MM-DD)");
    if (!amount || amount.isZero()) return unread("amount", "an amount other than zero");
    if (!/^[A-Z]{3}$/.test(currency)) return unread("currency", "a currency code");
    const isin = get("isin").toUpperCase();
    // The assetType column says only Security or Cash: the name may say more.
    const assetType = assetTypeOfName(get("description"));
    const asset = isin ? { isin, ...(get("description") ? { assetName: get("description") } : {}), ...(assetType ? { assetType } : {}) } : {};
    const money = (v: string) => ({ amount: v, currency }) as ImportedTransaction["cash"];
    const negative = type === "BUY" || type === "WITHDRAWAL" || type === "FEE" || type === "TAX";
    if (type === "BUY" || type === "SELL") {
      const shares = parseDecimal(get("shares"), ",");
      if (!shares || shares.isZero()) return unread("shares", "a number of shares");
      transactions.push({ row, date, type, ...asset, quantity: (type === "BUY" ? shares.abs() : shares.abs().neg()).toFixed() as never, cash: money((negative ? amount.abs().neg() : amount.abs()).toFixed()) });
    } else {
      transactions.push({ row, date, type, ...(type === "DEPOSIT" || type === "WITHDRAWAL" ? {} : asset), quantity: ZERO, cash: money((negative ? amount.abs().neg() : amount.abs()).toFixed()) });
    }
    for (const [column, kind] of [["fee", "FEE"], ["tax", "TAX"]] as const) {
      const v = parseDecimal(get(column), ",");
      if (v && !v.isZero() && type !== kind) transactions.push({ row, date, type: kind, ...asset, quantity: ZERO, cash: money(v.abs().neg().toFixed()) });
    }
  });
  return { transactions, warnings, skippedRows };
}
