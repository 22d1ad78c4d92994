import {
  Decimal, type ImportedTransaction, type ImportFileMeta, type ImportParseParams, type ImportResult, type ImportWarning, isPluginError, PluginError,
} from "../../sdk/index.ts";
import { assetTypeOfName, columns, normalizeHeader, parseDate, parseDecimal, readCsv, readWorkbook, sniffFormat } from "../../sdk/import/index.ts";
import { lineWas, notImported, unknownType, unreadableLine } from "../../sdk/import/skips.ts";

// Vanguard UK Personal Investor "Client Transactions Listing - Excel" (Documents > Report
// Generator), an XLSX with one sheet per account (ISA, General Account, SIPP). Each sheet: the
// account's title ("A Sample's Stocks & Shares ISA"), then two tables, each under its title:
//  - "Cash Transactions": `Date, Details, Amount, Balance` (Details may span merged columns), the
//    account's cash ledger in pounds, signed; closed by a line "Balance" and the closing balance;
//  - "Investment Transactions": `Date, InvestmentName, TransactionDetails, Quantity, Price, Cost`,
//    the trades (trade date, units unsigned, Cost in pounds to four decimals), closed by "Cost"
//    and a total; or "No transactions found for this product.".
// A trade is in both: the cash line "Bought 25 Vanguard FTSE All-World UCITS ETF (VWRL)" (the money
// paid, in pence) and the investment line with the same TransactionDetails (units and trade date).
// The plugin writes one BUY/SELL from the pair: units and trade date from the investment line, the
// cash line's amount; the cash line is listed in skipped_rows as merged. Other cash lines by
// Details: "Deposit for investment purchases", "Regular Deposit", "Deposit via direct credit",
// "Payment by Faster - One-off withdrawal Faster", "Cash Account Interest", "Account Fee for the
// period ...", "DIV: VWRL.XLON.GB @ GBP 0.3970" (the ticker before the first dot), and "Reversal of
// <details>" cancelling an earlier line. ETFs carry their ticker in brackets in the name; funds
// only their name (written with "–" or "-" in different lines). Reports before late 2021 leave
// TransactionDetails empty (the sign of Quantity says buy or sell); "NameChange: OLD.XLON replaced
// with NEW.XLON" rows rename a holding.
// The same two tables converted to CSV (as UK tax tools ask for) are read too.

const CASH_HEADER = ["date", "details", "amount", "balance"];
const INVESTMENT_HEADER = ["date", "investmentname", "transactiondetails", "quantity", "cost"];
const CASH_TITLE = "cash transactions";

type Cells = readonly string[];

const isHeader = (row: Cells, want: readonly string[]) => {
  const have = new Set(row.map(normalizeHeader));
  return want.every((w) => have.has(w));
};
const firstCell = (row: Cells) => (row.find((c) => c.trim() !== "") ?? "").trim();

/** Whether rows (a sheet's or a CSV's head) have the cash table under its title. */
function looksLikeListing(rows: readonly Cells[]): boolean {
  const title = rows.findIndex((r) => firstCell(r).toLowerCase() === CASH_TITLE);
  return title >= 0 && rows.slice(title + 1, title + 5).some((r) => isHeader(r, CASH_HEADER));
}

/** 0.95 for a workbook sheet (or a CSV) with the "Cash Transactions" table under its title, else 0. */
export function acceptsVanguardUk(file: ImportFileMeta): number {
  if (file.format === "xlsx" || file.format === "xls") {
    if (!file.sheets) return 0.05;
    return file.sheets.some((s) => looksLikeListing(s.rows)) ? 0.95 : 0;
  }
  if ((file.format !== undefined && file.format !== "text") || file.head === "") return 0;
  return looksLikeListing(readCsv(file.head, { separator: "," }).rows) ? 0.95 : 0;
}

interface Line {
  amount: Decimal;
  date: ImportedTransaction["date"];
  details: string;
  row: number;
}
interface Trade {
  cost: Decimal | null;
  /** Whether the row is a sale (from its details, else from the sign of its quantity). */
  sold: boolean;
  date: ImportedTransaction["date"];
  details: string;
  name: string;
  quantity: Decimal;
  row: number;
}

