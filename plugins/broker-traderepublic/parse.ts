import { Decimal, type ImportedTransaction, type ImportFileMeta, type ImportParseParams, type ImportResult, type ImportWarning, PluginError } from "../../sdk/index.ts";
import { columns, findHeaderRow, parseDate, parseDecimal, readCsv } from "../../sdk/import/index.ts";

// Trade Republic has no export of its own in every app version; the de-facto format is the
// transactions CSV written by the community tool pytr (`pytr export_transactions`), German or
// English: `Datum;Typ;Wert;Notiz;ISIN;Stück;Gebühren;Steuern` / `Date;Type;Value;Note;ISIN;Shares;
// Fees;Taxes`. Semicolons; decimal commas in German files, points in English ones (sniffed);
// dates YYYY-MM-DD; the account is in EUR. Wert/Value is the net cash movement of the row (signed),
// Gebühren/Fees and Steuern/Taxes are the row's costs (negative), already inside Wert: the trade or
// gross income is Wert with the costs put back, and each cost is its own FEE or TAX row. Types:
// Kauf/Buy, Sparplan/Savings plan, Verkauf/Sell, Dividende/Dividend, Zinsen/Interest,
// Einlage/Deposit, Entnahme/Removal; gifts, saveback and round-up rows carry no price from the
// account and are skipped with a warning.

const HEADERS = [["datum", "typ", "wert", "isin", "stuck", "gebuhren", "steuern"], ["date", "type", "value", "isin", "shares", "fees", "taxes"]];
const TYPES: Record<string, ImportedTransaction["type"]> = {
  kauf: "BUY", buy: "BUY", sparplan: "BUY", "savings plan": "BUY", verkauf: "SELL", sell: "SELL", dividende: "DIVIDEND", dividend: "DIVIDEND",
  zinsen: "INTEREST", interest: "INTEREST", einlage: "DEPOSIT", deposit: "DEPOSIT", entnahme: "WITHDRAWAL", removal: "WITHDRAWAL", withdrawal: "WITHDRAWAL",
};

function headerAt(rows: readonly (readonly string[])[]): number {
  for (const h of HEADERS) if (findHeaderRow(rows, h, 1) === 0) return 0;
  return -1;
}

export function acceptsTraderepublic(file: ImportFileMeta): number {
  if ((file.format !== undefined && file.format !== "text") || file.head === "") return 0;
  return headerAt(readCsv(file.head.split(/\r?\n/, 1)[0] ?? "").rows) === 0 ? 0.9 : 0;
}

const ZERO = "0" as ImportedTransaction["quantity"];

export function parseTraderepublic(params: ImportParseParams): ImportResult {
  if (params.bytes.length === 0) throw new PluginError("invalid-input", "The file is empty");
  const { rows } = readCsv(params.bytes, { separator: ";" });
  if (headerAt(rows) !== 0) throw new PluginError("invalid-input", "This is not a Trade Republic transactions CSV (pytr export)");
  const cols = columns(rows[0]!);
  const german = cols.has("Wert");
  const mark = german ? "," : ".";
  const transactions: ImportedTransaction[] = [];
  const warnings: ImportWarning[] = [];
  rows.slice(1).forEach((r, i) => {
    const row = i + 2;
    const get = (...names: string[]) => cols.get(r, ...names);
    const type = TYPES[get("Typ", "Type").toLowerCase()];
    const date = parseDate(get("Datum", "Date"), "YMD");
    const value = parseDecimal(get("Wert", "Value"), mark);
    if (!type) return warnings.push({ code: "unsupportedType", message: `"${get("Typ", "Type")}" rows are not imported`, row, severity: "warning" });
    if (!date || !value || value.isZero()) return warnings.push({ code: "rowSkipped", message: `Row ${row} has no date or value`, row, severity: "warning" });
    const isin = get("ISIN").toUpperCase();
    const asset = isin ? { isin, ...(get("Notiz", "Note") ? { assetName: get("Notiz", "Note") } : {}) } : {};
    const eur = (v: Decimal) => ({ amount: v.toFixed(), currency: "EUR" }) as ImportedTransaction["cash"];
    const fees = parseDecimal(get("Gebühren", "Fees"), mark)?.abs() ?? new Decimal(0);
    const taxes = parseDecimal(get("Steuern", "Taxes"), mark)?.abs() ?? new Decimal(0);
    const gross = value.plus(fees).plus(taxes);
    if (type === "BUY" || type === "SELL") {
      const shares = parseDecimal(get("Stück", "Shares"), mark)?.abs();
      if (!shares || shares.isZero()) return warnings.push({ code: "rowSkipped", message: "A trade without shares", row, severity: "warning" });
      transactions.push({ row, date, type, ...asset, quantity: (type === "BUY" ? shares : shares.neg()).toFixed() as never, cash: eur(type === "BUY" ? gross.abs().neg() : gross.abs()) });
    } else {
      const negative = type === "WITHDRAWAL";
      transactions.push({ row, date, type, ...(type === "DIVIDEND" ? asset : {}), quantity: ZERO, cash: eur(negative ? gross.abs().neg() : gross.abs()) });
    }
    if (!fees.isZero()) transactions.push({ row, date, type: "FEE", ...asset, quantity: ZERO, cash: eur(fees.neg()) });
    if (!taxes.isZero()) transactions.push({ row, date, type: "TAX", ...asset, quantity: ZERO, cash: eur(taxes.neg()) });
  });
  return { transactions, warnings };
}
