import { type ImportedTransaction, type ImportFileMeta, type ImportParseParams, type ImportResult, type ImportWarning, isPluginError, PluginError } from "../../sdk/index.ts";
import { columns, eachRecord, parseDate, parseDecimal, readWorkbook } from "../../sdk/import/index.ts";

// XTB account statement (xStation > History > Export, XLSX). One sheet per part; the cash
// movements are in "CASH OPERATION HISTORY": an account block on top (labels "Account",
// "Currency" with the account currency in the row below), then `ID, Type, Time, Symbol, Comment,
// Amount`. Time is text "DD.MM.YYYY HH:MM:SS"; Amount is a number, signed, in the account currency.
// Symbols carry the market ("VWCE.DE", "AAPL.US"); there is no ISIN. The quantity of a trade is
// only in the comment: "OPEN BUY 4 @ 108.42", or "CLOSE BUY 2/4 @ 112.10" (2 of the 4 closed).
// Types: deposit, withdrawal, Stocks/ETF purchase, Stocks/ETF sale, DIVIDENT (sic), Withholding
// Tax, Free-funds Interest, Free-funds Interest Tax, Sec Fee, commission; CFD types (close trade,
// swap, rollover) and adjustments are skipped with a warning.

const SHEET = "CASH OPERATION HISTORY";

export function acceptsXtb(file: ImportFileMeta): number {
  if (file.format !== "xlsx" && file.format !== "xls") return 0;
  // The content of a workbook is not in `head`: the name hints, and `auto` tries the next plugin if this one fails.
  return /xtb|cash.?operation/i.test(file.filename) ? 0.6 : 0.1;
}

const ZERO = "0" as ImportedTransaction["quantity"];
const TRADE_QTY = /(?:OPEN|CLOSE)\s+(?:BUY|SELL)\s+([\d.]+)(?:\/[\d.]+)?\s*@/i;

export async function parseXtb(params: ImportParseParams): Promise<ImportResult> {
  if (params.bytes.length === 0) throw new PluginError("invalid-input", "The file is empty");
  let sheets;
  try {
    sheets = await readWorkbook(params.bytes);
  } catch (error) {
    if (isPluginError(error)) throw error; // a workbook beyond the reader's limits: its message names the limit
    throw new PluginError("invalid-input", "This is not a spreadsheet (XTB statements are XLSX)");
  }
  const sheet = sheets.find((s) => s.name.toUpperCase() === SHEET);
  if (!sheet) throw new PluginError("invalid-input", `No sheet "${SHEET}" in this workbook (is it an XTB account statement?)`);
  const rows = sheet.rows.map((r) => r.map((c) => c ?? ""));
  const at = rows.findIndex((r) => r.includes("ID") && r.includes("Type") && r.includes("Amount"));
  if (at < 0) throw new PluginError("invalid-input", "The cash operations sheet has no ID/Type/Amount header");
  let currency = "";
  for (let i = 0; i < at; i++) {
    const c = rows[i]!.findIndex((v) => v.trim().toLowerCase() === "currency");
    if (c >= 0 && /^[A-Z]{3}$/.test(rows[i + 1]?.[c]?.trim() ?? "")) currency = rows[i + 1]![c]!.trim();
  }
  if (!currency) throw new PluginError("invalid-input", "The account currency is missing from the statement's header block");
  const cols = columns(rows[at]!);
  const transactions: ImportedTransaction[] = [];
  const warnings: ImportWarning[] = [];
  eachRecord(rows, at, cols, ({ cells, get, row }) => {
    if (cells.every((c) => c.trim() === "")) return;
    const type = get("Type").toLowerCase();
    const date = parseDate(get("Time"), "DMY");
    const amount = parseDecimal(get("Amount"), ".");
    const symbol = get("Symbol");
    const comment = get("Comment");
    if (!date || !amount || amount.isZero()) return warnings.push({ code: "rowSkipped", message: `Row ${row} has no time or amount`, row, severity: "warning" });
    const asset = symbol ? { symbol } : {};
    const cash = { amount: amount.toFixed(), currency } as ImportedTransaction["cash"];
    const base = { row, date, description: comment || undefined };
    if (type.includes("purchase") || type.includes("sale")) {
      const qty = parseDecimal(TRADE_QTY.exec(comment)?.[1] ?? "", ".");
      if (!qty) return warnings.push({ code: "rowSkipped", message: `No quantity in "${comment}"`, row, severity: "warning" });
      const buy = type.includes("purchase");
      return transactions.push({ ...base, type: buy ? "BUY" : "SELL", ...asset, quantity: (buy ? qty : qty.neg()).toFixed() as never, cash });
    }
    const simple: [RegExp, ImportedTransaction["type"], boolean][] = [
      [/^deposit/, "DEPOSIT", false], [/^withdrawal/, "WITHDRAWAL", false], [/^divident|^dividend/, "DIVIDEND", true],
      [/withholding tax/, "TAX", true], [/interest tax/, "TAX", false], [/interest/, "INTEREST", false], [/fee|commission/, "FEE", true],
    ];
    const hit = simple.find(([re]) => re.test(type));
    if (!hit) return warnings.push({ code: "unsupportedType", message: `"${get("Type")}" rows are not imported`, row, severity: "warning" });
    transactions.push({ ...base, type: hit[1], ...(hit[2] ? asset : {}), quantity: ZERO, cash });
  });
  return { transactions: transactions.map(({ description, ...t }) => ({ ...t, ...(description ? { description } : {}) })), warnings };
}
