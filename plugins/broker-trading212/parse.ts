import { type ImportSkippedRow,
  Decimal, type ImportedTransaction, type ImportFileMeta, type ImportParseParams, type ImportResult, type ImportWarning,
} from "../../sdk/index.ts";
import { assetTypeOfName, csvFormat, parseDate, parseDecimal, skipper } from "../../sdk/import/index.ts";
import { lineWas, notImported, unknownType, unreadableLine } from "../../sdk/import/skips.ts";

// Trading 212 "History" export (Menu > History > Export, CSV, comma separated, decimal points,
// times "YYYY-MM-DD HH:MM:SS"). Columns: Action, Time, ISIN, Ticker, Name, No. of shares,
// Price / share, Currency (Price / share), Exchange rate, Result, Currency (Result), Total,
// Currency (Total), Withholding tax, Currency (Withholding tax), then optional fee columns, each
// with its currency column: Charge amount, Transaction fee, Finra fee, Currency conversion fee,
// Stamp duty reserve tax, French transaction tax; Notes, ID. Only the columns used in the period
// are exported, so any of the optional ones may be missing.
// Total is in the account currency and includes the fees of the row; shares × price is in the
// instrument's currency. Actions: Market/Limit/Stop buy and sell, Deposit, Withdrawal,
// Dividend (...), Interest on cash, Lending interest, Stock split open/close, Currency conversion
// (between the account's own currency pots; skipped, it moves nothing in the ledger's terms).
// A trade in another currency than the account's is an exchange at Exchange rate: the plugin
// writes the trade in the instrument's currency and an FX_CONVERSION pair for the account's side.
// A dividend's Total is net in the account currency; its withholding tax, in the dividend's
// currency, is written as a DIVIDEND and a TAX of that amount (cash unchanged, tax visible).

const FORMAT = csvFormat({
  notFound: "This is not a Trading 212 history export (Action, Time, ISIN, No. of shares, Total expected)",
  required: ["action", "time", "isin", "no. of shares", "total"],
  separators: [","],
});
const FEE_COLUMNS: [string, "FEE" | "TAX"][] = [
  ["Charge amount", "FEE"], ["Transaction fee", "FEE"], ["Finra fee", "FEE"], ["Currency conversion fee", "FEE"],
  ["Stamp duty reserve tax", "TAX"], ["Stamp duty", "TAX"], ["French transaction tax", "TAX"],
];

/** 0.95 for the history export's header row, else 0. */
export function acceptsTrading212(file: ImportFileMeta): number {
  return FORMAT.accepts(file);
}

const money = (amount: Decimal, currency: string) => ({ amount: amount.toFixed(), currency: currency.toUpperCase() }) as ImportedTransaction["cash"];
const ZERO = "0" as ImportedTransaction["quantity"];
const isCcy = (s: string) => /^[A-Z]{3}$/i.test(s);

