import { type ImportedTransaction, type ImportFileMeta, type ImportParseParams, type ImportResult, type ImportWarning, PluginError } from "../../sdk/index.ts";
import { columns, eachRecord, findHeaderRow, parseDate, parseDecimal, readCsv } from "../../sdk/import/index.ts";

// Directa SIM "Movimenti" export (CSV): an account block ("Conto : ...", "Data estrazione : ...")
// and a blank line above the header `Data operazione, Data valuta, Tipo operazione, Ticker, Isin,
// Protocollo, Descrizione, Quantità, Importo euro, Importo Divisa, Divisa, Riferimento ordine`.
// Dates DD-MM-YYYY; "Importo euro" is signed, in euros, with a decimal point; commissions and the
// Italian financial transaction tax (Tobin tax) are separate rows sharing the trade's order
// reference. Types: Acquisto, Vendita, Commissioni, Tobin tax, Dividendo, Ritenuta, Cedola,
// Interessi, Bonifico / Versamento (in), Prelievo (out), Imposta di bollo.

const REQUIRED = ["data operazione", "tipo operazione", "isin", "quantita", "importo euro"];

export function acceptsDirecta(file: ImportFileMeta): number {
  if ((file.format !== undefined && file.format !== "text") || file.head === "") return 0;
  return findHeaderRow(readCsv(file.head).rows, REQUIRED, 10) >= 0 ? 0.95 : 0;
}

const ZERO = "0" as ImportedTransaction["quantity"];
const RULES: [RegExp, ImportedTransaction["type"], boolean][] = [
  [/^acquisto/, "BUY", true], [/^vendita/, "SELL", true], [/commission/, "FEE", true], [/tobin|imposta|bollo|ritenuta|tass/, "TAX", true],
  [/dividend|cedola/, "DIVIDEND", true], [/interess/, "INTEREST", false], [/bonifico|versamento|prelievo/, "DEPOSIT", false],
];

export function parseDirecta(params: ImportParseParams): ImportResult {
  if (params.bytes.length === 0) throw new PluginError("invalid-input", "The file is empty");
  const { rows } = readCsv(params.bytes);
  const at = findHeaderRow(rows, REQUIRED, 10);
  if (at < 0) throw new PluginError("invalid-input", "This is not a Directa movimenti export");
  const cols = columns(rows[at]!);
  const transactions: ImportedTransaction[] = [];
  const warnings: ImportWarning[] = [];
  // Blank lines are dropped by the reader; count them back for row numbers (the block has one).
  const headerLine = at + 2;
  eachRecord(rows, at, cols, ({ get, row }) => {
    const kind = get("Tipo operazione").toLowerCase();
    const date = parseDate(get("Data operazione"), "DMY");
    const amount = parseDecimal(get("Importo euro"), ".");
    if (!date || !amount || amount.isZero()) return warnings.push({ code: "rowSkipped", message: `Row ${row} has no date or amount`, row, severity: "warning" });
    const rule = RULES.find(([re]) => re.test(kind));
    if (!rule) return warnings.push({ code: "unsupportedType", message: `"${get("Tipo operazione")}" rows are not imported`, row, severity: "warning" });
    let type = rule[1];
    if (type === "DEPOSIT" && amount.lt(0)) type = "WITHDRAWAL";
    const isin = get("Isin").toUpperCase();
    const asset = rule[2] && (isin || get("Ticker")) ? { ...(isin ? { isin } : {}), ...(get("Ticker") ? { symbol: get("Ticker") } : {}) } : {};
    const order = get("Riferimento ordine");
    const base = { row, date, ...(order ? { orderId: order } : {}) };
    const cash = { amount: amount.toFixed(), currency: "EUR" } as ImportedTransaction["cash"];
    if (type === "BUY" || type === "SELL") {
      const qty = parseDecimal(get("Quantità"), ".")?.abs();
      if (!qty || qty.isZero()) return warnings.push({ code: "rowSkipped", message: `${get("Tipo operazione")} without quantity`, row, severity: "warning" });
      return transactions.push({ ...base, type, ...asset, quantity: (type === "BUY" ? qty : qty.neg()).toFixed() as never, cash });
    }
    transactions.push({ ...base, type, ...asset, quantity: ZERO, cash });
  }, headerLine + 1);
  return { transactions, warnings };
}
