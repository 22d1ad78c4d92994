import {
  Decimal, type ImportedTransaction, type ImportFileMeta, type ImportParseParams, type ImportResult, type ImportWarning,
} from "../../sdk/index.ts";
import { assetTypeOfName, csvFormat, parseDate, parseDecimal } from "../../sdk/import/index.ts";
import { lineWas, notImported, unknownType, unreadableLine } from "../../sdk/import/skips.ts";

// Freetrade Activity feed CSV (app: Activity > download > All Activity), one account (GIA, ISA or
// SIPP) per file, newest first, comma separated, decimal points, no currency symbols, timestamps
// ISO instants in UTC ("2024-03-04T11:01:19.356Z"). Header: Title, Type, Timestamp, Account
// Currency, Total Amount (since 2025 "Total Amount in Account Currency"), Buy / Sell, Ticker, ISIN,
// Price per Share in Account Currency, Stamp Duty, Quantity, Venue, Order ID, Order Type,
// Instrument Currency, Total Shares Amount (since 2025 "Total Amount in Instrument Currency"),
// Price per Share, FX Rate, Base FX Rate, FX Fee (BPS), FX Fee Amount, Dividend Ex Date, Dividend
// Pay Date, Dividend Eligible Quantity, Dividend Amount Per Share, Dividend Gross Distribution
// Amount, Dividend Net Distribution Amount, Dividend Withheld Tax Percentage, Dividend Withheld Tax
// Amount, and in current files fourteen "Stock Split ..." columns.
// Amounts are unsigned; Type and Buy / Sell give the direction. An ORDER's Total Amount is in the
// account currency and includes its Stamp Duty and FX Fee Amount (a buy: shares' value + costs; a
// sale: value − costs); an order in another currency is exchanged at Base FX Rate, its value in
// that currency being the instrument total. A DIVIDEND's Total Amount is net, in the account
// currency; its withholding (Dividend Withheld Tax Amount) is in the instrument's currency.
// Types: ORDER, FREESHARE_ORDER (shares given by Freetrade), DIVIDEND, SPECIAL_DIVIDEND,
// INTEREST_FROM_CASH, TOP_UP, WITHDRAWAL, INTERNAL_TRANSFER ("Internal Transfer to ISA" / "...
// from GIA"), MONTHLY_STATEMENT and TAX_CERTIFICATE (links to documents), STOCK_SPLIT.

const FORMAT = csvFormat({
  notFound: "This is not a Freetrade activity export (Title, Type, Timestamp, Account Currency, Buy / Sell expected)",
  required: ["title", "type", "timestamp", "account currency", "buy / sell", "isin", "stamp duty"],
  separators: [","],
});

/** 0.95 for the activity export's header row, else 0. */
export function acceptsFreetrade(file: ImportFileMeta): number {
  return FORMAT.accepts(file);
}

const ZERO = "0" as ImportedTransaction["quantity"];
const money = (amount: Decimal, currency: string) => ({ amount: amount.toFixed(), currency }) as ImportedTransaction["cash"];
const isCcy = (s: string) => /^[A-Z]{3}$/.test(s);
/** The types that move cash or shares at a known value; anything else is skipped with a warning. */
const KNOWN = new Set(["ORDER", "FREESHARE_ORDER", "DIVIDEND", "SPECIAL_DIVIDEND", "INTEREST_FROM_CASH", "TOP_UP", "WITHDRAWAL", "INTERNAL_TRANSFER"]);

