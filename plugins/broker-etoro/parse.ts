import { type ImportedTransaction, type ImportFileMeta, type ImportParseParams, type ImportResult, type ImportWarning, isPluginError, PluginError } from "../../sdk/index.ts";
import { columns, eachRecord, parseDate, parseDecimal, readWorkbook } from "../../sdk/import/index.ts";

// eToro account statement (Portfolio > History > Account statement > XLSX). The import reads the
// "Account Activity" sheet: `Date, Type, Details, Amount, Units, Realized Equity Change, Realized
// Equity, Balance, Position ID, Asset type, NWA`. Dates are text DD/MM/YYYY HH:MM:SS; money is in
// USD (the account currency), Amount a number: what a position took in ("Open Position"), what it
// gave back ("Position closed"), or the signed cash of the row. Details is "TICKER/USD" (the
// instrument and its quote currency); Units is "-" on cash rows. Types: Deposit, Open Position,
// Position closed, Dividend, Interest Payment, Withdraw Request, Withdraw Fee, Overnight fee,
// SDRT, Adjustment (skipped with a warning).

const SHEET = "account activity";

export function acceptsEtoro(file: ImportFileMeta): number {
  if (file.format !== "xlsx" && file.format !== "xls") return 0;
  // The content of a workbook is not in `head`: the name hints, and `auto` tries the next plugin if this one fails.
  return /etoro/i.test(file.filename) ? 0.6 : 0.1;
}

const ZERO = "0" as ImportedTransaction["quantity"];

export async function parseEtoro(params: ImportParseParams): Promise<ImportResult> {
  if (params.bytes.length === 0) throw new PluginError("invalid-input", "The file is empty");
  let sheets;
  try {
    sheets = await readWorkbook(params.bytes);
  } catch (error) {
    if (isPluginError(error)) throw error; // a workbook beyond the reader's limits: its message names the limit
    throw new PluginError("invalid-input", "This is not a spreadsheet (eToro statements are XLSX)");
  }
  const sheet = sheets.find((s) => s.name.toLowerCase() === SHEET);
  if (!sheet) throw new PluginError("invalid-input", 'No sheet "Account Activity" in this workbook (is it an eToro account statement?)');
  const rows = sheet.rows.map((r) => r.map((c) => c ?? ""));
  const cols = columns(rows[0] ?? []);
  if (!cols.has("Type") || !cols.has("Amount") || !cols.has("Details")) throw new PluginError("invalid-input", "The Account Activity sheet lacks Type, Details or Amount");
  const transactions: ImportedTransaction[] = [];
  const warnings: ImportWarning[] = [];
  eachRecord(rows, 0, cols, ({ get, row }) => {
    const type = get("Type").toLowerCase();
    const date = parseDate(get("Date"), "DMY");
    const amount = parseDecimal(get("Amount"), ".");
    if (!date || !amount || amount.isZero()) return warnings.push({ code: "rowSkipped", message: `Row ${row} has no date or amount`, row, severity: "warning" });
    const [ticker] = get("Details").split("/");
    const currency = "USD";
    const asset = ticker ? { symbol: ticker.trim() } : {};
    const usd = (v: string) => ({ amount: v, currency }) as ImportedTransaction["cash"];
    if (type === "open position" || type === "position closed") {
      const units = parseDecimal(get("Units"), ".")?.abs();
      if (!units || units.isZero()) return warnings.push({ code: "rowSkipped", message: "A position without units", row, severity: "warning" });
      const buy = type === "open position";
      return transactions.push({ row, date, type: buy ? "BUY" : "SELL", ...asset, quantity: (buy ? units : units.neg()).toFixed() as never, cash: usd((buy ? amount.abs().neg() : amount.abs()).toFixed()) });
    }
    const rules: [RegExp, ImportedTransaction["type"], boolean][] = [
      [/^deposit/, "DEPOSIT", false], [/^withdraw request/, "WITHDRAWAL", false], [/^dividend/, "DIVIDEND", true],
      [/interest/, "INTEREST", false], [/fee|sdrt/, "FEE", true],
    ];
    const rule = rules.find(([re]) => re.test(type));
    if (!rule) return warnings.push({ code: "unsupportedType", message: `"${get("Type")}" rows are not imported`, row, severity: "warning" });
    const negative = rule[1] === "WITHDRAWAL" || rule[1] === "FEE";
    transactions.push({ row, date, type: rule[1], ...(rule[2] ? asset : {}), quantity: ZERO, cash: usd((negative ? amount.abs().neg() : amount.abs()).toFixed()) });
  });
  return { transactions, warnings };
}