/** Reads the history export; see the format notes at the top of this file. */
export function parseTrading212(params: ImportParseParams): ImportResult {
  const table = FORMAT.read(params.bytes);
  const transactions: ImportedTransaction[] = [];
  const warnings: ImportWarning[] = [];
  const skippedRows: ImportSkippedRow[] = [];
  const skip = skipper(warnings, skippedRows);
  FORMAT.walk(table, ({ get, row }) => {
    const action = get("Action").toLowerCase();
    const date = parseDate(get("Time"), "YMD");
    const total = parseDecimal(get("Total"), ".");
    const totalCcy = get("Currency (Total)").toUpperCase();
    // What the line was, for a skipped line's reason: its action, ticker or name, time and total.
    const what = lineWas(get("Action"), get("Ticker") || get("Name"), get("Time"), get("Total") && `${get("Total")} ${totalCcy}`.trim());
    if (!date) return skip({ code: "badDate", message: unreadableLine(row, "Time", get("Time"), "a date and time (YYYY-MM-DD HH:MM:SS)", what), row, severity: "warning" });
    const assetType = assetTypeOfName(get("Name"));
    const asset = {
      ...(get("ISIN") ? { isin: get("ISIN").toUpperCase() } : {}), ...(get("Ticker") ? { symbol: get("Ticker") } : {}),
      ...(get("Name") ? { assetName: get("Name") } : {}), ...(assetType ? { assetType } : {}),
    };
    const id = get("ID");
    const base = { row, date, ...(id && /buy|sell/.test(action) ? { orderId: id } : {}) };
    if (!total) return skip({ code: "rowSkipped", message: unreadableLine(row, "Total", get("Total"), "an amount", what), row, severity: "warning" });
    if (!isCcy(totalCcy)) return skip({ code: "rowSkipped", message: unreadableLine(row, "Currency (Total)", get("Currency (Total)"), "a currency code", what), row, severity: "warning" });

    const fees: ImportedTransaction[] = [];
    let feeSum = new Decimal(0);
    for (const [name, type] of FEE_COLUMNS) {
      const fee = parseDecimal(get(name), ".");
      const ccy = get(`Currency (${name})`).toUpperCase() || totalCcy;
      if (!fee || fee.isZero()) continue;
      if (ccy === totalCcy) feeSum = feeSum.plus(fee.abs());
      fees.push({ ...base, type, ...asset, quantity: ZERO, cash: money(fee.abs().neg(), ccy) });
    }

    if (/\b(buy|sell)\b/.test(action)) {
      const shares = parseDecimal(get("No. of shares"), ".");
      const price = parseDecimal(get("Price / share"), ".");
      const priceCcy = get("Currency (Price / share)").toUpperCase() || totalCcy;
      const buy = /\bbuy\b/.test(action);
      if (!shares || shares.isZero()) {
        const message = notImported(row, what, "is a trade without a number of shares", `enter it by hand as a ${buy ? "BUY" : "SELL"} with the shares from Trading 212's trade confirmation`);
        return skip({ code: "rowSkipped", message, row, severity: "warning" });
      }
      // What the account paid or received before the row's fees, in the account currency.
      const net = buy ? total.abs().minus(feeSum) : total.abs().plus(feeSum);
      const gross = priceCcy === totalCcy || !price ? net : shares.abs().times(price);
      const grossCcy = priceCcy === totalCcy || !price ? totalCcy : priceCcy;
      transactions.push({ ...base, type: buy ? "BUY" : "SELL", ...asset, quantity: (buy ? shares.abs() : shares.abs().neg()).toFixed() as never, cash: money(buy ? gross.neg() : gross, grossCcy) });
      if (grossCcy !== totalCcy) {
        const pairKey = `fx-${row}`;
        const [from, to] = buy ? [money(net.neg(), totalCcy), money(gross, grossCcy)] : [money(gross.neg(), grossCcy), money(net, totalCcy)];
        transactions.push({ ...base, type: "FX_CONVERSION", quantity: ZERO, cash: from, pairKey }, { ...base, type: "FX_CONVERSION", quantity: ZERO, cash: to, pairKey });
      }
      transactions.push(...fees);
      return;
    }
    if (action.startsWith("dividend")) {
      transactions.push({ ...base, type: "DIVIDEND", ...asset, quantity: ZERO, cash: money(total.abs(), totalCcy) });
      const tax = parseDecimal(get("Withholding tax"), ".");
      const taxCcy = get("Currency (Withholding tax)").toUpperCase();
      if (tax && !tax.isZero() && isCcy(taxCcy)) {
        transactions.push({ ...base, type: "DIVIDEND", ...asset, quantity: ZERO, cash: money(tax.abs(), taxCcy) });
        transactions.push({ ...base, type: "TAX", ...asset, quantity: ZERO, cash: money(tax.abs().neg(), taxCcy) });
      }
      return;
    }
    if (action === "deposit") return transactions.push({ ...base, type: "DEPOSIT", quantity: ZERO, cash: money(total.abs(), totalCcy) });
    if (action === "withdrawal") return transactions.push({ ...base, type: "WITHDRAWAL", quantity: ZERO, cash: money(total.abs().neg(), totalCcy) });
    if (action.includes("interest")) return transactions.push({ ...base, type: "INTEREST", quantity: ZERO, cash: money(total.abs(), totalCcy) });
    if (action.includes("currency conversion")) {
      const message = notImported(row, what, "moves cash between the account's own currency pots, not in or out of the account", "nothing to enter: no cash comes in or goes out");
      return skip({ code: "unsupportedAction", message, row, severity: "warning" });
    }
    return skip({ code: "unsupportedAction", message: unknownType(row, what), row, severity: "warning" });
  });
  return { transactions, warnings, skippedRows };
}
