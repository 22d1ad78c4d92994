import {
  Decimal, type ImportedTransaction, type ImportFileMeta, type ImportParseParams, type ImportResult, type ImportWarning,
} from "../../sdk/index.ts";
import { assetTypeOfName, csvFormat, parseDate, parseDecimal } from "../../sdk/import/index.ts";
import { lineWas, notImported, unknownType } from "../../sdk/import/skips.ts";

// Fidelity Investments (US) account history (Accounts & Trade > Activity & Orders > History >
// Download), CSV, newest first, in USD, dates MM/DD/YYYY. Three headers are in use:
//  - single account, current: `Run Date,Action,Symbol,Description,Type,Price ($),Quantity,
//    Commission ($),Fees ($),Accrued Interest ($),Amount ($),Cash Balance ($),Settlement Date`;
//  - single account, older ("History_for_Account_X.csv"): five lines of commas above `Run Date,
//    Action,Symbol,Security Description,Security Type,Quantity,Price ($),Commission ($),Fees ($),
//    Accrued Interest ($),Amount ($),Settlement Date`, some actions with a leading space;
//  - all accounts: `Run Date,Account,Account Number,Action,Symbol,Description,Type,Exchange
//    Quantity,Exchange Currency,Currency,Price,Quantity,Exchange Rate,Commission,Fees,Accrued
//    Interest,Amount,Settlement Date`.
// Below the rows a footer (a disclaimer over several lines, "Date downloaded ..."). Type (Security
// Type) is the account side, Cash or Margin, not the security's kind. Action is a sentence naming
// the security and ending in "(Cash)"/"(Margin)": "YOU BOUGHT MICROSOFT CORP (MSFT) (Cash)". Quantity
// is signed (a sale negative). Amount ($) is the row's net cash: a purchase's includes its
// commission, fees and accrued interest, a sale's has them taken off. Options have a Symbol
// starting with "-" ("-AAPL240216C150") and a Quantity in contracts, the action naming the shares
// a contract stands for ("(100 SHS)").

const FORMAT = csvFormat({
  headerWithin: 10,
  notFound: "This is not a Fidelity account history (Run Date, Action, Symbol, Amount, Settlement Date expected)",
  required: ["run date", "action", "symbol", "quantity", "settlement date"],
  separators: [","],
});

/** 0.95 for one of the history headers near the top, else 0. */
export function acceptsFidelity(file: ImportFileMeta): number {
  return FORMAT.accepts(file);
}

const ZERO = "0" as ImportedTransaction["quantity"];
const usd = (v: Decimal) => ({ amount: v.toFixed(), currency: "USD" }) as ImportedTransaction["cash"];

type Kind = "BUY" | "SELL" | "DIVIDEND" | "TAX" | "INTEREST" | "FEE" | "TRANSFER" | "CORE" | "NOCASH";
/** Action's opening words → kind; first match wins. */
const RULES: [RegExp, Kind][] = [
  [/^(purchase into|redemption from) core account/, "CORE"],
  [/^(you bought|reinvestment|buy\b)/, "BUY"],
  [/^(you sold|redemption payout|sell\b)/, "SELL"],
  [/^(foreign tax|non-resident tax|tax withheld|fed tax|state tax|backup withholding)/, "TAX"],
  [/^(dividend|long-term cap gain|short-term cap gain|return of capital|cash in lieu|special dividend)/, "DIVIDEND"],
  [/(^interest|\bint\b|interest earned|margin interest)/, "INTEREST"],
  [/\bfees?\b/, "FEE"],
  [/^(electronic funds transfer|direct deposit|direct debit|transferred (to|from)|check (received|paid)|cash contribution|contribution|partic contr|wire|deposit|withdrawal|bill payment|debit card|journaled|transfer)/, "TRANSFER"],
  [/^(merger|reverse split|stock split|distribution|exchanged|transfer of assets|assigned|expired|conversion|name change|spin-?off)/, "NOCASH"],
];

