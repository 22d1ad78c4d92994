import {
  Decimal, type ImportedTransaction, type ImportFileMeta, type ImportParseParams, type ImportResult, type ImportWarning, PluginError,
} from "../../sdk/index.ts";
import { decodeText, parseDate, parseDecimal, parseXml, readCsv } from "../../sdk/import/index.ts";

// Interactive Brokers Activity Flex Query, as XML or CSV (the user builds the query in Client
// Portal > Performance & Reports > Flex Queries; include the Trades and Cash Transactions sections).
//
// XML: <FlexQueryResponse><FlexStatements><FlexStatement> holding <Trades><Trade .../></Trades> and
// <CashTransactions><CashTransaction .../></CashTransactions>; every value is an attribute.
// CSV: the same fields as columns, one header row per section (a row starting with
// "ClientAccountID" begins a section); a few names differ from the XML attributes:
// CurrencyPrimary (currency), AssetClass (assetCategory), Buy/Sell, Date/Time.
// Dates are yyyyMMdd, date-times yyyyMMdd;HHmmss (the query's default formats); numbers use a
// decimal point and carry their sign: Trade quantity < 0 is a sale, proceeds < 0 a payment,
// ibCommission < 0 a cost in ibCommissionCurrency. One order filled in several executions gives
// several Trade rows with one ibOrderID. A forex trade (assetCategory CASH, symbol BASE.QUOTE)
// moves quantity units of BASE against proceeds in QUOTE (= currency): an FX_CONVERSION pair.
// CashTransaction types: Dividends, Payment In Lieu Of Dividends, Withholding Tax,
// Deposits/Withdrawals, Broker Interest Received/Paid, Bond Interest Received/Paid, Other Fees,
// Commission Adjustments. Order summary elements (<Order>, levelOfDetail ORDER) repeat executions
// and are ignored; options, futures and other derivatives are skipped with a warning.

type Rec = Record<string, string>;

const ALIASES: Record<string, string> = { currencyprimary: "currency", assetclass: "assetcategory" };
const key = (name: string) => {
  const k = name.toLowerCase().replace(/[^a-z0-9]/g, "");
  return ALIASES[k] ?? k;
};
const normalize = (record: Record<string, unknown>): Rec =>
  Object.fromEntries(Object.entries(record).filter(([, v]) => typeof v === "string").map(([k, v]) => [key(k), (v as string).trim()]));

const SECURITIES = new Set(["STK", "ETF", "FUND", "BOND", "BILL", "WAR", ""]);

/** 0.95 for a Flex XML statement or a Flex CSV with Trades or Cash Transactions columns; 0 otherwise. */
export function acceptsIbkr(file: ImportFileMeta): number {
  if (file.format === "xml") return /<FlexQueryResponse\b|<FlexStatements?\b/.test(file.head) ? 0.95 : 0;
  if (file.format !== undefined && file.format !== "text") return 0;
  const first = file.head.split(/\r?\n/, 1)[0] ?? "";
  return /^"?ClientAccountID"?,/.test(first) && /(TradeDate|Date\/Time|DateTime)/.test(first) ? 0.95 : 0;
}

function sections(params: ImportParseParams): { cash: Rec[]; trades: Rec[] } {
  const { text } = decodeText(params.bytes);
  if (/^\s*</.test(text)) {
    let doc: Record<string, any>;
    try {
      doc = parseXml(text, ["FlexStatement", "Trade", "CashTransaction"]);
    } catch {
      throw new PluginError("invalid-input", "The XML is malformed");
    }
    const statements: any[] = doc.FlexQueryResponse?.FlexStatements?.FlexStatement;
    if (!Array.isArray(statements)) throw new PluginError("invalid-input", "This XML is not an IBKR Flex statement (no FlexQueryResponse/FlexStatements)");
    const trades: Rec[] = [];
    const cash: Rec[] = [];
    for (const s of statements) {
      for (const t of s?.Trades?.Trade ?? []) trades.push(normalize(t));
      for (const c of s?.CashTransactions?.CashTransaction ?? []) cash.push(normalize(c));
    }
    return { cash, trades };
  }
  const { rows } = readCsv(text, { separator: "," });
  if (!/^clientaccountid$/i.test(rows[0]?.[0] ?? "")) {
    throw new PluginError("invalid-input", "This is not an IBKR Flex Query CSV (the first row should start with ClientAccountID)");
  }
  const trades: Rec[] = [];
  const cash: Rec[] = [];
  // Not the SDK's eachRecord: a Flex CSV has a header row per section anywhere in the file, and each
  // row becomes a record keyed like the XML's attributes, so both formats share readTrade/readCash.
  let header: string[] = [];
  rows.forEach((r, i) => {
    if (/^clientaccountid$/i.test(r[0] ?? "")) {
      header = r.map(key);
      return;
    }
    const rec: Rec = { __row: String(i + 1) };
    header.forEach((h, j) => { rec[h] = (r[j] ?? "").trim(); });
    if ("tradedate" in rec) trades.push(rec);
    else if ("type" in rec && "amount" in rec) cash.push(rec);
  });
  return { cash, trades };
}

const money = (amount: Decimal, currency: string) => ({ amount: amount.toFixed(), currency: currency.toUpperCase() }) as ImportedTransaction["cash"];
const ZERO = "0" as ImportedTransaction["quantity"];

function assetOf(r: Rec) {
  return { ...(r.isin ? { isin: r.isin } : {}), ...(r.symbol ? { symbol: r.symbol } : {}), ...(r.description ? { assetName: r.description } : {}) };
}

