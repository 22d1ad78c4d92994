import { type ImportSkippedRow, Decimal, type ImportedTransaction, type ImportFileMeta, type ImportParseParams, type ImportResult, type ImportWarning, isPluginError, PluginError } from "../../sdk/index.ts";
import {
  assetTypeOfName, columns, detectDecimalMark, eachRecord, findHeaderRow, parseDate, parseDecimal, readCsv, readWorkbook, sniffFormat, skipper,
} from "../../sdk/import/index.ts";
import { lineWas, notImported, unreadableLine } from "../../sdk/import/skips.ts";

// FinecoBank securities movements ("Movimenti Dossier Titoli"), XLS/XLSX as the site exports them,
// or CSV. An account block above the header ("Dossier n.: ...", "Intestazione Dossier: ...",
// "RISULTATO RICERCA MOVIMENTI TITOLI", or "Movimenti Dossier Titoli", account and period), often a
// blank row under it, then `Operazione, Data valuta, Descrizione, Titolo, Isin, Segno, Quantita,
// Divisa, Prezzo, Cambio, Controvalore` and, in today's exports, the commission columns
// `Commissioni Fondi Sw/Ingr/Uscita, Commissioni Fondi Banca Corrispondente, Spese Fondi Sgr,
// Commissioni amministrato` (in euros). Operazione is the trade date (DD/MM/YYYY); Segno A =
// acquisto (buy), V = vendita (sell); Prezzo is in Divisa; Controvalore is the value in euros at
// Cambio (units of Divisa per euro), without the commissions. Numbers: workbook number cells, or
// text with a decimal comma ("1.062,50000"; in the comma CSV a point): the mark is sniffed per file
// for CSV and read per cell in a workbook. Descrizione ("Compravendita \ntitoli" may hold a line
// break): Compravendita titoli (trades; one in another currency than EUR is written in that
// currency, quantity × price, with an FX_CONVERSION pair from the euros paid), Dividendo/Dividendi
// (DIVIDEND of Controvalore), Stacco Cedole/Cedola (coupon: INTEREST), Aumento capitale (units
// received at Prezzo: an ADJUSTMENT with that cost), Rimborso (redemption: a SELL for Controvalore).
// Splits (Frazionamento), transfers and other movements carry no price and are skipped with a
// warning. Fees, dividends and transfers also appear in the current account's statement: import
// one of the two for them.

const REQUIRED = ["operazione", "titolo", "isin", "segno", "quantita", "divisa", "prezzo", "controvalore"];
const FEES = ["Commissioni Fondi Sw/Ingr/Uscita", "Commissioni Fondi Banca Corrispondente", "Spese Fondi Sgr", "Commissioni amministrato"];

export function acceptsFineco(file: ImportFileMeta): number {
  if (file.format === "xlsx" || file.format === "xls") {
    // Without the sheets (a host that does not read them) the content is unknown: `auto` tries the plugins in turn.
    if (!file.sheets) return 0.05;
    return file.sheets.some((s) => findHeaderRow(s.rows, REQUIRED, 20) >= 0) ? 0.95 : 0;
  }
  if ((file.format !== undefined && file.format !== "text") || file.head === "") return 0;
  return findHeaderRow(readCsv(file.head).rows, REQUIRED, 10) >= 0 ? 0.95 : 0;
}

const ZERO = "0" as ImportedTransaction["quantity"];

async function tableOf(bytes: Uint8Array): Promise<{ at: number; mark: "." | "," | "auto"; rows: string[][] }> {
  const format = sniffFormat(bytes);
  if (format === "xlsx" || format === "xls") {
    // A workbook beyond the reader's limits keeps its message (it names the limit); any other failure
    // leaves no table, and the parse says the header is missing.
    const sheets = await readWorkbook(bytes).catch((error) => {
      if (isPluginError(error)) throw error;
      return [];
    });
    for (const s of sheets) {
      const rows = s.rows.map((r) => r.map((c) => c ?? ""));
      const at = findHeaderRow(rows, REQUIRED, 20);
      // Number cells read as "105.179"; text cells are Italian ("1.062,50"): each value by itself.
      if (at >= 0) return { at, mark: "auto", rows };
    }
    return { at: -1, mark: "auto", rows: [] };
  }
  const rows = readCsv(bytes, { keepEmptyLines: true }).rows.map((r) => [...r]);
  const at = findHeaderRow(rows, REQUIRED, 20);
  if (at < 0) return { at, mark: ",", rows };
  const cols = columns(rows[at]!);
  const samples = rows.slice(at + 1).flatMap((r) => ["Quantita", "Prezzo", "Controvalore", "Cambio"].map((n) => cols.get(r, n)));
  return { at, mark: detectDecimalMark(samples), rows };
}

