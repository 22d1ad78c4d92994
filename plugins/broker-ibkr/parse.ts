import {
  Decimal, type ImportedTransaction, type ImportFileMeta, type ImportParseParams, type ImportResult, type ImportSkippedRow, type ImportWarning, PluginError,
} from "../../sdk/index.ts";
import { decodeText, parseDate, parseDecimal, parseXml, readCsv } from "../../sdk/import/index.ts";
import { lineWas, notImported, unknownType } from "../../sdk/import/skips.ts";

// Interactive Brokers statements, as Flex Query XML or CSV, or the Activity Statement CSV.
//
// Flex XML: <FlexQueryResponse><FlexStatements><FlexStatement> holding <Trades><Trade .../></Trades> and
// <CashTransactions><CashTransaction .../></CashTransactions>; every value is an attribute.
// Flex CSV comes in three shapes, all with the XML's field names as column headers (a few differ:
// CurrencyPrimary for currency, AssetClass for assetCategory, Buy/Sell, Date/Time):
//  - one header row per section, the columns the user picked in any order (ClientAccountID and
//    AccountAlias only when chosen); a header row is told from data by its field names;
//  - with "section code and line descriptor": BOF/BOA/BOS rows, then `"HEADER","TRNT",...` and
//    `"DATA","TRNT",...` (TRNT trades, CTRN cash transactions, POST positions, ...), EOS/EOA/EOF;
//  - either one without Proceeds: TradeMoney is quantity × price with the quantity's sign, so the
//    cash is its negation (else NetCash less the commission, else −quantity × TradePrice).
// Activity Statement CSV (Reports > Statements > Activity > CSV): every row starts with its
// section and a descriptor, `Trades,Header,...` then `Trades,Data,...`, SubTotal/Total rows, and a
// section may repeat its header with other columns (stocks, options, forex). Trades carry Asset
// Category (Stocks, Equity and Index Options, Forex, ...), Date/Time "2024-03-04, 10:15:02",
// Quantity (thousands with commas), Proceeds, Comm/Fee (or "Comm in EUR"); the ISIN and the
// multiplier of a symbol are in the Financial Instrument Information section. Cash sections:
// Dividends, Payment In Lieu Of Dividends, Withholding Tax, Deposits & Withdrawals, Fees, Interest,
// each `Currency, Date, Description, Amount`, the asset only in the description ("VT(US...) ...").
//
// Dates are yyyyMMdd or yyyy-MM-dd (a time after ";" or ", " dropped); numbers use a decimal point
// and carry their sign: Trade quantity < 0 is a sale, proceeds < 0 a payment, commission < 0 a cost
// in its own currency. One order filled in several executions gives several rows with one
// ibOrderID. A forex trade (CASH / Forex, symbol BASE.QUOTE) moves quantity units of BASE against
// proceeds in QUOTE: an FX_CONVERSION pair. An option moves contracts × multiplier units (the
// ledger has no contract size; the asset's price is then per underlying share), with an info
// warning; a trade without cash (an expiry, an assignment's option leg) is an ADJUSTMENT of those
// units at a zero cost. Futures and other derivatives are skipped with a warning. CashTransaction
// types: Dividends, Payment In Lieu Of Dividends, Withholding Tax, Deposits/Withdrawals, Broker
// Interest Received/Paid, Bond Interest, Other Fees, Commission Adjustments. Rows that repeat
// executions (LevelOfDetail ORDER, SYMBOL_SUMMARY, CLOSED_LOT; Activity "Order" rows when
// "Execution" rows are present), totals and sections that hold no transactions are skipped with
// an info warning, so every data row is accounted for.

type Rec = Record<string, string>;

const ALIASES: Record<string, string> = {
  currencyprimary: "currency", assetclass: "assetcategory", tprice: "tradeprice", commfee: "ibcommission",
  datadiscriminator: "levelofdetail", settledate: "settledate", mult: "multiplier",
};
const key = (name: string) => {
  const k = name.toLowerCase().replace(/[^a-z0-9]/g, "");
  if (/^commin[a-z]{3}$/.test(k)) return "ibcommission";
  return ALIASES[k] ?? k;
};
const normalize = (record: Record<string, unknown>): Rec =>
  Object.fromEntries(Object.entries(record).filter(([, v]) => typeof v === "string").map(([k, v]) => [key(k), (v as string).trim()]));

