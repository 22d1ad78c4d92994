import { type ImportSkippedRow, type ImportedTransaction, type ImportFileMeta, type ImportParseParams, type ImportResult, type ImportWarning, isPluginError, PluginError } from "../../sdk/index.ts";
import {
  columns, detectDecimalMark, eachRecord, normalizeHeader, parseDate, parseDecimal, readCsv, readWorkbook, sniffFormat, skipper,
} from "../../sdk/import/index.ts";
import { lineWas, notImported, unknownType, unreadableLine } from "../../sdk/import/skips.ts";

// XTB cash operations (xStation > History > Cash operations > Export), the account's ledger. Three
// shapes are in use:
//  - the XLSX statement: one sheet per part ("OPEN POSITION <date>", "CLOSED POSITION HISTORY",
//    "CASH OPERATION HISTORY", "PENDING ORDERS"), each with an account block on top (labels in one
//    row, values in the next: "Name and surname", "Account", "Currency", "Balance", ..., a date
//    range), then `ID, Type, Time, Comment, Symbol, Amount` and a closing Total line. The account
//    currency is the value under "Currency".
//  - the semicolon CSV `ID;Type;Time;Comment;Symbol;Amount;;;;`, no preamble, points as decimals;
//  - the 2025 CSV: "Account number", "Cash Operations" and the UTC date range above
//    `Type;Ticker;Instrument;Time;Amount;ID;Comment;Product`, decimal commas with "." thousands,
//    times YYYY-MM-DD, a Total line.
// Neither CSV names the account currency: the parse needs option `currency` (a wrong guess would
// be a wrong number). Amount is signed, in the account currency; Time "DD.MM.YYYY HH:MM:SS" (some
// exports "DD/MM/YYYY") or ISO. Symbols carry the market ("VWCE.DE", "AAPL.US"); no ISIN. A trade's
// quantity is only in the comment: "OPEN BUY 4 @ 108.42", a partial fill "OPEN BUY 34/42.5 @ 11.74"
// (34 of 42.5), a sale "CLOSE BUY 2/4 @ 112.10". Type words seen: Deposit, IKE deposit, cash
// transfer in, Withdrawal, Transfer, Stocks/ETF purchase, Stock purchase, ETF purchase, Ações/ETF
// compra, Stocks/ETF sale, Stock sell, ETF sale, Ações/ETF vende, Dividend, DIVIDENT (sic),
// Withholding tax, Free funds interest(s), Free funds interest(s) tax, SEC fee, commission; the sign
// decides refunds (a positive withholding tax is a dividend, a negative interest a fee). CFD rows
// (Profit/Loss (FX/CFD), Swap, Rollover, close trade), Spin off and Adjustment are skipped with a
// warning. The positions sheets and the closed positions CSV repeat the trades without their cash
// and are not imported.

const SHEET = /^cash operation history/i;
const V1 = ["id", "type", "time", "comment", "symbol", "amount"];
const V2 = ["type", "ticker", "instrument", "time", "amount", "id", "comment", "product"];
const CLOSED = ["position", "symbol", "type", "open time", "close time", "open rate", "close rate", "profit"];

const hasAll = (row: readonly string[], want: readonly string[]) => {
  const have = new Set(row.map(normalizeHeader));
  return want.every((w) => have.has(w));
};
const headerIndex = (rows: readonly (readonly string[])[], want: readonly string[], scan = 40) => {
  for (let i = 0; i < Math.min(rows.length, scan); i++) if (hasAll(rows[i]!, want)) return i;
  return -1;
};

/** 0.95 for a workbook with a cash operations sheet or either cash operations CSV, 0.9 for the closed positions CSV; 0 otherwise. */
export function acceptsXtb(file: ImportFileMeta): number {
  if (file.format === "xlsx" || file.format === "xls") {
    // Without the sheets (a host that does not read them) the content is unknown: `auto` tries the plugins in turn.
    if (!file.sheets) return 0.05;
    return file.sheets.some((s) => SHEET.test(s.name) || headerIndex(s.rows, V1) >= 0) ? 0.95 : 0;
  }
  if ((file.format !== undefined && file.format !== "text") || file.head === "") return 0;
  const rows = readCsv(file.head, { separator: ";" }).rows;
  if (headerIndex(rows, V1, 1) === 0 || headerIndex(rows, V2, 10) >= 0) return 0.95;
  return headerIndex(rows, CLOSED, 1) === 0 && hasAll(rows[0]!, ["id", "commission", "rollover", "net profit"]) ? 0.9 : 0;
}

