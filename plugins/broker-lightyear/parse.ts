import {
  Decimal, type ImportedTransaction, type ImportFileMeta, type ImportParseParams, type ImportResult, type ImportSkippedRow, type ImportWarning,
} from "../../sdk/index.ts";
import { csvFormat, parseDate, parseDecimal, skipper } from "../../sdk/import/index.ts";
import { lineWas, notImported, unknownType, unreadableLine } from "../../sdk/import/skips.ts";

// Lightyear account statement (app or web: Activity > export CSV), all of the user's currency
// pockets in one file, newest first, comma separated, decimal points, dates "DD/MM/YYYY HH:MM:SS".
// Header: Date, Reference, Ticker, ISIN, Type, Quantity, CCY, Price/share, Gross Amount, FX Rate,
// Fee, Net Amt., Tax Amt. CCY is the currency of the row's cash. References start with OR- (order),
// DD- (dividend), IN- (interest, fund distribution), CN- (conversion), DT- (deposit), WL-
// (withdrawal), RW- (reward).
// Types: Buy and Sell (Gross Amount = Quantity × Price/share, the Fee on top of it: a buy costs
// Gross + Fee, a sale brings Gross − Fee), Dividend and Distribution (Gross before the Fee and the
// withholding in Tax Amt.; Net Amt. is what arrives), Interest, Reward (a cash bonus), Deposit and
// Withdrawal (Gross signed), Conversion: two rows, one per currency (the Ticker is the currency
// code), sharing the Reference (or, in some exports, the time): the leg paid out has Gross signed
// negative including the Fee, the conversion itself being Net Amt.
// Money market "Savings" funds (ICSUSSDP, BRICEKSP, ...) are ordinary funds here: their
// distributions are reinvested by a Buy of the same amount.

const FORMAT = csvFormat({
  notFound: "This is not a Lightyear account statement (Date, Reference, Ticker, ISIN, Type, CCY, Gross Amount, Net Amt. expected)",
  required: ["date", "reference", "ticker", "isin", "type", "ccy", "price/share", "gross amount", "net amt."],
  separators: [","],
});

/** 0.95 for the statement's header row, else 0. */
export function acceptsLightyear(file: ImportFileMeta): number {
  return FORMAT.accepts(file);
}

const ZERO = "0" as ImportedTransaction["quantity"];
const money = (amount: Decimal, currency: string) => ({ amount: amount.toFixed(), currency }) as ImportedTransaction["cash"];

interface Leg {
  ccy: string;
  date: ImportedTransaction["date"];
  fee: Decimal;
  gross: Decimal;
  reference: string;
  row: number;
  time: string;
  /** What the line was, for its reason if it is skipped. */
  what: string;
}