const SECURITIES = new Set(["STK", "ETF", "FUND", "BOND", "BILL", "WAR", ""]);
const OPTIONS = new Set(["OPT", "FOP"]);
/** Activity Statement asset categories, as the Flex codes. */
const CATEGORIES: Record<string, string> = {
  stocks: "STK", "equity and index options": "OPT", "options on futures": "FOP", forex: "CASH", futures: "FUT", bonds: "BOND",
  "treasury bills": "BILL", warrants: "WAR", funds: "FUND", "mutual funds": "FUND", cfds: "CFD", crypto: "CRYPTO", "etfs": "ETF",
};

/** Field names only a Flex query writes (CurrencyPrimary, IBCommission, ...): a header row of a Flex CSV. */
const FLEX_ONLY = new Set(["clientaccountid", "accountalias", "currencyprimary", "ibcommission", "ibcommissioncurrency", "iborderid", "levelofdetail", "fifopnlrealized", "trademoney", "transactionid", "conid"]);
const FLEX_FIELDS = new Set([...FLEX_ONLY, "assetcategory", "symbol", "description", "isin", "tradeid", "datetime", "tradedate", "quantity", "tradeprice",
  "proceeds", "netcash", "buysell", "settledate", "amount", "type", "multiplier", "reportdate", "date", "markprice", "positionvalue", "underlyingsymbol", "exchange"]);

function isFlexHeader(cells: readonly string[]): boolean {
  const keys = cells.map(key);
  const known = keys.filter((k) => FLEX_FIELDS.has(k)).length;
  return cells.some((c) => FLEX_ONLY.has(c.toLowerCase().replace(/[^a-z0-9]/g, ""))) && known >= 3 && known >= keys.filter((k) => k !== "").length * 0.6;
}

const tradeHeader = (keys: readonly string[]) => keys.includes("quantity") && (keys.includes("tradedate") || keys.includes("buysell") || keys.includes("tradeprice"));
const cashHeader = (keys: readonly string[]) => keys.includes("amount") && keys.includes("type");

/** 0.95 for a Flex XML statement, a sectioned Flex CSV or an Activity Statement CSV; 0.9 for a Flex CSV with trades or cash columns; 0 otherwise. */
export function acceptsIbkr(file: ImportFileMeta): number {
  if (file.format === "xml") return /<FlexQueryResponse\b|<FlexStatements?\b/.test(file.head) ? 0.95 : 0;
  if (file.format !== undefined && file.format !== "text") return 0;
  const first = file.head.split(/\r?\n/, 1)[0] ?? "";
  if (/^"?BOF"?,/.test(first) && /^"?HEADER"?,"?(TRNT|CTRN)"?,/m.test(file.head)) return 0.95;
  if (/^"?Statement"?,"?Header"?,/.test(first) || /^"?(Trades|Dividends|Withholding Tax|Deposits & Withdrawals)"?,"?Header"?,/m.test(file.head)) return 0.95;
  const cells = readCsv(first, { separator: "," }).rows[0] ?? [];
  if (!isFlexHeader(cells)) return 0;
  const keys = cells.map(key);
  return tradeHeader(keys) || cashHeader(keys) ? 0.9 : 0;
}

interface Sections {
  cash: Rec[];
  skippedRows: ImportSkippedRow[];
  trades: Rec[];
  warnings: ImportWarning[];
}

/** A line left out: listed in `skippedRows` with the warning's message (a record of the XML has no line). */
function skipLine(notes: Pick<Sections, "skippedRows" | "warnings">, warning: ImportWarning): void {
  notes.warnings.push(warning);
  if (warning.row) notes.skippedRows.push({ line: warning.row, reason: warning.message });
}

const info = (code: string, message: string, row?: number): ImportWarning => ({ code, message, severity: "info", ...(row ? { row } : {}) });

/** "Line 21" or "Lines 21, 23": the lines a group's reason names. */
const linesOf = (lines: readonly number[]) => `${lines.length > 1 ? "Lines" : "Line"} ${lines.join(", ")}`;

/** The reason for lines of a section that holds no transactions (positions, summaries, notes). */
const sectionReason = (name: string, lines: readonly number[]) =>
  `${linesOf(lines)}: ${name} holds positions, summaries or notes and no transactions; not imported, nothing to enter: these lines move no cash`;

/**
 * The reason for a record left out: what it was, why and what to do (`notImported`), led by its
 * line; a record of the XML has no line, so its reason starts with what it was.
 */