const ZERO = "0" as ImportedTransaction["quantity"];
const TRADE_QTY = /(?:OPEN|CLOSE)\s+(?:BUY|SELL)\s+([\d.]+)(?:\/[\d.]+)?\s*@/i;
const BUY = /purchase|compra|\bbuy\b/;
const SELL = /\bsale\b|\bsell\b|vende|venda/;
/**
 * Cash kinds: the type's words, the type when the amount is positive, when negative, whether the row
 * names its asset, and the usual sign (a row of the other sign is a refund or a correction: noted).
 */
const CASH: [RegExp, ImportedTransaction["type"], ImportedTransaction["type"], boolean, 1 | -1 | 0][] = [
  [/deposit|transfer in/, "DEPOSIT", "WITHDRAWAL", false, 0],
  [/withdrawal|^transfer/, "DEPOSIT", "WITHDRAWAL", false, 0],
  [/interests? tax/, "INTEREST", "TAX", false, -1],
  [/withholding tax/, "DIVIDEND", "TAX", true, -1],
  [/^divident|^dividend/, "DIVIDEND", "FEE", true, 1],
  [/interest/, "INTEREST", "FEE", false, 1],
  [/fee|commission/, "INTEREST", "FEE", true, -1],
];

interface Table {
  at: number;
  currency: string;
  mark: "." | ",";
  rows: string[][];
  skippedSheets: string[];
}

async function tableOf(params: ImportParseParams): Promise<Table> {
  const format = sniffFormat(params.bytes);
  if (format === "xlsx" || format === "xls") {
    let sheets;
    try {
      sheets = await readWorkbook(params.bytes);
    } catch (error) {
      if (isPluginError(error)) throw error; // a workbook beyond the reader's limits: its message names the limit
      throw new PluginError("invalid-input", "This spreadsheet cannot be read: it is cut short or damaged, or not an XLSX or XLS workbook (export the report again)");
    }
    const sheet = sheets.find((s) => SHEET.test(s.name.trim()));
    if (!sheet) throw new PluginError("invalid-input", 'No sheet "CASH OPERATION HISTORY" in this workbook (is it an XTB statement?)');
    const rows = sheet.rows.map((r) => r.map((c) => c ?? ""));
    const at = headerIndex(rows, V1);
    if (at < 0) throw new PluginError("invalid-input", "The cash operations sheet has no ID/Type/Time/Comment/Symbol/Amount header");
    let currency = "";
    for (let i = 0; i < at; i++) {
      const c = rows[i]!.findIndex((v) => v.trim().toLowerCase() === "currency");
      if (c >= 0 && /^[A-Z]{3}$/.test(rows[i + 1]?.[c]?.trim() ?? "")) currency = rows[i + 1]![c]!.trim();
    }
    if (!currency) throw new PluginError("invalid-input", "The account currency is missing from the statement's header block");
    // Workbook numbers are read as exact decimal strings with a point.
    return { at, currency, mark: ".", rows, skippedSheets: sheets.filter((s) => s !== sheet).map((s) => s.name) };
  }
  const rows = readCsv(params.bytes, { separator: ";" }).rows.map((r) => [...r]);
  if (headerIndex(rows, CLOSED, 1) === 0) {
    throw new PluginError("invalid-input", "This is XTB's closed positions list: it repeats the trades without their cash. Export Cash Operations instead");
  }
  const at = headerIndex(rows, V1, 1) === 0 ? 0 : headerIndex(rows, V2, 10);
  if (at < 0) throw new PluginError("invalid-input", "This is not an XTB cash operations export (no ID, Type, Time, Comment, Symbol, Amount header)");
  const option = typeof params.options?.currency === "string" ? params.options.currency.trim().toUpperCase() : "";
  if (!/^[A-Z]{3}$/.test(option)) {
    throw new PluginError("invalid-input", "XTB's CSV does not say the account's currency: parse again with the option currency (e.g. EUR or PLN)");
  }
  const amounts = rows.slice(at + 1).map((r) => r[columns(rows[at]!).index("Amount")] ?? "");
  return { at, currency: option, mark: detectDecimalMark(amounts), rows, skippedSheets: [] };
}

