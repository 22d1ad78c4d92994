import { type ImportSkippedRow, type ImportedTransaction, type ImportFileMeta, type ImportParseParams, type ImportResult, type ImportWarning } from "../../sdk/index.ts";
import { csvFormat, parseDate, parseDecimal, skipper } from "../../sdk/import/index.ts";
import { lineWas, notImported, unknownType, unreadableLine } from "../../sdk/import/skips.ts";

// Coinbase "Transaction history" report (Taxes > Documents > Generate report, CSV). A preamble of a
// few lines (a notice, "Transactions", the user line) precedes the header `ID, Timestamp,
// Transaction Type, Asset, Quantity Transacted, Price Currency, Price at Transaction, Subtotal,
// Total (inclusive of fees and/or spread), Fees and/or Spread, Notes`. Timestamps are
// "YYYY-MM-DD HH:MM:SS UTC"; money cells carry the currency symbol and thousands commas
// ("€40,000.00"); newer reports sign quantities, older ones don't, so the type decides.
// Buy: Subtotal paid plus Fees (Total = Subtotal + Fees); Sell: Subtotal received minus Fees.
// Convert sells Asset for Subtotal and buys the coin named in Notes ("Converted 0.002 BTC to
// 0.0365 ETH") for the same Subtotal. Staking/Rewards Income and Learning Reward arrive in kind,
// valued at Price at Transaction; Send moves units out; Receive moves them in at market price
// (a warning says so); Deposit/Withdrawal of a fiat Asset move cash.

const FORMAT = csvFormat({
  headerWithin: 10,
  notFound: "This is not a Coinbase transaction history report",
  required: ["id", "timestamp", "transaction type", "asset", "quantity transacted", "subtotal"],
  separators: [","],
});

export function acceptsCoinbase(file: ImportFileMeta): number {
  return FORMAT.accepts(file);
}

const ZERO = "0" as ImportedTransaction["quantity"];
const FIATS = new Set(["EUR", "USD", "GBP", "CHF", "CAD", "AUD"]);
const CONVERT = /converted\s+[\d.,]+\s+\S+\s+to\s+([\d.,]+)\s+(\S+)/i;

export function parseCoinbase(params: ImportParseParams): ImportResult {
  const table = FORMAT.read(params.bytes);
  const transactions: ImportedTransaction[] = [];
  const warnings: ImportWarning[] = [];
  const skippedRows: ImportSkippedRow[] = [];
  const skip = skipper(warnings, skippedRows);
  FORMAT.walk(table, ({ get, row }) => {
    const type = get("Transaction Type").toLowerCase();
    const date = parseDate(get("Timestamp"), "YMD");
    const asset = get("Asset").toUpperCase();
    const qty = parseDecimal(get("Quantity Transacted"), ".")?.abs();
    const ccy = get("Price Currency").toUpperCase();
    const price = parseDecimal(get("Price at Transaction"), ".");
    const subtotal = parseDecimal(get("Subtotal"), ".")?.abs();
    const fees = parseDecimal(get("Fees and/or Spread"), ".")?.abs();
    // What the line was, for a skipped line's reason: its type, the day, the units and the subtotal.
    const what = lineWas(get("Transaction Type"), get("Timestamp"), get("Quantity Transacted") && `${get("Quantity Transacted")} ${get("Asset")}`.trim(), get("Subtotal") && `subtotal ${get("Subtotal")}`);
    const unread = (column: string, expected: string) => skip({ code: "rowSkipped", message: unreadableLine(row, column, get(column), expected, what), row, severity: "warning" });
    if (!date) return unread("Timestamp", "a date (YYYY-MM-DD HH:MM:SS UTC)");
    if (!qty || qty.isZero()) return unread("Quantity Transacted", "a quantity other than zero");
    if (!/^[A-Z]{3}$/.test(ccy)) return unread("Price Currency", "a currency code");
    const money = (v: string) => ({ amount: v, currency: ccy }) as ImportedTransaction["cash"];
    const fee = () => (fees && !fees.isZero() ? [{ row, date, type: "FEE" as const, symbol: asset, quantity: ZERO, cash: money(fees.neg().toFixed()) }] : []);
    const base = { row, date };
    if (type.includes("buy") || type.includes("sell")) {
      const buy = type.includes("buy");
      if (!subtotal) {
        const todo = `enter it by hand as a ${buy ? "BUY" : "SELL"} of ${asset} with the ${buy ? "money paid" : "money received"}`;
        return skip({ code: "rowSkipped", message: notImported(row, what, `has no readable Subtotal ("${get("Subtotal")}"), so its cash cannot be told`, todo), row, severity: "warning" });
      }
      transactions.push({ ...base, type: buy ? "BUY" : "SELL", symbol: asset, quantity: (buy ? qty : qty.neg()).toFixed() as never, cash: money((buy ? subtotal.neg() : subtotal).toFixed()) }, ...fee());
      return;
    }
    if (type === "convert") {
      const to = CONVERT.exec(get("Notes"));
      const toQty = parseDecimal(to?.[1] ?? "", ".");
      if (!to || !toQty || !subtotal) {
        const why = `has Notes ("${get("Notes")}") or a Subtotal that do not say what was received for it (expected "Converted 0.002 BTC to 0.0365 ETH")`;
        return skip({ code: "rowSkipped", message: notImported(row, what, why, `enter it by hand as a SELL of ${asset} and a BUY of the coin received, for the same value`), row, severity: "warning" });
      }
      transactions.push(
        { ...base, type: "SELL", symbol: asset, quantity: qty.neg().toFixed() as never, cash: money(subtotal.toFixed()) },
        { ...base, type: "BUY", symbol: to[2]!.toUpperCase(), quantity: toQty.toFixed() as never, cash: money(subtotal.neg().toFixed()) },
        ...fee(),
      );
      return;
    }
    if ((type === "deposit" || type === "withdrawal") && FIATS.has(asset)) {
      const amount = subtotal ?? qty;
      transactions.push({ ...base, type: type === "deposit" ? "DEPOSIT" : "WITHDRAWAL", quantity: ZERO, cash: { amount: (type === "deposit" ? amount : amount.neg()).toFixed(), currency: asset } as never });
      return;
    }
    if (/income|reward|receive|send|deposit|withdrawal/.test(type)) {
      const out = type === "send" || type === "withdrawal";
      if (type === "receive" || type === "deposit") warnings.push({ code: "costBasisAtMarket", message: `Line ${row}: ${asset} received ("${get("Transaction Type")}") is valued at the market price of the day; change the cost basis if you know what you paid`, row, severity: "info" });
      transactions.push({
        ...base, type: "ADJUSTMENT", symbol: asset, quantity: (out ? qty.neg() : qty).toFixed() as never,
        ...(!out && price ? { costBasis: money(price.toFixed()) } : {}), description: get("Transaction Type"),
      });
      return;
    }
    skip({ code: "unsupportedType", message: unknownType(row, what, "cash or coins"), row, severity: "warning" });
  });
  return { transactions, warnings, skippedRows };
}