function reasonOf(r: Rec, what: string, why: string, todo: string): string {
  const row = rowOf(r).row;
  return row ? notImported(row, what, why, todo) : `${what.charAt(0).toUpperCase()}${what.slice(1)} ${why}; not imported, ${todo}`;
}

/** What a trade record was, for its reason: the section, asset class, symbol, date, quantity and proceeds. */
const tradeWas = (r: Rec) =>
  lineWas("Trades", r.assetcategory, r.symbol || r.description, r.tradedate || r.datetime, r.quantity, (r.proceeds || r.trademoney || r.netcash) && `${r.proceeds || r.trademoney || r.netcash} ${r.currency ?? ""}`.trim());
/** What a cash record was, for its reason: its type, description, date and amount. */
const cashWas = (r: Rec) => lineWas(r.type ?? "", r.description || r.symbol, r.datetime || r.date || r.settledate, r.amount && `${r.amount} ${r.currency ?? ""}`.trim());

function xmlSections(text: string): Sections {
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
  return { cash, skippedRows: [], trades, warnings: [] };
}

function record(header: readonly string[], cells: readonly string[], line: number): Rec {
  const rec: Rec = { __row: String(line) };
  header.forEach((h, j) => { if (h && !(h in rec && rec[h] !== "")) rec[h] = (cells[j] ?? "").trim(); });
  return rec;
}

/** Flex CSV, plain or with section codes: records of the trades and cash sections, the other sections accounted for. */
function flexSections(rows: readonly (readonly string[])[]): Sections {
  const out: Sections = { cash: [], skippedRows: [], trades: [], warnings: [] };
  const coded = rows.some((r) => r[0] === "HEADER" && /^[A-Z]{4}$/.test(r[1] ?? ""));
  const headers = new Map<string, string[]>();
  const skipped = new Map<string, number[]>();
  let plainHeader: string[] | null = null;
  rows.forEach((r, i) => {
    const line = i + 1;
    let header: string[] | undefined;
    let cells: readonly string[];
    let section: string;
    if (coded) {
      if (r[0] === "HEADER") { headers.set(r[1] ?? "", r.slice(2).map(key)); return; }
      if (r[0] !== "DATA") return; // BOF, BOA, BOS, EOS, EOA, EOF: the file's frame
      section = r[1] ?? "";
      header = headers.get(section);
      cells = r.slice(2);
    } else {
      if (isFlexHeader(r)) { plainHeader = r.map(key); return; }
      header = plainHeader ?? undefined;
      cells = r;
      section = header?.join(",") ?? "";
    }
    if (!header) throw new PluginError("invalid-input", `Line ${line} has no header row above it`);
    const rec = record(header, cells, line);
    if (section === "TRNT" || (!coded && tradeHeader(header))) out.trades.push(rec);
    else if (section === "CTRN" || (!coded && cashHeader(header))) out.cash.push(rec);
    else skipped.set(section, [...(skipped.get(section) ?? []), line]);
  });
  for (const [section, lines] of skipped) {
    const message = sectionReason(/^[A-Z]{4}$/.test(section) ? `the ${section} section` : "a section of other columns", lines);
    out.warnings.push(info("sectionSkipped", message, lines[0]));
    for (const line of lines) out.skippedRows.push({ line, reason: message });
  }
  return out;
}

