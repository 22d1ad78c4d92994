import { type ImportSkippedRow, type ImportedTransaction, type ImportFileMeta, type ImportParseParams, type ImportResult, type ImportWarning } from "../../sdk/index.ts";
import { csvFormat, parseDate, parseDecimal, skipper } from "../../sdk/import/index.ts";
import { lineWas, notImported, unknownType, unreadableLine } from "../../sdk/import/skips.ts";

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
    // What the line was, for a skipped line's reason: its type, ticker, date, quantity and amount.
    const what = lineWas(get("Type"), ticker, get("Date"), get("Quantity"), get("Total Amount"));
    const unread = (column: string, expected: string) => skip({ code: "rowSkipped", message: unreadableLine(row, column, get(column), expected, what), row, severity: "warning" });
    if (!date) return unread("Date", "a date");
    if (!/^[A-Z]{3}$/.test(currency)) return unread("Currency", "a currency code");
    if (get("Total Amount") !== "" && !total) return unread("Total Amount", "an amount");
    const cash = (negative: boolean) => ({ amount: (negative ? total!.abs().neg() : total!.abs()).toFixed(), currency }) as ImportedTransaction["cash"];
    const asset = ticker ? { symbol: ticker } : {};
    const trade = /^(BUY|SELL)\b/.exec(type);
    if (trade && total && !total.isZero()) {
      const qty = quantityOf(get("Quantity"));
      if (!qty || qty.isZero()) return unread("Quantity", "a quantity");
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
    const unsupported = (why: string, todo: string) => skip({ code: "unsupportedType", message: notImported(row, what, why, todo), row, severity: "warning" });
    if (trade) return unsupported("is a trade without a Total Amount, so what it cost or paid cannot be told", `enter it by hand as a ${trade[1]} with the amount from Revolut's trade confirmation`);
    if (!mapped && /SPLIT|TRANSFER/.test(type)) {
      return unsupported("moves shares without a price (a stock split or a transfer of positions)", "enter the shares it moved by hand as an ADJUSTMENT (shares transferred in with their cost basis)");
    }
    if (!mapped) return skip({ code: "unsupportedType", message: unknownType(row, what), row, severity: "warning" });
    if (!total || total.isZero()) return unsupported("has no amount", "nothing to enter: it moves no cash");
    transactions.push({ row, date, type: mapped, ...(mapped === "DIVIDEND" ? asset : {}), quantity: ZERO, cash: cash(mapped === "WITHDRAWAL" || mapped === "FEE") });
  });
  return { transactions, warnings, skippedRows };
}
