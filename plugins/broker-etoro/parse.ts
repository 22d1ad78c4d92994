import { type ImportSkippedRow, type ImportedTransaction, type ImportFileMeta, type ImportParseParams, type ImportResult, type ImportWarning, PluginError } from "../../sdk/index.ts";
import { columns, eachRecord, findHeaderRow, parseDate, parseDecimal, readCsv, sniffFormat, sheetFormat, skipper } from "../../sdk/import/index.ts";
import { lineWas, notImported, unknownType, unreadableLine } from "../../sdk/import/skips.ts";

// eToro account statement (Settings > Account > Account statement > XLSX), English. Sheets: Account
// Summary, Closed Positions, Account Activity, Dividends, Financial Summary. The import reads
// "Account Activity", the ledger: `Date, Type, Details, Amount, Units / Contracts (older files:
// Units), Realized Equity Change, Realized Equity, Balance, Position ID, Asset type, NWA`, and takes
// ISINs from "Closed Positions" (by Position ID). Dates are text DD/MM/YYYY HH:MM:SS (or date
// cells); money is in USD (the account currency). Amount is what a position took in ("Open
// Position", positive), what it gave back ("Position closed"), or the signed cash of the row.
// Details is "TICKER/CCY"; Units is "-" on cash rows. The same sheet saved as CSV is read too (its
// numbers may mix "4,581.91", " 200,00 " and "(0,31)": read per value). Types: Deposit, Withdraw
// Request, Withdraw Request Cancelled, Open Position, Position closed, Dividend, Interest Payment,
// Withdraw Fee, Deposit/Withdrawal Conversion Fee, Overnight fee/refund, SDRT, Commission. Rows of
// CFD positions (Asset type CFD: leveraged or short, not a holding) are skipped with a warning, as
// are copy-trading moves and Adjustment; settings rows (Edit Stop Loss, Start/Stop Copy) move no cash.

const SHEET = "account activity";
/** The `Asset type` column, as the instrument type (CFD rows are skipped). */
const ASSET_TYPE: Record<string, ImportedTransaction["assetType"]> = { stocks: "STOCK", stock: "STOCK", etf: "ETF", etfs: "ETF", crypto: "CRYPTO", cryptocurrency: "CRYPTO" };

const REQUIRED = ["date", "type", "details", "amount", "position id", "asset type"];

/** The statement workbook's Account Activity sheet. */
const WORKBOOK = sheetFormat({
  sheet: SHEET, required: REQUIRED, readRequired: ["date", "type", "details", "amount"],
  sheetNotFound: 'No sheet "Account Activity" in this workbook (is it an eToro account statement, in English?)',
  headerNotFound: "The Account Activity table lacks Date, Type, Details or Amount",
});

export function acceptsEtoro(file: ImportFileMeta): number {
  if (file.format === "xlsx" || file.format === "xls") return WORKBOOK.accepts(file);
  if ((file.format !== undefined && file.format !== "text") || file.head === "") return 0;
  const rows = readCsv(file.head.split(/\r?\n/, 1)[0] ?? "", { separator: "," }).rows;
  return findHeaderRow(rows, [...REQUIRED, "realized equity change"], 1) === 0 ? 0.9 : 0;
}

const ZERO = "0" as ImportedTransaction["quantity"];
const NO_CASH = /^(edit stop loss|edit take profit|start copy|stop copy|pause copy|resume copy)$/;
const COPY = /mirror|copy/;

async function tablesOf(bytes: Uint8Array): Promise<{ activity: string[][]; closed: string[][] }> {
  const format = sniffFormat(bytes);
  if (format !== "xlsx" && format !== "xls") return { activity: readCsv(bytes, { separator: "," }).rows.map((r) => [...r]), closed: [] };
  const { rows, sheets } = await WORKBOOK.read(bytes);
  const closed = sheets.find((s) => s.name.trim().toLowerCase() === "closed positions")?.rows.map((r) => r.map((c) => c ?? "")) ?? [];
  return { activity: rows.map((r) => [...r]), closed };
}

