import { type ImportedTransaction, type ImportFileMeta, type ImportParseParams, type ImportResult, type ImportWarning, PluginError } from "../../sdk/index.ts";
import { columns, eachRecord, findHeaderRow, parseDate, parseDecimal, readCsv } from "../../sdk/import/index.ts";

// Revolut "Trading account statement" (Invest > ... > Statements > Excel/CSV):
// `Date,Ticker,Type,Quantity,Price per share,Total Amount,Currency,FX Rate`. Dates are ISO instants
// (UTC); money cells carry their currency ("USD 950", older files "$950.00"); Total Amount is the
// row's cash, sometimes signed, so the type decides the sign. No ISINs: assets are named by ticker.
// Types: BUY - MARKET / BUY - LIMIT, SELL - MARKET / SELL - LIMIT / SELL - STOP, CASH TOP-UP,
// CASH WITHDRAWAL, DIVIDEND (net of withholding), DIVIDEND TAX (CORRECTION) (a tax, or its refund),
// CUSTODY FEE. Euro accounts write "€50" and, in some rows, a quantity with a decimal comma
// ("0,76672417": a comma not followed by exactly three digits is a decimal mark). STOCK SPLIT and position
// transfers carry no price and are skipped with a warning (enter them by hand with a cost basis).

const REQUIRED = ["date", "ticker", "type", "quantity", "price per share", "total amount", "currency"];

export function acceptsRevolut(file: ImportFileMeta): number {
  if ((file.format !== undefined && file.format !== "text") || file.head === "") return 0;
  return findHeaderRow(readCsv(file.head.split(/\r?\n/, 1)[0] ?? "").rows, REQUIRED, 1) === 0 ? 0.95 : 0;
}

const ZERO = "0" as ImportedTransaction["quantity"];

/** A quantity: points as decimals, except "0,76672417" (a lone comma not followed by exactly three digits), a decimal comma. */
const quantityOf = (text: string) => parseDecimal(text, /^-?\d+,(\d{1,2}|\d{4,})$/.test(text.trim()) ? "," : ".");

export function parseRevolut(params: ImportParseParams): ImportResult {
  if (params.bytes.length === 0) throw new PluginError("invalid-input", "The file is empty");
  const { rows } = readCsv(params.bytes, { separator: "," });
  if (findHeaderRow(rows, REQUIRED, 1) !== 0) throw new PluginError("invalid-input", "This is not a Revolut trading account statement");
  const cols = columns(rows[0]!);
  const transactions: ImportedTransaction[] = [];
  const warnings: ImportWarning[] = [];
  eachRecord(rows, 0, cols, ({ get, row }) => {
    const type = get("Type").toUpperCase();
    const date = parseDate(get("Date"), "YMD");
    const currency = get("Currency").toUpperCase();
    const total = parseDecimal(get("Total Amount"), ".");
    const ticker = get("Ticker");
    if (!date || !/^[A-Z]{3}$/.test(currency)) return warnings.push({ code: "rowSkipped", message: `Row ${row} has no date or currency`, row, severity: "warning" });
    const cash = (negative: boolean) => ({ amount: (negative ? total!.abs().neg() : total!.abs()).toFixed(), currency }) as ImportedTransaction["cash"];
    const asset = ticker ? { symbol: ticker } : {};
    const trade = /^(BUY|SELL)\b/.exec(type);
    if (trade && total && !total.isZero()) {
      const qty = quantityOf(get("Quantity"));
      if (!qty || qty.isZero()) return warnings.push({ code: "rowSkipped", message: `${type} without quantity`, row, severity: "warning" });
      const buy = trade[1] === "BUY";
      return transactions.push({ row, date, type: buy ? "BUY" : "SELL", ...asset, quantity: (buy ? qty.abs() : qty.abs().neg()).toFixed() as never, cash: cash(buy) });
    }
    if (/^DIVIDEND TAX/.test(type) && total && !total.isZero()) {
      return transactions.push({ row, date, type: total.lt(0) ? "TAX" : "DIVIDEND", ...asset, quantity: ZERO, cash: { amount: total.toFixed(), currency } as ImportedTransaction["cash"] });
    }
    const simple: Record<string, ImportedTransaction["type"]> = {
      "CASH TOP-UP": "DEPOSIT", "CASH WITHDRAWAL": "WITHDRAWAL", DIVIDEND: "DIVIDEND", "CUSTODY FEE": "FEE",
    };
    const mapped = simple[type];
    if (!mapped || !total || total.isZero()) return warnings.push({ code: "unsupportedType", message: `"${type}" rows are not imported`, row, severity: "warning" });
    transactions.push({ row, date, type: mapped, ...(mapped === "DIVIDEND" ? asset : {}), quantity: ZERO, cash: cash(mapped === "WITHDRAWAL" || mapped === "FEE") });
  });
  return { transactions, warnings };
}