export async function parseFineco(params: ImportParseParams): Promise<ImportResult> {
  if (params.bytes.length === 0) throw new PluginError("invalid-input", "The file is empty");
  const { at, mark, rows } = await tableOf(params.bytes);
  if (at < 0) throw new PluginError("invalid-input", "This is not a Fineco securities movements export (no Operazione/Titolo/Isin/Segno/Quantita header)");
  const cols = columns(rows[at]!);
  const transactions: ImportedTransaction[] = [];
  const warnings: ImportWarning[] = [];
  const skippedRows: ImportSkippedRow[] = [];
  const skip = skipper(warnings, skippedRows);
  const num = (name: string) => parseDecimal(cols.has(name) ? rowCells.get(name) ?? "" : "", mark);
  const rowCells = new Map<string, string>();
  eachRecord(rows, at, cols, ({ cells, get, row }) => {
    if (cells.every((c) => c.trim() === "")) return;
    rowCells.clear();
    for (const n of ["Quantita", "Prezzo", "Controvalore", ...FEES]) rowCells.set(n, get(n));
    const what = get("Descrizione").replace(/\s+/g, " ").trim();
    const kind = /compravendita/i.test(what) ? "trade" : /dividend/i.test(what) ? "dividend" : /cedol/i.test(what) ? "coupon"
      : /aumento capitale/i.test(what) ? "increase" : /rimborso/i.test(what) ? "redemption" : null;
    // What the line was, for a skipped line's reason: its description, security, date and amount.
    const was = lineWas(what, get("Titolo") || get("Isin"), get("Operazione"), get("Controvalore") && `${get("Controvalore")} EUR`);
    if (!kind) {
      const message = notImported(row, was, "moves units without a price (a split, a transfer of securities or another movement of units)", "enter the units it moved by hand as an ADJUSTMENT (units received with their cost basis)");
      return skip({ code: "unsupportedOperation", message, row, severity: "warning" });
    }
    const date = parseDate(get("Operazione"), "DMY");
    const qty = num("Quantita")?.abs();
    const price = num("Prezzo");
    const eur = num("Controvalore")?.abs();
    const ccy = get("Divisa").toUpperCase();
    const sign = get("Segno").trim().toUpperCase();
    const isin = get("Isin").toUpperCase();
    const assetType = assetTypeOfName(get("Titolo"));
    const asset = { ...(isin ? { isin } : {}), ...(get("Titolo") ? { assetName: get("Titolo") } : {}), ...(assetType ? { assetType } : {}) };
    const money = (v: Decimal, c: string) => ({ amount: v.toFixed(), currency: c }) as ImportedTransaction["cash"];
    const incomplete = () => {
      const message = notImported(row, was, "is not a complete movement: a quantity, price, amount or sign (Segno) is missing or unreadable", "enter it by hand from Fineco's contract note");
      return skip({ code: "rowSkipped", message, row, severity: "warning" });
    };
    if (!date) return skip({ code: "rowSkipped", message: unreadableLine(row, "Operazione", get("Operazione"), "a date (DD/MM/YYYY)", was), row, severity: "warning" });
    if (!/^[A-Z]{3}$/.test(ccy)) return skip({ code: "rowSkipped", message: unreadableLine(row, "Divisa", get("Divisa"), "a currency code", was), row, severity: "warning" });
    const fees = FEES.reduce((sum, n) => sum.plus(num(n)?.abs() ?? 0), new Decimal(0));
    const fee = () => { if (!fees.isZero()) transactions.push({ row, date, type: "FEE", ...asset, quantity: ZERO, cash: money(fees.neg(), "EUR") }); };
    if (kind === "dividend" || kind === "coupon") {
      if (!eur || eur.isZero()) return incomplete();
      transactions.push({ row, date, type: kind === "dividend" ? "DIVIDEND" : "INTEREST", ...asset, quantity: ZERO, cash: money(eur, "EUR") });
      return fee();
    }
    if (!qty || qty.isZero()) return incomplete();
    if (kind === "increase") {
      warnings.push({ code: "capitalIncrease", message: `${qty.toFixed()} units received at ${price?.toFixed() ?? "0"} ${ccy} each`, row, severity: "info" });
      transactions.push({ row, date, type: "ADJUSTMENT", ...asset, quantity: qty.toFixed() as never, costBasis: money(price?.abs() ?? new Decimal(0), ccy) as never });
      return fee();
    }
    if (!eur || eur.isZero()) return incomplete();
    if (kind === "redemption") {
      transactions.push({ row, date, type: "SELL", ...asset, quantity: qty.neg().toFixed() as never, cash: money(eur, "EUR") });
      return fee();
    }
    if (!/^[AV]$/.test(sign)) return incomplete();
    const buy = sign === "A";
    const foreign = ccy !== "EUR" && price !== null && !price.isZero();
    const value = foreign ? qty.times(price) : eur;
    const valueCcy = foreign ? ccy : "EUR";
    transactions.push({ row, date, type: buy ? "BUY" : "SELL", ...asset, quantity: (buy ? qty : qty.neg()).toFixed() as never, cash: money(buy ? value.neg() : value, valueCcy) });
    if (foreign) {
      const pairKey = `fx-${row}`;
      const legs = buy ? [money(eur.neg(), "EUR"), money(value, valueCcy)] : [money(value.neg(), valueCcy), money(eur, "EUR")];
      for (const cash of legs) transactions.push({ row, date, type: "FX_CONVERSION", quantity: ZERO, cash, pairKey });
    }
    fee();
  });
  return { transactions, warnings, skippedRows };
}