const ISIN_IN_TEXT = /^([^\s(]+)\s*\(([A-Z]{2}[A-Z0-9]{9}[0-9])\)/;
const CASH_SECTIONS: Record<string, string> = {
  dividends: "Dividends", "payment in lieu of dividends": "Payment In Lieu Of Dividends", "withholding tax": "Withholding Tax",
  "deposits & withdrawals": "Deposits/Withdrawals", fees: "Other Fees", interest: "Broker Interest", "broker interest received": "Broker Interest",
  "bond interest": "Bond Interest",
};

/** Activity Statement CSV: `Section,Header|Data|SubTotal|Total|Notes,...` rows. */
function activitySections(rows: readonly (readonly string[])[]): Sections {
  const out: Sections = { cash: [], skippedRows: [], trades: [], warnings: [] };
  const headers = new Map<string, string[]>();
  const commissionCurrency = new Map<string, string>();
  const instruments = new Map<string, { isin?: string; multiplier?: string; description?: string }>();
  const skipped = new Map<string, number[]>();
  const trades: Rec[] = [];
  rows.forEach((r, i) => {
    const line = i + 1;
    const [section = "", kind = ""] = r;
    const name = section.trim().toLowerCase();
    if (kind === "Header") {
      headers.set(section, r.slice(2).map(key));
      commissionCurrency.set(section, /^Comm in ([A-Z]{3})$/.exec(r.slice(2).find((h) => /^Comm in /.test(h)) ?? "")?.[1] ?? "");
      return;
    }
    if (kind === "SubTotal" || kind === "Total") {
      const message = notImported(line, lineWas(kind, section, ...r.slice(2, 4)), `sums lines of ${section} above it`, "nothing to enter: those lines are imported one by one");
      skipLine(out, info("summaryRowSkipped", message, line));
      return;
    }
    if (kind !== "Data") return; // Notes and blank descriptors carry no values
    const rec = record(headers.get(section) ?? [], r.slice(2), line);
    if (name === "financial instrument information") {
      const id = rec.securityid && /^[A-Z]{2}[A-Z0-9]{9}[0-9]$/.test(rec.securityid) ? rec.securityid : undefined;
      instruments.set(rec.symbol ?? "", { ...(id ? { isin: id } : {}), ...(rec.multiplier ? { multiplier: rec.multiplier } : {}), ...(rec.description ? { description: rec.description } : {}) });
      const what = lineWas(section, rec.symbol, rec.description);
      out.skippedRows.push({ line, reason: notImported(line, what, "describes an instrument, whose ISIN and multiplier complete its trades", "nothing to enter: it moves no cash or shares") });
      return;
    }
    if (name === "trades") {
      rec.assetcategory = CATEGORIES[(rec.assetcategory ?? "").toLowerCase()] ?? (rec.assetcategory ?? "").toUpperCase();
      rec.levelofdetail = (rec.levelofdetail ?? "").toUpperCase();
      if (commissionCurrency.get(section)) rec.ibcommissioncurrency = commissionCurrency.get(section)!;
      trades.push(rec);
      return;
    }
    const cashType = CASH_SECTIONS[name];
    if (cashType) {
      if (/^total/i.test(rec.currency ?? "") || /^total/i.test(rec.subtitle ?? "")) {
        const what = lineWas(section, rec.currency || rec.subtitle, rec.amount);
        skipLine(out, info("summaryRowSkipped", notImported(line, what, `is a total of the ${section} lines above it`, "nothing to enter: those lines are imported one by one"), line));
        return;
      }
      const asset = ISIN_IN_TEXT.exec(rec.description ?? "");
      const type = name === "fees" ? "Other Fees" : name === "interest" && (rec.amount ?? "").startsWith("-") ? "Broker Interest Paid" : cashType;
      out.cash.push({ ...rec, type, ...(asset ? { symbol: asset[1]!, isin: asset[2]! } : {}) });
      return;
    }
    skipped.set(section, [...(skipped.get(section) ?? []), line]);
  });
  // An Order row sums the Execution rows below it: with executions present, the orders are skipped.
  const executions = trades.some((t) => t.levelofdetail === "EXECUTION");
  for (const t of trades) {
    const known = instruments.get(t.symbol ?? "");
    if (known?.isin && !t.isin) t.isin = known.isin;
    if (known?.multiplier && !t.multiplier) t.multiplier = known.multiplier;
    if (t.levelofdetail === "ORDER" || t.levelofdetail === "TRADE") t.levelofdetail = executions ? "ORDER" : "EXECUTION";
    out.trades.push(t);
  }
  for (const [section, lines] of skipped) {
    const message = sectionReason(`the ${section} section`, lines);
    out.warnings.push(info("sectionSkipped", message, lines[0]));
    for (const line of lines) out.skippedRows.push({ line, reason: message });
  }
  return out;
}

function sections(params: ImportParseParams): Sections {
  const { text } = decodeText(params.bytes);
  if (/^\s*</.test(text)) return xmlSections(text);
  const { rows } = readCsv(text, { separator: "," });
  const first = rows[0] ?? [];
  if (first[1] === "Header" || rows.some((r) => r[1] === "Header" && /^(Trades|Dividends|Withholding Tax)$/.test(r[0] ?? ""))) return activitySections(rows);
  if (rows.some((r) => (r[0] === "HEADER" && /^[A-Z]{4}$/.test(r[1] ?? "")) || isFlexHeader(r))) return flexSections(rows);
  throw new PluginError("invalid-input", "This is not an IBKR Flex Query CSV or Activity Statement (no Flex header row such as ClientAccountID, CurrencyPrimary, TradeDate)");
}

const money = (amount: Decimal, currency: string) => ({ amount: amount.toFixed(), currency: currency.toUpperCase() }) as ImportedTransaction["cash"];
const ZERO = "0" as ImportedTransaction["quantity"];

/**
 * The instrument type an asset class states. STK is left out: IBKR files ETFs under it too
 * ("Stocks"), so it does not tell a stock from an ETF.
 */
const TYPE_OF_CLASS: Record<string, ImportedTransaction["assetType"]> = { ETF: "ETF", BOND: "BOND", BILL: "BOND", FUND: "FUND", CRYPTO: "CRYPTO" };

function assetOf(r: Rec) {
  const assetType = TYPE_OF_CLASS[(r.assetcategory ?? "").toUpperCase()];
  return {
    ...(r.isin ? { isin: r.isin } : {}), ...(r.symbol ? { symbol: r.symbol } : {}), ...(r.description ? { assetName: r.description } : {}),
    ...(assetType ? { assetType } : {}),
  };
}

function rowOf(r: Rec): { row?: number } {
  return r.__row ? { row: Number(r.__row) } : {};
}

/** The trade's cash in its currency: Proceeds, else −TradeMoney, else NetCash less the commission, else −quantity × TradePrice. */
function proceedsOf(r: Rec, quantity: Decimal): Decimal | null {
  const proceeds = parseDecimal(r.proceeds, ".");
  if (proceeds) return proceeds;
  const money = parseDecimal(r.trademoney, ".");
  if (money) return money.neg();
  const net = parseDecimal(r.netcash, ".");
  if (net) return net.minus(parseDecimal(r.ibcommission, ".") ?? 0);
  const price = parseDecimal(r.tradeprice, ".");
  return price ? quantity.times(price).neg() : null;
}

function readTrade(r: Rec, out: ImportedTransaction[], notes: Pick<Sections, "skippedRows" | "warnings">): void {
  const { warnings } = notes;
  const level = (r.levelofdetail || "EXECUTION").toUpperCase();
  if (level !== "EXECUTION") {
    const message = reasonOf(r, tradeWas(r), `is a ${level} row, which sums the executions of its trades, and those are imported one by one`, "nothing to enter");
    skipLine(notes, info("summaryRowSkipped", message, rowOf(r).row));
    return;
  }
  const date = parseDate(r.tradedate || r.datetime, "YMD");
  const quantity = parseDecimal(r.quantity, ".");
  const category = (r.assetcategory ?? "").toUpperCase();
  const base = { ...rowOf(r), ...(r.iborderid ? { orderId: r.iborderid } : {}) };
  const proceeds = quantity ? proceedsOf(r, quantity) : null;
  if (!date || !quantity || quantity.isZero() || !proceeds || !/^[A-Za-z]{3}$/.test(r.currency ?? "")) {
    const message = reasonOf(r, tradeWas(r), "lacks a readable date, quantity, proceeds or currency", "enter the trade by hand from IBKR's trade confirmation, or add the missing fields to the Flex query and upload again");
    skipLine(notes, { code: "rowSkipped", message, severity: "warning", ...rowOf(r) });
    return;
  }
  if (category === "CASH") {
    const [from, to] = (r.symbol ?? "").split(".");
    if (!from || !/^[A-Z]{3}$/.test(from) || to?.toUpperCase() !== r.currency.toUpperCase() || proceeds.isZero()) {
      const message = reasonOf(r, tradeWas(r), "is a forex trade whose Symbol does not read as its two currencies (as in EUR.USD, priced in USD)", "enter it by hand as the two legs of an FX_CONVERSION");
      skipLine(notes, { code: "rowSkipped", message, severity: "warning", ...rowOf(r) });
      return;
    }
    const pairKey = `fx-${r.tradeid || r.__row || out.length}`;
    out.push({ ...base, date, type: "FX_CONVERSION", quantity: ZERO, cash: money(quantity, from), pairKey });
    out.push({ ...base, date, type: "FX_CONVERSION", quantity: ZERO, cash: money(proceeds, r.currency), pairKey });
  } else if (SECURITIES.has(category) || OPTIONS.has(category)) {
    if (!r.isin && !r.symbol && !r.description) {
      const why = "is a trade naming no asset (no ISIN, Symbol or Description)";
      const todo = "add ISIN, Symbol and Description to the Flex query (a forex trade needs Symbol and AssetClass) and upload again, or enter it by hand";
      skipLine(notes, { code: "rowSkipped", message: reasonOf(r, tradeWas(r), why, todo), severity: "warning", ...rowOf(r) });
      return;
    }
    let units = quantity;
    if (OPTIONS.has(category)) {
      const multiplier = parseDecimal(r.multiplier, ".");
      if (!multiplier || multiplier.lte(0)) {
        const message = reasonOf(r, tradeWas(r), "is an option trade without a Multiplier, so the units it moved cannot be told", "add Multiplier to the Flex query and upload again, or enter it by hand");
        skipLine(notes, { code: "optionMultiplierMissing", message, severity: "warning", ...rowOf(r) });
        return;
      }
      units = quantity.times(multiplier);
      // OSI symbols pad the root with spaces ("AAPL  240621C00200000"); one space keeps them within a ticker's 20 characters.
      r.symbol = (r.symbol ?? "").replace(/\s+/g, " ");
      warnings.push(info("optionMultiplied", `Option ${r.symbol}: ${quantity.toFixed()} contracts × multiplier ${multiplier.toFixed()} = ${units.toFixed()} units; price the asset per unit`, rowOf(r).row));
    }
    const currency = r.currency.toUpperCase();
    if (proceeds.isZero()) {
      // An expiry or an assignment's option leg: the units move without cash.
      warnings.push(info("zeroProceeds", `A trade of ${r.symbol} without cash (expiry, assignment or exercise) is an adjustment of ${units.toFixed()} units`, rowOf(r).row));
      out.push({ ...base, date, type: "ADJUSTMENT", ...assetOf(r), quantity: units.toFixed() as never, ...(units.gt(0) ? { costBasis: { amount: "0", currency } as never } : {}) });
    } else {
      const buy = units.gt(0);
      out.push({ ...base, date, type: buy ? "BUY" : "SELL", ...assetOf(r), quantity: units.toFixed() as never, cash: money(buy ? proceeds.abs().neg() : proceeds.abs(), currency) });
    }
  } else {
    const why = `is a trade of asset class ${category || "(none)"}, which the importer does not read (futures and other contracts are not holdings of securities)`;
    const message = reasonOf(r, tradeWas(r), why, "enter it by hand if you track it here, its result as INTEREST (a gain) or FEE (a cost)");
    skipLine(notes, { code: "unsupportedAsset", message, severity: "warning", ...rowOf(r) });
    return;
  }
  const commission = parseDecimal(r.ibcommission, ".");
  if (commission && !commission.isZero()) {
    const currency = r.ibcommissioncurrency || r.currency;
    const withAsset = category === "CASH" ? {} : assetOf(r);
    out.push({ ...base, date, type: commission.lt(0) ? "FEE" : "INTEREST", ...withAsset, quantity: ZERO, cash: money(commission, currency) });
  }
}

function readCash(r: Rec, out: ImportedTransaction[], notes: Pick<Sections, "skippedRows" | "warnings">): void {
  const { warnings } = notes;
  const date = parseDate(r.datetime || r.date || r.settledate, "YMD");
  const amount = parseDecimal(r.amount, ".");
  const type = (r.type ?? "").toLowerCase();
  if (!date || !amount || amount.isZero() || !/^[A-Za-z]{3}$/.test(r.currency ?? "")) {
    const message = reasonOf(r, cashWas(r), "is a cash transaction without a readable date, amount other than zero or currency", "enter it by hand from IBKR's statement if it moved cash");
    skipLine(notes, { code: "rowSkipped", message, severity: "warning", ...rowOf(r) });
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
    const row = rowOf(r).row;
    const message = row ? unknownType(row, cashWas(r), "cash") : reasonOf(r, cashWas(r), "is a type the importer does not know, so what it moved cannot be told", "enter it by hand if it moved cash");
    skipLine(notes, { code: "unknownCashType", message, severity: "warning", ...rowOf(r) });
  }
}

/** Reads a Flex Query statement (XML or CSV) or an Activity Statement CSV; see the format notes at the top of this file. */
export function parseIbkr(params: ImportParseParams): ImportResult {
  if (params.bytes.length === 0) throw new PluginError("invalid-input", "The file is empty");
  const { cash, trades, warnings: skipped, skippedRows } = sections(params);
  const transactions: ImportedTransaction[] = [];
  const notes = { skippedRows, warnings: [] as ImportWarning[] };
  for (const t of trades) readTrade(t, transactions, notes);
  for (const c of cash) readCash(c, transactions, notes);
  notes.warnings.push(...skipped);
  return { transactions, warnings: notes.warnings, skippedRows: skippedRows.sort((a, b) => a.line - b.line) };
}