const ZERO = "0" as ImportedTransaction["quantity"];
const gbp = (v: Decimal) => ({ amount: v.toFixed(), currency: "GBP" }) as ImportedTransaction["cash"];
const same = (a: string, b: string) => a.replace(/[–—]/g, "-").replace(/\s+/g, " ").trim().toLowerCase() === b.replace(/[–—]/g, "-").replace(/\s+/g, " ").trim().toLowerCase();
const TRADE = /^(bought|sold)\s+([\d.,]+)\s+(.+)$/i;

/** An ETF's ticker in brackets at the end of its name; funds have none. */
function assetOf(name: string): Pick<ImportedTransaction, "assetName" | "assetType" | "symbol"> {
  const clean = name.replace(/[–—]/g, "-").replace(/\s+/g, " ").trim();
  const symbol = /\(([A-Z0-9.]{2,8})\)\s*$/.exec(clean)?.[1];
  const assetType = assetTypeOfName(clean);
  return { ...(symbol ? { symbol } : {}), ...(clean ? { assetName: clean } : {}), ...(assetType ? { assetType } : {}) };
}

async function sheetsOf(params: ImportParseParams): Promise<{ name: string; rows: string[][] }[]> {
  const format = sniffFormat(params.bytes);
  if (format === "xlsx" || format === "xls") {
    try {
      return (await readWorkbook(params.bytes)).map((s) => ({ name: s.name, rows: s.rows.map((r) => r.map((c) => c ?? "")) }));
    } catch (error) {
      if (isPluginError(error)) throw error; // a workbook beyond the reader's limits: its message names the limit
      throw new PluginError("invalid-input", "This spreadsheet cannot be read: it is cut short or damaged, or not an XLSX or XLS workbook (export the report again)");
    }
  }
  if (format !== "text") throw new PluginError("invalid-input", "This is not a Vanguard UK transactions listing (XLSX or CSV)");
  // Blank lines kept, so a row's index + 1 is its line in the file.
  return [{ name: "CSV", rows: readCsv(params.bytes, { keepEmptyLines: true, separator: "," }).rows.map((r) => [...r]) }];
}

/** Reads the listing; see the format notes at the top of this file. */
export async function parseVanguardUk(params: ImportParseParams): Promise<ImportResult> {
  if (params.bytes.length === 0) throw new PluginError("invalid-input", "The file is empty");
  const sheets = (await sheetsOf(params)).filter((s) => looksLikeListing(s.rows));
  if (sheets.length === 0) throw new PluginError("invalid-input", "This is not a Vanguard UK transactions listing (no \"Cash Transactions\" table with Date, Details, Amount, Balance)");
  const transactions: ImportedTransaction[] = [];
  const warnings: ImportWarning[] = [];
  const skippedRows: { line: number; reason: string }[] = [];
  const skip = (row: number, reason: string, severity: "info" | "warning" = "info", code = "rowSkipped") => {
    skippedRows.push({ line: row, reason });
    warnings.push({ code, message: reason, row, severity });
  };
  if (sheets.length > 1) {
    warnings.push({ code: "severalAccounts", severity: "warning", message: `The workbook holds ${sheets.length} accounts (${sheets.map((s) => s.name).join(", ")}), all read into this broker: import each account's report into its own broker` });
  }
  for (const sheet of sheets) readSheet(sheet.rows, transactions, warnings, skip);
  transactions.sort((a, b) => (a.row ?? 0) - (b.row ?? 0));
  skippedRows.sort((a, b) => a.line - b.line);
  return { detectedFormat: "vanguard-uk/transactions-listing", skippedRows, transactions, warnings };
}

type Skip = (row: number, reason: string, severity?: "info" | "warning", code?: string) => void;

/** What a cash line was, for its reason: its details, date and amount in pounds. */
const cashWas = (line: Line) => lineWas(line.details, line.date, `${line.amount.toFixed()} GBP`);

