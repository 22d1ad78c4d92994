import { type ImportSkippedRow, type ImportedTransaction, type ImportFileMeta, type ImportParseParams, type ImportResult, type ImportWarning } from "../../sdk/index.ts";
import { csvFormat, parseDate, parseDecimal, skipper, unreadable } from "../../sdk/import/index.ts";

// Revolut "Trading account statement" (Invest > ... > Statements > Excel/CSV):
// `Date,Ticker,Type,Quantity,Price per share,Total Amount,Currency,FX Rate`. Dates are ISO instants
// (UTC); money cells carry their currency ("USD 950", older files "$950.00"); Total Amount is the
// row's cash, sometimes signed, so the type decides the sign. No ISINs: assets are named by ticker.
// Types: BUY - MARKET / BUY - LIMIT, SELL - MARKET / SELL - LIMIT / SELL - STOP, CASH TOP-UP,
// CASH WITHDRAWAL, DIVIDEND (net of withholding), DIVIDEND TAX (CORRECTION) (a tax, or its refund),
// CUSTODY FEE. Euro accounts write "€50" and, in some rows, a quantity with a decimal comma
// ("0,76672417": a comma not followed by exactly three digits is a decimal mark). STOCK SPLIT and position
// transfers carry no price and are skipped with a warning (enter them by hand with a cost basis).

const FORMAT = csvFormat({
  notFound: "This is not a Revolut trading account statement",
  required: ["date", "ticker", "type", "quantity", "price per share", "total amount", "currency"],
  separators: [","],
});

export function acceptsRevolut(file: ImportFileMeta): number {
  return FORMAT.accepts(file);
}

const ZERO = "0" as ImportedTransaction["quantity"];

/** A quantity: points as decimals, except "0,76672417" (a lone comma not followed by exactly three digits), a decimal comma. */
const quantityOf = (text: string) => parseDecimal(text, /^-?\d+,(\d{1,2}|\d{4,})$/.test(text.trim()) ? "," : ".");

export function parseRevolut(params: ImportParseParams): ImportResult {
  const table = FORMAT.read(params.bytes);
  const transactions: ImportedTransaction[] = [];
  const warnings: ImportWarning[] = [];
  const skippedRows: ImportSkippedRow[] = [];
  const skip = skipper(warnings, skippedRows);
  FORMAT.walk(table, ({ get, row }) => {
    const type = get("Type").toUpperCase();
    const date = parseDate(get("Date"), "YMD");
    const currency = get("Currency").toUpperCase();
    const total = parseDecimal(get("Total Amount"), ".");
    const ticker = get("Ticker");
    if (!date) return skip({ code: "rowSkipped", message: unreadable(row, "Date", get("Date"), "a date"), row, severity: "warning" });
    if (!/^[A-Z]{3}$/.test(currency)) return skip({ code: "rowSkipped", message: unreadable(row, "Currency", get("Currency"), "a currency code"), row, severity: "warning" });
    if (get("Total Amount") !== "" && !total) return skip({ code: "rowSkipped", message: unreadable(row, "Total Amount", get("Total Amount"), "an amount"), row, severity: "warning" });
    const cash = (negative: boolean) => ({ amount: (negative ? total!.abs().neg() : total!.abs()).toFixed(), currency }) as ImportedTransaction["cash"];
    const asset = ticker ? { symbol: ticker } : {};
    const trade = /^(BUY|SELL)\b/.exec(type);
    if (trade && total && !total.isZero()) {
      const qty = quantityOf(get("Quantity"));
      if (!qty || qty.isZero()) return skip({ code: "rowSkipped", message: unreadable(row, "Quantity", get("Quantity"), "a quantity"), row, severity: "warning" });
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
    if (!mapped) {
      return skip({ code: "unsupportedType", message: `"${type}" is a row kind the importer does not know (stock splits and position transfers, which carry no price, among them): not imported, enter it by hand if it changed cash or shares`, row, severity: "warning" });
    }
    if (!total || total.isZero()) return skip({ code: "unsupportedType", message: `A ${type} row with no amount moves no cash: not imported`, row, severity: "warning" });
    transactions.push({ row, date, type: mapped, ...(mapped === "DIVIDEND" ? asset : {}), quantity: ZERO, cash: cash(mapped === "WITHDRAWAL" || mapped === "FEE") });
  });
  return { transactions, warnings, skippedRows };
}