/** Reads the statement; see the format notes at the top of this file. */
export function parseLightyear(params: ImportParseParams): ImportResult {
  const table = FORMAT.read(params.bytes);
  const transactions: ImportedTransaction[] = [];
  const warnings: ImportWarning[] = [];
  const skippedRows: ImportSkippedRow[] = [];
  const skipRow = skipper(warnings, skippedRows);
  const skip = (row: number, reason: string, code = "rowSkipped") => skipRow({ code, message: reason, row, severity: "warning" });
  const legs: Leg[] = [];
  FORMAT.walk(table, ({ get, row }) => {
    const type = get("Type").toLowerCase();
    const date = parseDate(get("Date"), "DMY");
    const ccy = get("CCY").toUpperCase();
    const gross = parseDecimal(get("Gross Amount"), ".");
    const fee = parseDecimal(get("Fee"), ".")?.abs() ?? new Decimal(0);
    const tax = parseDecimal(get("Tax Amt."), ".")?.abs() ?? new Decimal(0);
    const reference = get("Reference");
    // What the line was, for a skipped line's reason: its type, reference, ticker, day and amount.
    const what = lineWas(get("Type"), reference, get("Ticker"), get("Date"), get("Gross Amount") && `${get("Gross Amount")} ${get("CCY")}`.trim());
    const unread = (column: string, expected: string) => skip(row, unreadableLine(row, column, get(column), expected, what));
    if (!date) return unread("Date", "a date (DD/MM/YYYY HH:MM:SS)");
    if (!/^[A-Z]{3}$/.test(ccy)) return unread("CCY", "a currency code");
    if (gross === null || gross.isZero()) return unread("Gross Amount", "an amount other than zero");
    const isin = get("ISIN").toUpperCase();
    const ticker = get("Ticker");
    const asset = { ...(isin ? { isin } : {}), ...(ticker ? { symbol: ticker } : {}) };
    const base = { row, date, ...(reference ? { description: reference } : {}) };
    const costs = (withAsset: boolean, orderId?: string) => {
      const a = withAsset ? asset : {};
      if (!fee.isZero()) transactions.push({ ...base, ...(orderId ? { orderId } : {}), type: "FEE", ...a, quantity: ZERO, cash: money(fee.neg(), ccy) });
      if (!tax.isZero()) transactions.push({ ...base, ...(orderId ? { orderId } : {}), type: "TAX", ...a, quantity: ZERO, cash: money(tax.neg(), ccy) });
    };
    switch (type) {
      case "buy": case "sell": {
        const qty = parseDecimal(get("Quantity"), ".")?.abs();
        if (!qty || qty.isZero()) return unread("Quantity", "a quantity other than zero");
        const buy = type === "buy";
        const orderId = reference || undefined;
        transactions.push({ ...base, ...(orderId ? { orderId } : {}), type: buy ? "BUY" : "SELL", ...asset, quantity: (buy ? qty : qty.neg()).toFixed() as never, cash: money(buy ? gross.abs().neg() : gross.abs(), ccy) });
        return costs(true, orderId);
      }
      case "dividend": case "distribution":
        transactions.push({ ...base, type: "DIVIDEND", ...asset, quantity: ZERO, cash: money(gross.abs(), ccy) });
        return costs(true);
      case "interest":
        transactions.push({ ...base, type: "INTEREST", quantity: ZERO, cash: money(gross.abs(), ccy) });
        return costs(false);
      case "reward":
        warnings.push({ code: "rewardAsIncome", message: `Line ${row}: ${what} is a cash bonus and was read as INTEREST; change its type if you book bonuses otherwise`, row, severity: "info" });
        transactions.push({ ...base, type: "INTEREST", quantity: ZERO, cash: money(gross.abs(), ccy), description: `Reward ${reference}`.trim() });
        return costs(false);
      case "fee":
        return transactions.push({ ...base, type: gross.gt(0) ? "INTEREST" : "FEE", ...asset, quantity: ZERO, cash: money(gross, ccy) });
      case "deposit": case "withdrawal":
        transactions.push({ ...base, type: gross.gt(0) ? "DEPOSIT" : "WITHDRAWAL", quantity: ZERO, cash: money(gross, ccy) });
        if (!fee.isZero()) transactions.push({ ...base, type: "FEE", quantity: ZERO, cash: money(fee.neg(), ccy) });
        return;
      case "conversion":
        return legs.push({ ccy, date, fee, gross, reference, row, time: get("Date"), what });
      default:
        return skip(row, unknownType(row, what), "unsupportedType");
    }
  });
  pairConversions(legs, transactions, skip);
  transactions.sort((a, b) => (a.row ?? 0) - (b.row ?? 0));
  skippedRows.sort((a, b) => a.line - b.line);
  return { detectedFormat: "lightyear/statement", skippedRows, transactions, warnings };
}

/**
 * The two legs of a conversion share the Reference (else the time): one paid out, one received.
 * Each leg is its FX_CONVERSION row without the fee, and the fee a FEE in its leg's currency.
 */
function pairConversions(legs: Leg[], transactions: ImportedTransaction[], skip: (row: number, reason: string, code?: string) => void): void {
  const used = new Set<Leg>();
  const partner = (leg: Leg, same: (a: Leg, b: Leg) => boolean) =>
    legs.find((o) => o !== leg && !used.has(o) && same(leg, o) && o.gross.isNeg() !== leg.gross.isNeg() && o.ccy !== leg.ccy);
  for (const leg of legs) {
    if (used.has(leg)) continue;
    const other = partner(leg, (a, b) => a.reference !== "" && a.reference === b.reference) ?? partner(leg, (a, b) => a.time === b.time);
    if (!other) {
      const why = "is one leg of a currency conversion whose other leg (the other currency, with the same Reference or time) is not in this file";
      skip(leg.row, notImported(leg.row, leg.what, why, "export the statement over a period holding both legs, or enter the conversion by hand as an FX_CONVERSION"), "conversionUnpaired");
      continue;
    }
    used.add(leg).add(other);
    const pairKey = `fx-${Math.min(leg.row, other.row)}`;
    for (const l of [leg, other]) {
      // Paid out: Gross includes the fee; received: the fee comes off Gross.
      const amount = l.gross.isNeg() ? l.gross.plus(l.fee) : l.gross;
      const base = { row: l.row, date: l.date, ...(l.reference ? { description: l.reference } : {}) };
      transactions.push({ ...base, type: "FX_CONVERSION", quantity: ZERO, cash: money(amount, l.ccy), pairKey });
      if (!l.fee.isZero()) transactions.push({ ...base, type: "FEE", quantity: ZERO, cash: money(l.fee.neg(), l.ccy), description: "Conversion fee" });
    }
  }
}
