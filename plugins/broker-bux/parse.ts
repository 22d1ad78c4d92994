import {
  type Decimal, type ImportedTransaction, type ImportFileMeta, type ImportParseParams, type ImportResult, type ImportWarning,
} from "../../sdk/index.ts";
import { assetTypeOfName, csvFormat, parseDate, parseDecimal } from "../../sdk/import/index.ts";
import { lineWas, notImported, unknownType, unreadableLine } from "../../sdk/import/skips.ts";

// BUX (Netherlands) transaction overview export (app > Account > Transaction overview, CSV): commas,
// decimal points, times "YYYY-MM-DD HH:MM:SS.ffffff" (CET), oldest line first. Current layout:
// `Transaction Time (CET),Transaction Category,Transaction Type,Transfer Type,Transaction Amount,
// Transaction Currency,Cash Balance Amount,Asset Id,Asset Name,Asset Quantity,Asset Price,Asset
// Currency,Currency Pair,Exchange Rate,Profit And Loss Amount,Profit And Loss Currency,Dividend
// Currency,Dividend Gross Amount,Dividend Net Amount,Dividend Tax Amount,Transaction Description`;
// the older one: `Transaction Time (CET),Transaction Category,Transaction Type,Asset Id,Asset Name,
// Asset Currency,Transaction Currency,Currency Pair,Exchange Rate,Transaction Amount,Trade Amount,
// Trade Price,Trade Quantity,Cash Balance Amount,Profit And Loss Amount,Profit And Loss Currency`.
// Asset Id is the ISIN. Transaction Amount is the cash in the account's currency (EUR): a US share
// is paid in euros at Exchange Rate. Categories and types: deposits (Sepa Deposit, iDEAL Deposit),
// withdrawals (Sepa Withdrawal), trades (Buy Trade, Sell Trade), fees (Trading Fee, Subscription
// Fee), dividends (Cash Dividend; Transaction Amount is net, the tax in Dividend Tax Amount),
// interest (Interest Payment), others (Promotional, To User Corrections: cash credits),
// corporate_actions (General Corporate Action: units redeemed and deposited, e.g. a split).

const FORMAT = csvFormat({
  notFound: "This is not a BUX transaction overview (Transaction Time (CET), Transaction Category, Transaction Type, Transaction Amount, ... expected)",
  required: ["transaction time cet", "transaction category", "transaction type", "transaction amount", "transaction currency", "asset id", "asset name"],
  separators: [","],
});

/** 0.95 for the export's header row (either layout), else 0. */
export function acceptsBux(file: ImportFileMeta): number {
  return FORMAT.accepts(file);
}

const ZERO = "0" as ImportedTransaction["quantity"];
const num = (s: string) => parseDecimal(s, ".");

