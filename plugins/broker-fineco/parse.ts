import { type ImportedTransaction, type ImportFileMeta, type ImportParseParams, type ImportResult, type ImportWarning, isPluginError, PluginError } from "../../sdk/index.ts";
import { columns, eachRecord, findHeaderRow, parseDate, parseDecimal, readCsv, readWorkbook, sniffFormat } from "../../sdk/import/index.ts";

// FinecoBank "Movimenti Dossier Titoli" (securities account movements), CSV or the XLS/XLSX the
// site offers. A title block ("Movimenti Dossier Titoli", account, period) above the header
// `Operazione; Data valuta; Descrizione; Titolo; Isin; Segno; Quantita; Divisa; Prezzo; Cambio;
// Controvalore`. Operazione is the trade date (DD/MM/YYYY); Segno A = acquisto (buy), V = vendita
// (sell); Prezzo is in Divisa, Controvalore is the value in euros at Cambio (units of Divisa per
// euro); decimal commas. Only securities move here: commissions, dividends and cash transfers are
// in the current account's statement, not in this file. A trade in another currency than EUR is
// written in that currency (quantity × price) with an FX_CONVERSION pair from the euros paid.
// Descrizione other than "Compravendita titoli" (splits, transfers in or out) is skipped.

const REQUIRED = ["operazione", "titolo", "isin", "segno", "quantita", "divisa", "prezzo", "controvalore"];

export function acceptsFineco(file: ImportFileMeta): number {
  if (file.format === "xlsx" || file.format === "xls") return /fineco|dossier/i.test(file.filename) ? 0.6 : 0.1;
  if ((file.format !== undefined && file.format !== "text") || file.head === "") return 0;
  return findHeaderRow(readCsv(file.head).rows, REQUIRED, 10) >= 0 ? 0.95 : 0;
}

const ZERO = "0" as ImportedTransaction["quantity"];

async function tableOf(bytes: Uint8Array): Promise<string[][]> {
  const format = sniffFormat(bytes);
  if (format === "xlsx" || format === "xls") {
    // A workbook beyond the reader's limits keeps its message (it names the limit); one that does not read is "not Fineco".
    const sheets = await readWorkbook(bytes).catch((error: unknown) => {
      if (isPluginError(error)) throw error;
      return [];
    });
    return (sheets[0]?.rows ?? []).map((r) => r.map((c) => c ?? ""));
  }
  return readCsv(bytes).rows.map((r) => [...r]);
}

export async function parseFineco(params: ImportParseParams): Promise<ImportResult> {
  if (params.bytes.length === 0) throw new PluginError("invalid-input", "The file is empty");
  const rows = await tableOf(params.bytes);
  const at = findHeaderRow(rows, REQUIRED, 15);
  if (at < 0) throw new PluginError("invalid-input", "This is not a Fineco Movimenti Dossier Titoli export");
  const cols = columns(rows[at]!);
  const transactions: ImportedTransaction[] = [];
  const warnings: ImportWarning[] = [];
  eachRecord(rows, at, cols, ({ get, row }) => {
    if (!/compravendita/i.test(get("Descrizione"))) {
      return warnings.push({ code: "unsupportedOperation", message: `"${get("Descrizione")}" movements are not imported`, row, severity: "warning" });
    }
    const date = parseDate(get("Operazione"), "DMY");
    const qty = parseDecimal(get("Quantita"), ",")?.abs();
    const price = parseDecimal(get("Prezzo"), ",");
    const eur = parseDecimal(get("Controvalore"), ",")?.abs();
    const ccy = get("Divisa").toUpperCase();
    const sign = get("Segno").toUpperCase();
    if (!date || !qty || qty.isZero() || !eur || !/^[AV]$/.test(sign) || !/^[A-Z]{3}$/.test(ccy)) {
      return warnings.push({ code: "rowSkipped", message: `Row ${row} is not a complete trade`, row, severity: "warning" });
    }
    const buy = sign === "A";
    const asset = { ...(get("Isin") ? { isin: get("Isin").toUpperCase() } : {}), ...(get("Titolo") ? { assetName: get("Titolo") } : {}) };
    const money = (v: string, c: string) => ({ amount: v, currency: c }) as ImportedTransaction["cash"];
    const value = ccy === "EUR" || !price ? eur : qty.times(price);
    const valueCcy = ccy === "EUR" || !price ? "EUR" : ccy;
    transactions.push({ row, date, type: buy ? "BUY" : "SELL", ...asset, quantity: (buy ? qty : qty.neg()).toFixed() as never, cash: money((buy ? value.neg() : value).toFixed(), valueCcy) });
    if (valueCcy !== "EUR") {
      const pairKey = `fx-${row}`;
      const legs = buy ? [money(eur.neg().toFixed(), "EUR"), money(value.toFixed(), valueCcy)] : [money(value.neg().toFixed(), valueCcy), money(eur.toFixed(), "EUR")];
      for (const cash of legs) transactions.push({ row, date, type: "FX_CONVERSION", quantity: ZERO, cash, pairKey });
    }
  });
  return { transactions, warnings };
}