export async function parseXtb(params: ImportParseParams): Promise<ImportResult> {
  if (params.bytes.length === 0) throw new PluginError("invalid-input", "The file is empty");
  const { at, currency, mark, rows, skippedSheets } = await tableOf(params);
  const cols = columns(rows[at]!);
  const transactions: ImportedTransaction[] = [];
  const warnings: ImportWarning[] = [];
  const skippedRows: ImportSkippedRow[] = [];
  const skip = skipper(warnings, skippedRows);
  eachRecord(rows, at, cols, ({ cells, get, row }) => {
    if (cells.every((c) => c.trim() === "")) return;
    const rawType = get("Type");
    const type = rawType.toLowerCase();
    const symbol = get("Symbol", "Ticker");
    const name = get("Instrument");
    const comment = get("Comment");
    // What the line was, for a skipped line's reason: its type, symbol, comment, time and amount.
    const what = lineWas(rawType, symbol, comment, get("Time"), get("Amount") && `${get("Amount")} ${currency}`);
    const why = (code: string, reason: string, todo: string, severity: "info" | "warning" = "warning") => skip({ code, message: notImported(row, what, reason, todo), row, severity });
    if (/^total$/i.test(rawType.trim()) || /^total$/i.test(get("ID"))) {
      return skip({ code: "summaryRowSkipped", message: notImported(row, lineWas("Total", get("Amount") && `${get("Amount")} ${currency}`), "sums the rows above it", "nothing to enter: those rows are imported one by one"), row, severity: "info" });
    }
    const date = parseDate(get("Time"), "DMY");
    const amount = parseDecimal(get("Amount"), mark);
    if (!date) return skip({ code: "rowSkipped", message: unreadableLine(row, "Time", get("Time"), "a date and time", what), row, severity: "warning" });
    if (!amount || amount.isZero()) return skip({ code: "rowSkipped", message: unreadableLine(row, "Amount", get("Amount"), "an amount other than zero", what), row, severity: "warning" });
    // "ETF purchase" or "Stock sell" says the type; "Stocks/ETF purchase" does not.
    const etf = /\betf\b/.test(type), stock = /\bstocks?\b|\ba[cç][õo]es\b/.test(type);
    const assetType = etf !== stock ? (etf ? "ETF" as const : "STOCK" as const) : undefined;
    const asset = symbol ? { symbol, ...(name ? { assetName: name } : {}), ...(assetType ? { assetType } : {}) } : {};
    const cash = { amount: amount.toFixed(), currency } as ImportedTransaction["cash"];
    const base = { row, date, ...(comment ? { description: comment } : {}) };
    const buy = BUY.test(type);
    if (buy || SELL.test(type)) {
      const qty = parseDecimal(TRADE_QTY.exec(comment)?.[1] ?? "", ".");
      const side = buy ? "BUY" : "SELL";
      if (!qty || qty.isZero()) return why("rowSkipped", 'has no quantity in its Comment (expected as in "OPEN BUY 4 @ 108.42")', `enter it by hand as a ${side} with the quantity from XTB's trade confirmation`);
      if (buy !== amount.lt(0)) {
        return why("rowSkipped", `has ${buy ? "a positive" : "a negative"} amount, the sign a ${buy ? "purchase" : "sale"} never has (a correction or reversal?)`, "check the trade with XTB and enter or correct it by hand");
      }
      return transactions.push({ ...base, type: buy ? "BUY" : "SELL", ...asset, quantity: (buy ? qty : qty.neg()).toFixed() as never, cash });
    }
    if (/cfd|swap|rollover|close trade/.test(type)) {
      return why("unsupportedType", "is the profit, loss or financing of a CFD position, a contract and not a holding of shares", "enter it by hand as INTEREST (a gain) or FEE (a cost) if you want CFD results counted");
    }
    if (/spin.?off/.test(type)) {
      return why("unsupportedType", "is a spin-off, whose new shares and their cost the cash line does not give", "enter what it moved by hand: shares received as an ADJUSTMENT with their cost basis, cash paid to you as the payment it was");
    }
    const kind = CASH.find(([re]) => re.test(type));
    if (!kind && /^adjustment/.test(type)) {
      return why("unsupportedType", "is a correction of the balance by XTB, and the file does not say what it corrects", "enter it by hand as the DEPOSIT, WITHDRAWAL, FEE or INTEREST it was if it changed your cash");
    }
    if (!kind) return skip({ code: "unsupportedType", message: unknownType(row, what), row, severity: "warning" });
    const [, positive, negative, withAsset, usual] = kind;
    const typed = amount.gt(0) ? positive : negative;
    if (usual !== 0 && usual !== (amount.gt(0) ? 1 : -1)) {
      warnings.push({ code: "signReversed", message: `Line ${row}: ${what} has the other sign than usual and was read as ${typed} (a refund or correction); change its type if it is something else`, row, severity: "info" });
    }
    transactions.push({ ...base, type: typed, ...(withAsset ? asset : {}), quantity: ZERO, cash });
  });
  if (skippedSheets.length > 0) {
    warnings.push({ code: "sheetSkipped", message: `Sheets ${skippedSheets.map((s) => `"${s}"`).join(", ")} list positions and orders, not cash movements, and are not imported; nothing to enter: the trades come from the cash operations`, severity: "info" });
  }
  return { transactions, warnings, skippedRows };
}
