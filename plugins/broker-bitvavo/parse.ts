import { type ImportSkippedRow, type ImportedTransaction, type ImportFileMeta, type ImportParseParams, type ImportResult, type ImportWarning } from "../../sdk/index.ts";
import { csvFormat, parseDate, parseDecimal, skipper } from "../../sdk/import/index.ts";
import { lineWas, notImported, unknownType, unreadableLine } from "../../sdk/import/skips.ts";

// Bitvavo transaction export (Account > History > Export, CSV): `Timezone, Date, Time, Type,
// Currency, Amount, Quote Currency, Quote Price, Received / Paid Currency, Received / Paid Amount,
// Fee currency, Fee amount, Status, Transaction ID, Address`. Date is YYYY-MM-DD in the named time
// zone; numbers use a decimal point. Amount is signed in Currency (the coin, or EUR for fiat
// moves); Received / Paid Amount is the EUR side of a trade (negative when paid); Fee amount is
// positive in Fee currency. Types: deposit, withdrawal, buy, sell, staking (a reward in kind,
// valued at Quote Price); rows whose Status is not Completed are skipped. A coin withdrawal leaves
// with its network fee, so its quantity is Amount plus the fee in that coin. Crypto deposits have
// no cost and are written as ADJUSTMENTs for the user to price.

const FORMAT = csvFormat({
  notFound: "This is not a Bitvavo transaction export",
  required: ["timezone", "date", "time", "type", "currency", "amount", "status", "transaction id"],
  separators: [","],
});
const FIATS = new Set(["EUR", "USD", "GBP", "CHF"]);

export function acceptsBitvavo(file: ImportFileMeta): number {
  return FORMAT.accepts(file);
}

const ZERO = "0" as ImportedTransaction["quantity"];

export function parseBitvavo(params: ImportParseParams): ImportResult {
  const table = FORMAT.read(params.bytes);
  const transactions: ImportedTransaction[] = [];
  const warnings: ImportWarning[] = [];
  const skippedRows: ImportSkippedRow[] = [];
  const skip = skipper(warnings, skippedRows);
  FORMAT.walk(table, ({ get, row }) => {
    // What the line was, for a skipped line's reason: its type, the coin, the day and the amount.
    const what = lineWas(get("Type"), get("Date"), get("Amount") && `${get("Amount")} ${get("Currency")}`.trim());
    if (get("Status").toLowerCase() !== "completed") {
      const status = get("Status") || "empty";
      return skip({ code: "notCompleted", message: notImported(row, what, `has the status "${status}", not Completed, so it moved nothing`, "nothing to enter (a later Completed line of its own is imported)"), row, severity: "info" });
    }
    const type = get("Type").toLowerCase();
    const date = parseDate(get("Date"), "YMD");
    const coin = get("Currency").toUpperCase();
    const amount = parseDecimal(get("Amount"), ".");
    const unread = (column: string, expected: string) => skip({ code: "rowSkipped", message: unreadableLine(row, column, get(column), expected, what), row, severity: "warning" });
    if (!date) return unread("Date", "a date (YYYY-MM-DD)");
    if (!amount || amount.isZero()) return unread("Amount", "an amount other than zero");
    if (!coin) return unread("Currency", "a coin or currency");
    const fee = parseDecimal(get("Fee amount"), ".");
    const feeCcy = get("Fee currency").toUpperCase();
    const asset = { symbol: coin };
    const money = (v: string, ccy: string) => ({ amount: v, currency: ccy }) as ImportedTransaction["cash"];
    if (FIATS.has(coin) && (type === "deposit" || type === "withdrawal")) {
      transactions.push({ row, date, type: type === "deposit" ? "DEPOSIT" : "WITHDRAWAL", quantity: ZERO, cash: money((type === "deposit" ? amount.abs() : amount.abs().neg()).toFixed(), coin) });
      if (fee && !fee.isZero()) transactions.push({ row, date, type: "FEE", quantity: ZERO, cash: money(fee.abs().neg().toFixed(), feeCcy || coin) });
      return;
    }
    if (type === "buy" || type === "sell") {
      const paid = parseDecimal(get("Received / Paid Amount"), ".");
      const paidCcy = get("Received / Paid Currency").toUpperCase();
      if (!paid || !paidCcy) {
        const why = `has no readable Received / Paid Amount and Currency ("${get("Received / Paid Amount")}" "${get("Received / Paid Currency")}"), so its cash in euros cannot be told`;
        return skip({ code: "rowSkipped", message: notImported(row, what, why, `enter it by hand as a ${type.toUpperCase()} of ${coin} with the euros ${type === "buy" ? "paid" : "received"}`), row, severity: "warning" });
      }
      const buy = type === "buy";
      transactions.push({ row, date, type: buy ? "BUY" : "SELL", ...asset, quantity: (buy ? amount.abs() : amount.abs().neg()).toFixed() as never, cash: money((buy ? paid.abs().neg() : paid.abs()).toFixed(), paidCcy) });
      if (fee && !fee.isZero()) transactions.push({ row, date, type: "FEE", ...asset, quantity: ZERO, cash: money(fee.abs().neg().toFixed(), feeCcy || paidCcy) });
      return;
    }
    if (type === "staking" || type === "deposit" || type === "withdrawal") {
      const out = type === "withdrawal";
      const quantity = out ? amount.abs().plus(fee && feeCcy === coin ? fee.abs() : 0).neg() : amount.abs();
      const price = parseDecimal(get("Quote Price"), ".");
      const quote = get("Quote Currency").toUpperCase();
      transactions.push({
        row, date, type: "ADJUSTMENT", ...asset, quantity: quantity.toFixed() as never,
        ...(!out && price && quote ? { costBasis: money(price.toFixed(), quote) } : {}),
        description: type === "staking" ? "Staking reward" : `Crypto ${type}`,
      });
      return;
    }
    skip({ code: "unsupportedType", message: unknownType(row, what, "cash or coins"), row, severity: "warning" });
  });
  return { transactions, warnings, skippedRows };
}