/** Reads the export; see the format notes at the top of this file. */
export function parseBux(params: ImportParseParams): ImportResult {
  const table = FORMAT.read(params.bytes);
  const current = table.cols.has("Asset Quantity");
  const transactions: ImportedTransaction[] = [];
  const warnings: ImportWarning[] = [];
  const skippedRows: NonNullable<ImportResult["skippedRows"]>[number][] = [];
  const skip = (row: number, reason: string, severity: "info" | "warning") => {
    skippedRows.push({ line: row, reason });
    warnings.push({ code: severity === "warning" ? "unsupportedType" : "rowSkipped", message: reason, row, severity });
  };
  FORMAT.walk(table, ({ get, row }) => {
    const category = get("Transaction Category").toLowerCase();
    const type = get("Transaction Type");
    const lower = type.toLowerCase();
    const date = parseDate(get("Transaction Time (CET)"), "YMD");
    // What the line was, for a skipped line's reason: its type, asset, time and amount.
    const what = lineWas(type, get("Asset Name") || get("Asset Id"), get("Transaction Time (CET)"), get("Transaction Amount") && `${get("Transaction Amount")} ${get("Transaction Currency")}`.trim());
    const left = (why: string, todo: string, severity: "info" | "warning" = "warning") => skip(row, notImported(row, what, why, todo), severity);
    if (!date) return skip(row, unreadableLine(row, "Transaction Time (CET)", get("Transaction Time (CET)"), "a date and time", what), "warning");
    // Units redeemed and deposited by a corporate action carry no price the ledger can use.
    if (category === "corporate_actions") {
      const action = `${get("Transfer Type") || "corporate action"}: ${get("Transaction Description") || get("Asset Name")}`;
      const why = `moves units without a price (${action.length > 60 ? `${action.slice(0, 60)}...` : action})`;
      return left(why, "enter the units it moved by hand as an ADJUSTMENT (units received with their cost basis)");
    }
    let amount = num(get("Transaction Amount"));
    let currency = get("Transaction Currency").toUpperCase();
    // Some deposit lines of the current layout are written one cell to the right (the amount under
    // Transaction Currency, the currency under Cash Balance Amount): read them where they are.
    if (amount === null && num(currency) !== null && /^[A-Z]{3}$/.test(get("Cash Balance Amount"))) {
      amount = num(currency);
      currency = get("Cash Balance Amount");
      warnings.push({ code: "shiftedLine", message: `Line ${row}: the amount and currency were read one cell to the right of their columns`, row, severity: "info" });
    }
    if (amount === null && get("Transaction Amount") !== "") return skip(row, unreadableLine(row, "Transaction Amount", get("Transaction Amount"), "an amount", what), "warning");
    if (amount === null || amount.isZero()) return left("has no amount", "nothing to enter: it moves no cash", "info");
    if (!/^[A-Z]{3}$/.test(currency)) return skip(row, unreadableLine(row, "Transaction Currency", get("Transaction Currency"), "a currency code", what), "warning");
    const isin = get("Asset Id").toUpperCase();
    const name = get("Asset Name");
    const assetCcy = get("Asset Currency").toUpperCase();
    const assetType = isin ? assetTypeOfName(name) : undefined;
    const asset = { ...(isin ? { isin } : {}), ...(isin && name ? { assetName: name } : {}), ...(assetType ? { assetType } : {}), ...(isin && /^[A-Z]{3}$/.test(assetCcy) ? { assetCurrency: assetCcy as never } : {}) };
    const base = { row, date, description: [type, name].filter(Boolean).join(": ") };
    const cash = (v: Decimal) => ({ amount: v.toFixed(), currency }) as ImportedTransaction["cash"];
    const positive = amount.gt(0);

    if (category === "trades" || /\b(buy|sell) trade\b/.test(lower)) {
      const buy = /\bbuy\b/.test(lower);
      if (!buy && !/\bsell\b/.test(lower)) return left("is a trade that says neither buy nor sell", "enter it by hand as the BUY or SELL it was");
      const qty = num(get(current ? "Asset Quantity" : "Trade Quantity"))?.abs();
      if (!qty || qty.isZero()) return left("is a trade without a quantity", `enter it by hand as a ${buy ? "BUY" : "SELL"} with the quantity from BUX's trade confirmation`);
      // The sign of Transaction Amount is not reliable on sales: the type decides.
      return transactions.push({ ...base, type: buy ? "BUY" : "SELL", ...asset, quantity: (buy ? qty : qty.neg()).toFixed() as never, cash: cash(buy ? amount.abs().neg() : amount.abs()) });
    }
    if (category === "dividends" || lower.includes("dividend")) {
      if (!positive) {
        warnings.push({ code: "dividendReversal", message: `Line ${row}: a negative dividend (a reversal) was read as a fee on the security`, row, severity: "info" });
        return transactions.push({ ...base, type: "FEE", ...asset, quantity: ZERO, cash: cash(amount) });
      }
      const tax = num(get("Dividend Tax Amount"))?.abs();
      // The tax withheld is visible only when it is in the account's currency (else the net is booked as it came).
      if (tax && !tax.isZero() && get("Dividend Currency").toUpperCase() === currency) {
        transactions.push({ ...base, type: "DIVIDEND", ...asset, quantity: ZERO, cash: cash(amount.plus(tax)) });
        return transactions.push({ ...base, description: `${base.description} (dividend tax)`, type: "TAX", ...asset, quantity: ZERO, cash: cash(tax.neg()) });
      }
      return transactions.push({ ...base, type: "DIVIDEND", ...asset, quantity: ZERO, cash: cash(amount) });
    }
    if (category === "deposits" || category === "withdrawals") {
      return transactions.push({ ...base, type: positive ? "DEPOSIT" : "WITHDRAWAL", quantity: ZERO, cash: cash(amount) });
    }
    if (category === "fees" || lower.includes("fee")) {
      return transactions.push({ ...base, type: positive ? "INTEREST" : "FEE", ...(isin ? { isin } : {}), quantity: ZERO, cash: cash(amount) });
    }
    if (category === "taxes" || lower.includes("tax")) {
      return transactions.push({ ...base, type: positive ? (isin ? "DIVIDEND" : "INTEREST") : "TAX", ...(isin ? { isin } : {}), quantity: ZERO, cash: cash(amount) });
    }
    if (category === "interest" || lower.includes("interest")) {
      return transactions.push({ ...base, type: positive ? "INTEREST" : "FEE", quantity: ZERO, cash: cash(amount) });
    }
    if (category === "others" && !isin) {
      // Promotions and corrections credited (or debited) by BUX: income that is neither a trade nor a transfer.
      warnings.push({ code: "cashCredit", message: `Line ${row}: "${type}" was read as ${positive ? "interest" : "a fee"}`, row, severity: "info" });
      return transactions.push({ ...base, type: positive ? "INTEREST" : "FEE", quantity: ZERO, cash: cash(amount) });
    }
    return skip(row, unknownType(row, what, "cash"), "warning");
  });
  return { detectedFormat: current ? "bux/transactions" : "bux/transactions-legacy", skippedRows, transactions, warnings };
}