/** Reads the history; see the format notes at the top of this file. */
export function parseFidelity(params: ImportParseParams): ImportResult {
  const table = FORMAT.read(params.bytes);
  const transactions: ImportedTransaction[] = [];
  const warnings: ImportWarning[] = [];
  const skippedRows: { line: number; reason: string }[] = [];
  const skip = (row: number, reason: string, severity: "info" | "warning" = "warning", code = "rowSkipped") => {
    skippedRows.push({ line: row, reason });
    warnings.push({ code, message: reason, row, severity });
  };
  const accounts = new Set<string>();
  FORMAT.walk(table, ({ get, row, cells }) => {
    const date = parseDate(get("Run Date"), "MDY");
    if (!date) {
      const text = cells.find((c) => c.trim() !== "")?.trim() ?? "";
      const why = "is the export's footer (a note or the download date), not a transaction";
      return skip(row, notImported(row, lineWas(text.length > 40 ? `${text.slice(0, 40)}...` : text), why, "nothing to enter: it moves no cash"), "info", "footerSkipped");
    }
    const account = get("Account Number");
    if (account) accounts.add(account);
    const action = get("Action").replace(/\s+/g, " ");
    const words = action.toLowerCase();
    const amount = parseDecimal(get("Amount ($)", "Amount"), ".");
    const commission = parseDecimal(get("Commission ($)", "Commission"), ".")?.abs() ?? new Decimal(0);
    const fees = parseDecimal(get("Fees ($)", "Fees"), ".")?.abs() ?? new Decimal(0);
    const accrued = parseDecimal(get("Accrued Interest ($)", "Accrued Interest"), ".")?.abs() ?? new Decimal(0);
    const symbol = get("Symbol");
    const name = get("Description", "Security Description");
    const assetType = assetTypeOfName(name);
    const asset = symbol ? { symbol, ...(name && !/^no description$/i.test(name) ? { assetName: name } : {}), ...(assetType ? { assetType } : {}) } : {};
    const base = { row, date, description: action };
    const kind = RULES.find(([re]) => re.test(words))?.[1];
    // What the line was, for a skipped line's reason: its action, symbol or description, date and amount.
    const what = lineWas(action, symbol || name, get("Run Date"), get("Amount ($)", "Amount"));
    const left = (why: string, todo: string, severity: "info" | "warning" = "warning", code = "rowSkipped") => skip(row, notImported(row, what, why, todo), severity, code);
    if (!kind) return skip(row, unknownType(row, what), "warning", "unsupportedAction");
    if (kind === "CORE") {
      return left("is a sweep between the cash and the core money market fund, which is the account's cash", "nothing to enter: your cash stays the same", "info", "coreSweep");
    }
    if (kind === "NOCASH") {
      return left("moves shares without a price (a split, merger, transfer or another corporate action)", "enter the shares it moved by hand as an ADJUSTMENT (shares received with their cost basis)", "warning", "corporateAction");
    }
    if (amount === null || amount.isZero()) return left("has no amount", "nothing to enter: it moves no cash", "info");
    const costs = commission.plus(fees);
    if (kind === "BUY" || kind === "SELL") {
      let qty = parseDecimal(get("Quantity"), ".")?.abs();
      if (!qty || qty.isZero()) return left("is a trade without a quantity", `enter it by hand as a ${kind} with the quantity from Fidelity's trade confirmation`);
      const buy = kind === "BUY";
      // An option ("-AAPL240216C150", the action saying "(100 SHS)") is bought in contracts: the
      // ledger counts the units a contract stands for, so the price is per share as for stocks.
      const shares = /\((\d+) SHS\)/i.exec(action)?.[1];
      const option = symbol.startsWith("-") || shares !== undefined;
      if (option) {
        const per = new Decimal(shares ?? 100);
        warnings.push({ code: "optionMultiplied", message: `Line ${row}: ${qty.toFixed()} option contracts read as ${qty.times(per).toFixed()} units (${per.toFixed()} each)`, row, severity: "info" });
        qty = qty.times(per);
      }
      // Amount is net: the trade's own value has the costs and the accrued interest taken out.
      const gross = buy ? amount.abs().minus(costs).minus(accrued) : amount.abs().plus(costs).minus(accrued);
      transactions.push({ ...base, type: kind, ...asset, quantity: (buy ? qty : qty.neg()).toFixed() as never, cash: usd(buy ? gross.neg() : gross) });
      if (!costs.isZero()) transactions.push({ ...base, type: "FEE", ...asset, quantity: ZERO, cash: usd(costs.neg()), description: "Commission and fees" });
      if (!accrued.isZero()) {
        // Accrued interest paid with a bond bought, received with one sold.
        transactions.push({ ...base, type: buy ? "FEE" : "INTEREST", ...asset, quantity: ZERO, cash: usd(buy ? accrued.neg() : accrued), description: "Accrued interest" });
      }
      return;
    }
    const positive = amount.gt(0);
    switch (kind) {
      case "DIVIDEND":
        if (!positive) warnings.push({ code: "dividendReversal", message: `Line ${row}: a negative dividend (a reversal) was read as a fee`, row, severity: "info" });
        return transactions.push({ ...base, type: positive ? "DIVIDEND" : "FEE", ...asset, quantity: ZERO, cash: usd(amount) });
      case "TAX":
        if (positive) warnings.push({ code: "taxRefund", message: `Line ${row}: a tax refund was read as a dividend`, row, severity: "info" });
        return transactions.push({ ...base, type: positive ? "DIVIDEND" : "TAX", ...asset, quantity: ZERO, cash: usd(amount) });
      case "INTEREST":
        return transactions.push({ ...base, type: positive ? "INTEREST" : "FEE", ...(/^interest earned/.test(words) ? {} : asset), quantity: ZERO, cash: usd(amount) });
      case "FEE":
        return transactions.push({ ...base, type: positive ? "INTEREST" : "FEE", ...asset, quantity: ZERO, cash: usd(amount) });
      default:
        return transactions.push({ ...base, type: positive ? "DEPOSIT" : "WITHDRAWAL", quantity: ZERO, cash: usd(amount) });
    }
  });
  if (accounts.size > 1) {
    warnings.push({
      code: "severalAccounts", severity: "warning",
      message: `The file holds ${accounts.size} accounts (${[...accounts].join(", ")}), all read into this broker: download each account's history on its own to keep them apart`,
    });
  }
  return { detectedFormat: table.cols.has("Account Number") ? "fidelity/all-accounts" : "fidelity/history", skippedRows, transactions, warnings };
}