export async function parseEtoro(params: ImportParseParams): Promise<ImportResult> {
  if (params.bytes.length === 0) throw new PluginError("invalid-input", "The file is empty");
  const { activity: rows, closed } = await tablesOf(params.bytes);
  if (findHeaderRow(rows, ["date", "type", "details", "amount"], 1) !== 0) throw new PluginError("invalid-input", "The Account Activity table lacks Date, Type, Details or Amount");
  const cols = columns(rows[0]!);
  const isinOf = new Map<string, string>();
  if (closed.length > 0) {
    const c = columns(closed[0]!);
    for (const r of closed.slice(1)) if (/^[A-Z]{2}[A-Z0-9]{9}\d$/.test(c.get(r, "ISIN"))) isinOf.set(c.get(r, "Position ID"), c.get(r, "ISIN"));
  }
  const transactions: ImportedTransaction[] = [];
  const warnings: ImportWarning[] = [];
  const skippedRows: ImportSkippedRow[] = [];
  const skipRow = skipper(warnings, skippedRows);
  const skip = (code: string, message: string, row: number, severity: "info" | "warning" = "warning") => skipRow({ code, message, row, severity });
  eachRecord(rows, 0, cols, ({ cells, get, row }) => {
    if (cells.every((c) => c.trim() === "")) return;
    const rawType = get("Type");
    const type = rawType.toLowerCase().trim();
    // What the line was, for a skipped line's reason: its type, Details (the ticker), the day and the amount.
    const what = lineWas(rawType, get("Details") === "-" ? "" : get("Details"), get("Date"), get("Amount") && `${get("Amount")} USD`);
    const why = (code: string, reason: string, todo: string, severity: "info" | "warning" = "warning") => skip(code, notImported(row, what, reason, todo), row, severity);
    if (NO_CASH.test(type)) return why("movesNoCash", "changes a setting of a position or of copy trading", "nothing to enter: this line moves no cash", "info");
    if (get("Asset type").toLowerCase() === "cfd") {
      return why("cfdSkipped", "belongs to a CFD position (leveraged or short), which is a contract, not a holding of shares", "enter the position's result by hand as INTEREST (a gain) or FEE (a loss) if you want it counted");
    }
    if (COPY.test(type)) return why("unsupportedType", "moves cash to or from copy trading, whose positions are not imported", "enter it by hand as a WITHDRAWAL or DEPOSIT if that money should leave or join this portfolio's cash");
    const date = parseDate(get("Date"), "DMY");
    const amount = parseDecimal(get("Amount"), "auto");
    if (!date) return skip("rowSkipped", unreadableLine(row, "Date", get("Date"), "a date (DD/MM/YYYY HH:MM:SS)", what), row);
    if (!amount || amount.isZero()) return skip("rowSkipped", unreadableLine(row, "Amount", get("Amount"), "an amount other than zero", what), row);
    const [ticker] = get("Details").split("/");
    const currency = "USD";
    const symbol = ticker && ticker.trim() !== "-" ? ticker.trim() : "";
    const isin = isinOf.get(get("Position ID"));
    const assetType = ASSET_TYPE[get("Asset type").trim().toLowerCase()];
    const asset = { ...(isin ? { isin } : {}), ...(symbol ? { symbol } : {}), ...(assetType ? { assetType } : {}) };
    const usd = (v: string) => ({ amount: v, currency }) as ImportedTransaction["cash"];
    if (type === "open position" || type === "position closed") {
      const units = parseDecimal(get("Units / Contracts", "Units"), "auto")?.abs();
      const buy = type === "open position";
      if (!units || units.isZero()) return skip("rowSkipped", unreadableLine(row, "Units", get("Units / Contracts", "Units"), "a number of units", what), row);
      return transactions.push({ row, date, type: buy ? "BUY" : "SELL", ...asset, quantity: (buy ? units : units.neg()).toFixed() as never, cash: usd((buy ? amount.abs().neg() : amount.abs()).toFixed()) });
    }
    const rules: [RegExp, ImportedTransaction["type"], ImportedTransaction["type"], boolean][] = [
      [/^deposit$|^withdraw request cancelled/, "DEPOSIT", "WITHDRAWAL", false], [/^withdraw request/, "DEPOSIT", "WITHDRAWAL", false],
      [/^dividend/, "DIVIDEND", "FEE", true], [/interest|refund/, "INTEREST", "FEE", false], [/fee|sdrt|commission/, "INTEREST", "FEE", true],
    ];
    const rule = rules.find(([re]) => re.test(type));
    if (!rule && /^adjustment/.test(type)) {
      return why("unsupportedType", "is a correction of the balance by eToro, and the file does not say what it corrects", "enter it by hand as the DEPOSIT, WITHDRAWAL, FEE or INTEREST it was if it changed your cash");
    }
    if (!rule) return skip("unsupportedType", unknownType(row, what), row);
    const typed = amount.gt(0) ? rule[1] : rule[2];
    transactions.push({ row, date, type: typed, ...(rule[3] ? asset : {}), quantity: ZERO, cash: usd(amount.toFixed()) });
  });
  return { transactions, warnings, skippedRows };
}