function readSheet(rows: string[][], transactions: ImportedTransaction[], warnings: ImportWarning[], skip: Skip): void {
  const cash: Line[] = [];
  const trades: Trade[] = [];
  let section: "cash" | "investment" | null = null;
  let cols = columns([]);
  rows.forEach((cells, i) => {
    const row = i + 1;
    const first = firstCell(cells);
    const lower = first.toLowerCase();
    if (first === "") return;
    if (lower === CASH_TITLE) { section = null; return; }
    if (lower === "investment transactions") { section = null; return; }
    if (isHeader(cells, CASH_HEADER)) { section = "cash"; cols = columns(cells); return; }
    if (isHeader(cells, INVESTMENT_HEADER)) { section = "investment"; cols = columns(cells); return; }
    if (section === null) return; // the account's title and anything else outside the tables
    const get = (...names: string[]) => cols.get(cells, ...names);
    const nothing = "nothing to enter: it moves no cash";
    if (lower === "balance" || lower === "cost") {
      section = null;
      return skip(row, notImported(row, lineWas(first), "closes the table with its total, not a transaction", "nothing to enter: the lines above it are imported one by one"));
    }
    if (/^no transactions found/i.test(first)) return skip(row, notImported(row, lineWas(first), "is the report's note that the table is empty", nothing));
    if (/^page\s+\d+(\s*(of|\/)\s*\d+)?$/i.test(first)) return skip(row, notImported(row, lineWas(first), "is a page label of the report", nothing));
    // What the line was, for a skipped line's reason: its details or fund, date and amount or quantity.
    const was = section === "cash"
      ? lineWas(get("Details"), get("Date"), get("Amount"))
      : lineWas(get("TransactionDetails") || get("InvestmentName"), get("InvestmentName"), get("Date"), get("Quantity"));
    const date = parseDate(get("Date"), "DMY");
    if (!date) return skip(row, unreadableLine(row, "Date", get("Date"), "a date (DD/MM/YYYY)", was), "warning");
    if (section === "cash") {
      const amount = parseDecimal(get("Amount"), ".");
      if (amount === null || amount.isZero()) return skip(row, unreadableLine(row, "Amount", get("Amount"), "an amount other than zero", was), "warning");
      return cash.push({ amount, date, details: get("Details").replace(/\s+/g, " "), row });
    }
    const details = get("TransactionDetails").replace(/\s+/g, " ");
    if (/^namechange:/i.test(details)) {
      return skip(row, notImported(row, was, "is a change of name or ticker, which moves no cash or units", "rename the asset by hand to its new name or ticker"), "warning", "corporateAction");
    }
    const signed = parseDecimal(get("Quantity"), ".");
    if (!signed || signed.isZero()) return skip(row, unreadableLine(row, "Quantity", get("Quantity"), "a quantity other than zero", was), "warning");
    // Rows of reports before late 2021 have no TransactionDetails: the sign of Quantity says buy or sell.
    const sold = details === "" ? signed.isNeg() : /^sold\b/i.test(details);
    trades.push({ cost: parseDecimal(get("Cost"), ".")?.abs() ?? null, date, details, name: get("InvestmentName"), quantity: signed.abs(), row, sold });
  });

  const matched = new Set<Trade>();
  // A "Reversal of <details>" cancels the nearest line above it with those details and the
  // opposite amount: both are skipped, so the income is not counted and cancelled.
  const reversed = new Set<Line>();
  cash.forEach((line, i) => {
    const reversal = /^reversal of (.+)$/i.exec(line.details);
    if (!reversal) return;
    if (TRADE.test(reversal[1]!)) {
      // A reversed trade would have to be undone with its units too; no report showing one has been seen.
      reversed.add(line);
      const why = "reverses a trade, and the cash line does not say how many units went back";
      return skip(line.row, notImported(line.row, cashWas(line), why, "check the holding and cash and correct them by hand"), "warning", "tradeReversal");
    }
    const original = cash.slice(0, i).reverse().find((o) => !reversed.has(o) && same(o.details, reversal[1]!) && o.amount.eq(line.amount.neg()));
    if (!original) return;
    reversed.add(original).add(line);
    skip(original.row, notImported(original.row, cashWas(original), `is reversed by line ${line.row}, and the two cancel out`, "nothing to enter: together they move no cash"));
    skip(line.row, notImported(line.row, cashWas(line), `reverses line ${original.row}, and the two cancel out`, "nothing to enter: together they move no cash"));
  });
  for (const line of cash) {
    if (reversed.has(line)) continue;
    const trade = TRADE.exec(line.details);
    if (trade) {
      const buy = trade[1]!.toLowerCase() === "bought";
      // Its investment line: the same details, the nearest trade date.
      const candidates = trades.filter((t) => !matched.has(t) && (t.details === ""
        ? t.sold === !buy && same(t.name, trade[3]!) && parseDecimal(trade[2]!, ".")?.eq(t.quantity) === true
        : same(t.details, line.details)));
      const days = (t: Trade) => Math.abs(Date.parse(t.date) - Date.parse(line.date));
      const partner = candidates.sort((a, b) => days(a) - days(b))[0];
      const quantity = partner?.quantity ?? parseDecimal(trade[2]!, ".")?.abs();
      if (!quantity || quantity.isZero()) {
        const todo = `enter it by hand as a ${buy ? "BUY" : "SELL"} with the units from Vanguard's contract note`;
        skip(line.row, notImported(line.row, cashWas(line), "is a trade whose quantity cannot be read from its details", todo), "warning");
        continue;
      }
      if (partner) {
        matched.add(partner);
        // Not "not imported": its amount is the trade's cash, on the investment line's row.
        skip(line.row, `Line ${line.row}: ${cashWas(line)} is the cash of the trade on line ${partner.row}; merged into it, nothing to enter on its own`);
      }
      transactions.push({
        row: partner?.row ?? line.row, date: partner?.date ?? line.date, type: buy ? "BUY" : "SELL", ...assetOf(partner?.name || trade[3]!),
        quantity: (buy ? quantity : quantity.neg()).toFixed() as never, cash: gbp(buy ? line.amount.abs().neg() : line.amount.abs()), description: line.details,
      });
      continue;
    }
    const words = line.details.toLowerCase();
    const positive = line.amount.gt(0);
    const base = { row: line.row, date: line.date, quantity: ZERO, cash: gbp(line.amount), description: line.details };
    const div = /^div:\s*([A-Z0-9]+)/i.exec(line.details);
    if (div) {
      if (!positive) warnings.push({ code: "dividendReversal", message: `Line ${line.row}: a negative dividend was read as a fee`, row: line.row, severity: "info" });
      transactions.push({ ...base, type: positive ? "DIVIDEND" : "FEE", symbol: div[1]!.toUpperCase() });
    } else if (/interest/.test(words)) {
      transactions.push({ ...base, type: positive ? "INTEREST" : "FEE" });
    } else if (/\bfee\b|charge/.test(words)) {
      transactions.push({ ...base, type: positive ? "INTEREST" : "FEE" });
    } else if (/deposit|withdrawal|payment by|transfer|contribution|subscription/.test(words)) {
      transactions.push({ ...base, type: positive ? "DEPOSIT" : "WITHDRAWAL" });
    } else {
      skip(line.row, unknownType(line.row, cashWas(line), "cash"), "warning", "unsupportedType");
    }
  }
  // Trades whose cash line is outside the report's dates: their Cost, in pence.
  for (const t of trades.filter((t) => !matched.has(t))) {
    const trade = TRADE.exec(t.details);
    if ((!trade && t.details !== "") || !t.cost) {
      const was = lineWas(t.details || t.name, t.details ? t.name : "", t.date, t.quantity.toFixed());
      skip(t.row, notImported(t.row, was, "is neither a purchase nor a sale with a cost, and no cash line pays for it", "enter it by hand as the trade or transfer it was"), "warning");
      continue;
    }
    const buy = !t.sold;
    const cost = t.cost.toDecimalPlaces(2);
    warnings.push({ code: "tradeWithoutCash", message: `Line ${t.row}: no cash line for this trade; its Cost (${cost.toFixed()}) was used`, row: t.row, severity: "info" });
    transactions.push({
      row: t.row, date: t.date, type: buy ? "BUY" : "SELL", ...assetOf(t.name || trade?.[3] || ""),
      quantity: (buy ? t.quantity : t.quantity.neg()).toFixed() as never, cash: gbp(buy ? cost.neg() : cost), description: t.details,
    });
  }
}