/** Reads the activity export; see the format notes at the top of this file. */
export function parseFreetrade(params: ImportParseParams): ImportResult {
  const table = FORMAT.read(params.bytes);
  const transactions: ImportedTransaction[] = [];
  const warnings: ImportWarning[] = [];
  const skippedRows: { line: number; reason: string }[] = [];
  const skip = (row: number, reason: string, severity: "info" | "warning" = "info", code = "rowSkipped") => {
    skippedRows.push({ line: row, reason });
    warnings.push({ code, message: reason, row, severity });
  };
  const info = (row: number, code: string, message: string) => warnings.push({ code, message: `Line ${row}: ${message}`, row, severity: "info" });
  FORMAT.walk(table, ({ get, row }) => {
    const type = get("Type").toUpperCase();
    const title = get("Title");
    // What the line was, for a skipped line's reason: its type, title or ticker, time and total.
    const totalCell = get("Total Amount in Account Currency", "Total Amount");
    const what = lineWas(get("Type"), title || get("Ticker"), get("Timestamp"), totalCell && `${totalCell} ${get("Account Currency")}`.trim());
    const left = (why: string, todo: string) => skip(row, notImported(row, what, why, todo), "warning");
    if (type === "MONTHLY_STATEMENT" || type === "TAX_CERTIFICATE") {
      return skip(row, notImported(row, what, "links to a document of Freetrade's and records no transaction", "nothing to enter: it moves no cash"));
    }
    if (type === "STOCK_SPLIT") {
      const todo = "enter the shares it added or removed by hand as an ADJUSTMENT (a split adds no cost)";
      return skip(row, notImported(row, what, "is a stock split, which changes the number of shares without cash", todo), "warning", "corporateAction");
    }
    if (!KNOWN.has(type)) return skip(row, unknownType(row, what), "warning", "unsupportedType");
    const date = parseDate(get("Timestamp"), "YMD");
    const ccy = get("Account Currency").toUpperCase();
    const total = parseDecimal(get("Total Amount in Account Currency", "Total Amount"), ".")?.abs() ?? null;
    if (!date) return skip(row, unreadableLine(row, "Timestamp", get("Timestamp"), "a date and time", what), "warning");
    if (!isCcy(ccy)) return skip(row, unreadableLine(row, "Account Currency", get("Account Currency"), "a currency code", what), "warning");
    const isin = get("ISIN").toUpperCase();
    const symbol = get("Ticker");
    const assetType = assetTypeOfName(title);
    const asset = { ...(isin ? { isin } : {}), ...(symbol ? { symbol } : {}), ...(title ? { assetName: title } : {}), ...(assetType ? { assetType } : {}) };
    const instrumentCcy = get("Instrument Currency").toUpperCase() || ccy;
    const base = { row, date };

    if (type === "ORDER" || type === "FREESHARE_ORDER") {
      const qty = parseDecimal(get("Quantity"), ".")?.abs();
      if (!qty || qty.isZero() || total === null) return left("is an order without its quantity or its total", "enter it by hand as a BUY or SELL from Freetrade's contract note");
      const side = get("Buy / Sell").toUpperCase();
      if (side !== "BUY" && side !== "SELL") {
        return skip(row, unreadableLine(row, "Buy / Sell", get("Buy / Sell"), "BUY or SELL", what), "warning");
      }
      if (type === "FREESHARE_ORDER") {
        // A gift: units in at their value that day, no cash out of the account.
        const price = parseDecimal(get("Price per Share in Account Currency"), ".")?.abs();
        info(row, "freeShare", `a free share from Freetrade: ${qty.toFixed()} units in at ${price?.toFixed() ?? "no"} ${ccy} each, no cash paid`);
        return transactions.push({
          ...base, type: "ADJUSTMENT", ...asset, quantity: qty.toFixed() as never,
          ...(price ? { costBasis: money(price, ccy) as never } : {}), description: title,
        });
      }
      const buy = side === "BUY";
      const orderId = get("Order ID");
      const stamp = parseDecimal(get("Stamp Duty"), ".")?.abs();
      const fxFee = parseDecimal(get("FX Fee Amount"), ".")?.abs();
      const costs = (stamp ?? new Decimal(0)).plus(fxFee ?? 0);
      // The shares' value in the account currency, the order's costs taken out of Total Amount.
      const net = buy ? total.minus(costs) : total.plus(costs);
      const instrumentTotal = parseDecimal(get("Total Amount in Instrument Currency", "Total Shares Amount"), ".")?.abs();
      const foreign = instrumentCcy !== ccy && isCcy(instrumentCcy) && instrumentTotal && !instrumentTotal.isZero();
      const withOrder = { ...base, ...(orderId ? { orderId } : {}) };
      const [value, valueCcy] = foreign ? [instrumentTotal, instrumentCcy] : [net, ccy];
      transactions.push({ ...withOrder, type: buy ? "BUY" : "SELL", ...asset, quantity: (buy ? qty : qty.neg()).toFixed() as never, cash: money(buy ? value.neg() : value, valueCcy) });
      if (foreign) {
        const pairKey = `fx-${row}`;
        const [from, to] = buy ? [money(net.neg(), ccy), money(value, valueCcy)] : [money(value.neg(), valueCcy), money(net, ccy)];
        transactions.push({ ...withOrder, type: "FX_CONVERSION", quantity: ZERO, cash: from, pairKey }, { ...withOrder, type: "FX_CONVERSION", quantity: ZERO, cash: to, pairKey });
      }
      if (stamp && !stamp.isZero()) transactions.push({ ...withOrder, type: "TAX", ...asset, quantity: ZERO, cash: money(stamp.neg(), ccy), description: "Stamp duty" });
      if (fxFee && !fxFee.isZero()) transactions.push({ ...withOrder, type: "FEE", ...asset, quantity: ZERO, cash: money(fxFee.neg(), ccy), description: "FX fee" });
      return;
    }
    if (type === "DIVIDEND" || type === "SPECIAL_DIVIDEND") {
      if (total === null || total.isZero()) return left("is a dividend without an amount", "enter it by hand as a DIVIDEND if it was paid");
      transactions.push({ ...base, type: "DIVIDEND", ...asset, quantity: ZERO, cash: money(total, ccy) });
      const tax = parseDecimal(get("Dividend Withheld Tax Amount"), ".")?.abs();
      if (tax && !tax.isZero()) {
        // Withheld in the instrument's currency before the net was exchanged: the gross part and the
        // tax both in that currency, so the tax is visible and the cash stays exact.
        const taxCcy = isCcy(instrumentCcy) ? instrumentCcy : ccy;
        transactions.push({ ...base, type: "DIVIDEND", ...asset, quantity: ZERO, cash: money(tax, taxCcy), description: "Withheld at source (gross part)" });
        transactions.push({ ...base, type: "TAX", ...asset, quantity: ZERO, cash: money(tax.neg(), taxCcy), description: "Dividend withholding tax" });
      }
      return;
    }
    if (total === null || total.isZero()) return left("has no amount", "enter it by hand if it moved cash");
    if (type === "INTEREST_FROM_CASH") return transactions.push({ ...base, type: "INTEREST", quantity: ZERO, cash: money(total, ccy) });
    if (type === "TOP_UP") return transactions.push({ ...base, type: "DEPOSIT", quantity: ZERO, cash: money(total, ccy), description: title });
    if (type === "WITHDRAWAL") return transactions.push({ ...base, type: "WITHDRAWAL", quantity: ZERO, cash: money(total.neg(), ccy), description: title });
    // INTERNAL_TRANSFER: "Internal Transfer to ISA" leaves this account, "... from GIA" arrives.
    const out = /\bto\b/i.test(title) && !/\bfrom\b/i.test(title);
    return transactions.push({ ...base, type: out ? "WITHDRAWAL" : "DEPOSIT", quantity: ZERO, cash: money(out ? total.neg() : total, ccy), description: title });
  });
  return { detectedFormat: "freetrade/activity", skippedRows, transactions, warnings };
}