function rowOf(r: Rec): { row?: number } {
  return r.__row ? { row: Number(r.__row) } : {};
}

function readTrade(r: Rec, out: ImportedTransaction[], warnings: ImportWarning[]): void {
  if ((r.levelofdetail ?? "EXECUTION").toUpperCase() !== "EXECUTION") return;
  const date = parseDate(r.tradedate || r.datetime, "YMD");
  const quantity = parseDecimal(r.quantity, ".");
  const proceeds = parseDecimal(r.proceeds, ".");
  const category = (r.assetcategory ?? "").toUpperCase();
  const base = { ...rowOf(r), ...(r.iborderid ? { orderId: r.iborderid } : {}) };
  if (!date || !quantity || quantity.isZero() || !proceeds || !/^[A-Za-z]{3}$/.test(r.currency ?? "")) {
    warnings.push({ code: "rowSkipped", message: "A trade without date, quantity, proceeds or currency was skipped", severity: "warning", ...rowOf(r) });
    return;
  }
  if (category === "CASH") {
    const [from, to] = (r.symbol ?? "").split(".");
    if (!from || !/^[A-Z]{3}$/.test(from) || to?.toUpperCase() !== r.currency.toUpperCase()) {
      warnings.push({ code: "rowSkipped", message: `Forex trade ${r.symbol} not understood`, severity: "warning", ...rowOf(r) });
      return;
    }
    const pairKey = `fx-${r.tradeid || r.__row || out.length}`;
    out.push({ ...base, date, type: "FX_CONVERSION", quantity: ZERO, cash: money(quantity, from), pairKey });
    out.push({ ...base, date, type: "FX_CONVERSION", quantity: ZERO, cash: money(proceeds, r.currency), pairKey });
  } else if (SECURITIES.has(category)) {
    const buy = quantity.gt(0);
    out.push({ ...base, date, type: buy ? "BUY" : "SELL", ...assetOf(r), quantity: quantity.toFixed() as never, cash: money(buy ? proceeds.abs().neg() : proceeds.abs(), r.currency) });
  } else {
    warnings.push({ code: "unsupportedAsset", message: `${category} trades (${r.symbol}) are not imported`, severity: "warning", ...rowOf(r) });
    return;
  }
  const commission = parseDecimal(r.ibcommission, ".");
  if (commission && !commission.isZero()) {
    const currency = r.ibcommissioncurrency || r.currency;
    const withAsset = category === "CASH" ? {} : assetOf(r);
    out.push({ ...base, date, type: commission.lt(0) ? "FEE" : "INTEREST", ...withAsset, quantity: ZERO, cash: money(commission, currency) });
  }
}

function readCash(r: Rec, out: ImportedTransaction[], warnings: ImportWarning[]): void {
  const date = parseDate(r.datetime || r.date || r.settledate, "YMD");
  const amount = parseDecimal(r.amount, ".");
  const type = (r.type ?? "").toLowerCase();
  if (!date || !amount || amount.isZero() || !/^[A-Za-z]{3}$/.test(r.currency ?? "")) {
    warnings.push({ code: "rowSkipped", message: "A cash transaction without date, amount or currency was skipped", severity: "warning", ...rowOf(r) });
    return;
  }
  const base = { ...rowOf(r), date, quantity: ZERO, cash: money(amount, r.currency), ...(r.description ? { description: r.description } : {}) };
  const positive = amount.gt(0);
  const asset = r.isin || r.symbol ? assetOf({ ...r, description: "" }) : {};
  if (type.includes("dividend")) {
    if (!positive) warnings.push({ code: "dividendReversal", message: "A negative dividend (a reversal) was read as a fee on the asset", severity: "info", ...rowOf(r) });
    out.push({ ...base, type: positive ? "DIVIDEND" : "FEE", ...asset });
  } else if (type.includes("withholding") || type.includes("tax")) {
    if (positive) warnings.push({ code: "taxRefund", message: "A withholding tax refund was read as a dividend", severity: "info", ...rowOf(r) });
    out.push({ ...base, type: positive ? (r.isin || r.symbol ? "DIVIDEND" : "INTEREST") : "TAX", ...asset });
  } else if (type.includes("deposit") || type.includes("withdraw")) {
    out.push({ ...base, type: positive ? "DEPOSIT" : "WITHDRAWAL" });
  } else if (type.includes("interest")) {
    out.push({ ...base, type: positive ? "INTEREST" : "FEE", ...asset });
  } else if (type.includes("fee") || type.includes("commission")) {
    if (positive) warnings.push({ code: "feeRefund", message: "A fee refund was read as interest", severity: "info", ...rowOf(r) });
    out.push({ ...base, type: positive ? "INTEREST" : "FEE" });
  } else {
    warnings.push({ code: "unknownCashType", message: `Cash transactions of type "${r.type}" are not imported`, severity: "warning", ...rowOf(r) });
  }
}

/** Reads a Flex Query statement (XML or CSV); see the format notes at the top of this file. */
export function parseIbkr(params: ImportParseParams): ImportResult {
  if (params.bytes.length === 0) throw new PluginError("invalid-input", "The file is empty");
  const { cash, trades } = sections(params);
  const transactions: ImportedTransaction[] = [];
  const warnings: ImportWarning[] = [];
  for (const t of trades) readTrade(t, transactions, warnings);
  for (const c of cash) readCash(c, transactions, warnings);
  return { transactions, warnings };
}
