import {
  type Decimal, type ImportedTransaction, type ImportFileMeta, type ImportParseParams, type ImportResult, type ImportWarning,
} from "../../sdk/index.ts";
import { csvFormat, parseDate, parseDecimal } from "../../sdk/import/index.ts";
import { lineWas, notImported, unknownType, unreadableLine } from "../../sdk/import/skips.ts";

// Directa SIM "Movimenti" export (CSV): an account block ("Conto : ...", "Data estrazione : ...",
// "Tutti i movimenti ordinati per Data Operazione", "Dal : ...", "al : ...", "Il file include i
// primi 3000 movimenti", with lines of empty cells between) above the header `Data operazione,Data
// valuta,Tipo operazione,Ticker,Isin,Protocollo,Descrizione,Quantità,Importo euro,Importo Divisa,
// Divisa,Riferimento ordine`. Dates DD-MM-YYYY; "Importo euro" is signed, in euros, with a decimal
// point; commissions and the Italian financial transaction tax (Tobin tax) are lines of their own
// sharing the trade's order reference. Kinds of line (Tipo operazione): Acquisto, Vendita,
// Commissioni, Tobin tax, Ratei (accrued interest paid or received with a bond trade); income:
// Dividendo and "Provento etf" (dividends), "Cedola obb." (a bond coupon) and "Coupon certif." (a
// certificate's coupon), both interest, Interessi; withholding: Ritenuta, "Rit.provento etf",
// "Rit.cedola obb." (the tax of the income line of the same day and security), "Ritenuta su
// plusvalenza" (capital gains tax); money in and out: "Conferimento con bonifico", Bonifico,
// Versamento, "Prelievo con bonifico"/Prelievo (by sign); "Imposta di bollo" (stamp duty).

// The separator is sniffed: the account block above the header may be written with either.
const FORMAT = csvFormat({
  headerWithin: 15,
  notFound: "This is not a Directa movimenti export",
  required: ["data operazione", "tipo operazione", "isin", "quantita", "importo euro"],
});

export function acceptsDirecta(file: ImportFileMeta): number {
  return FORMAT.accepts(file);
}

const ZERO = "0" as ImportedTransaction["quantity"];
type Kind = "BUY" | "SELL" | "FEE" | "TAX" | "WITHHOLDING" | "ACCRUED" | "DIVIDEND" | "COUPON" | "INTEREST" | "TRANSFER";
/** Tipo operazione → what it is; first match wins (withholding before the income it is withheld from). */
const RULES: [RegExp, Kind][] = [
  [/^acquisto/, "BUY"], [/^vendita/, "SELL"],
  [/^rit\.|^rit |^ritenuta/, "WITHHOLDING"],
  [/commission/, "FEE"], [/tobin|imposta|bollo|tass/, "TAX"], [/ratei/, "ACCRUED"],
  [/cedola|coupon/, "COUPON"], [/dividend|provento/, "DIVIDEND"], [/interess/, "INTEREST"],
  [/bonifico|versamento|conferimento|prelievo/, "TRANSFER"],
];

interface Line {
  amount: Decimal;
  asset: Pick<ImportedTransaction, "isin" | "symbol">;
  date: ImportedTransaction["date"];
  kind: Kind;
  row: number;
}

export function parseDirecta(params: ImportParseParams): ImportResult {
  const table = FORMAT.read(params.bytes);
  const transactions: ImportedTransaction[] = [];
  const warnings: ImportWarning[] = [];
  const skippedRows: NonNullable<ImportResult["skippedRows"]>[number][] = [];
  const skip = (row: number, reason: string, severity: "info" | "warning") => {
    skippedRows.push({ line: row, reason });
    warnings.push({ code: severity === "warning" ? "unsupportedType" : "rowSkipped", message: reason, row, severity });
  };
  const lines: Line[] = [];
  FORMAT.walk(table, ({ get, row }) => {
    const tipo = get("Tipo operazione");
    const date = parseDate(get("Data operazione"), "DMY");
    const amount = parseDecimal(get("Importo euro"), ".");
    // What the line was, for a skipped line's reason: its type, ticker or description, date and amount.
    const what = lineWas(tipo, get("Ticker") || get("Descrizione"), get("Data operazione"), get("Importo euro") && `${get("Importo euro")} EUR`);
    const left = (why: string, todo: string, severity: "info" | "warning" = "warning") => skip(row, notImported(row, what, why, todo), severity);
    if (!date) return skip(row, unreadableLine(row, "Data operazione", get("Data operazione"), "a date (DD-MM-YYYY)", what), "warning");
    if (amount === null) return skip(row, unreadableLine(row, "Importo euro", get("Importo euro"), "an amount", what), "warning");
    if (amount.isZero()) return left("has an amount of zero", "nothing to enter: it moves no cash", "info");
    const rule = RULES.find(([re]) => re.test(tipo.toLowerCase()));
    if (!rule) return skip(row, unknownType(row, what, "cash"), "warning");
    const isin = get("Isin").toUpperCase();
    const symbol = get("Ticker");
    const asset = { ...(isin ? { isin } : {}), ...(symbol ? { symbol } : {}) };
    const order = get("Riferimento ordine");
    const text = get("Descrizione");
    const description = text.toLowerCase().startsWith(tipo.toLowerCase()) ? text : [tipo, text].filter(Boolean).join(": ");
    const kind = rule[1];
    // Accrued interest shares the trade's reference but is no commission: kept apart from the fees merged per order.
    const base = { row, date, ...(order && kind !== "ACCRUED" ? { orderId: order } : {}), description };
    const cash = { amount: amount.toFixed(), currency: "EUR" } as ImportedTransaction["cash"];
    lines.push({ amount, asset, date, kind, row });
    const positive = amount.gt(0);
    const info = (code: string, message: string) => warnings.push({ code, message: `Line ${row}: ${message}`, row, severity: "info" });
    switch (kind) {
      case "BUY": case "SELL": {
        const qty = parseDecimal(get("Quantità"), ".")?.abs();
        if (!qty || qty.isZero()) return left("is a trade without a quantity", `enter it by hand as a ${kind} with the quantity from Directa's contract note`);
        if (kind === "BUY" ? positive : !positive) return left(`is a ${kind === "BUY" ? "purchase" : "sale"} with an amount of the wrong sign`, "check the trade with Directa and enter it by hand as what it was");
        return transactions.push({ ...base, type: kind, ...asset, quantity: (kind === "BUY" ? qty : qty.neg()).toFixed() as never, cash });
      }
      case "TRANSFER":
        return transactions.push({ ...base, type: positive ? "DEPOSIT" : "WITHDRAWAL", quantity: ZERO, cash });
      case "DIVIDEND":
        if (!positive) info("dividendReversal", "a negative dividend (a reversal) was read as a fee on the security");
        return transactions.push({ ...base, type: positive ? "DIVIDEND" : "FEE", ...asset, quantity: ZERO, cash });
      case "COUPON": case "INTEREST":
        // A coupon is interest on the bond (or certificate), not a dividend; the security stays named.
        if (!positive) info("interestReversal", "a negative coupon or interest was read as a fee");
        return transactions.push({ ...base, type: positive ? "INTEREST" : "FEE", ...(kind === "COUPON" ? asset : {}), quantity: ZERO, cash });
      case "ACCRUED":
        if (!positive) info("accruedInterestPaid", "accrued interest paid with a bond purchase was read as a fee on the bond");
        return transactions.push({ ...base, type: positive ? "INTEREST" : "FEE", ...asset, quantity: ZERO, cash });
      case "FEE":
        if (positive) info("feeRefund", "a commission refund was read as interest");
        return transactions.push({ ...base, type: positive ? "INTEREST" : "FEE", ...(positive ? {} : asset), quantity: ZERO, cash });
      case "TAX": case "WITHHOLDING":
        if (positive) info("taxRefund", `a tax refund was read as ${asset.isin || asset.symbol ? "a dividend" : "interest"}`);
        return transactions.push({
          ...base, type: positive ? (asset.isin || asset.symbol ? "DIVIDEND" : "INTEREST") : "TAX", ...asset, quantity: ZERO, cash,
        });
    }
  });
  linkWithholding(transactions, lines, warnings);
  return { detectedFormat: "directa/movimenti", skippedRows, transactions, warnings };
}

/**
 * A withholding line is the tax of the income line (dividend, coupon) of the same day and security:
 * its description names that line, so the two read together; one without such a line is flagged.
 */
function linkWithholding(transactions: ImportedTransaction[], lines: readonly Line[], warnings: ImportWarning[]): void {
  const sameSecurity = (a: Line, b: Line) => (a.asset.isin ?? a.asset.symbol) !== undefined && (a.asset.isin ?? a.asset.symbol) === (b.asset.isin ?? b.asset.symbol);
  for (const w of lines) {
    if (w.kind !== "WITHHOLDING" || !w.amount.lt(0) || (!w.asset.isin && !w.asset.symbol)) continue;
    const income = lines.find((l) => (l.kind === "DIVIDEND" || l.kind === "COUPON") && l.date === w.date && sameSecurity(l, w) && l.amount.gt(0));
    const i = transactions.findIndex((t) => t.row === w.row);
    if (i < 0) continue;
    if (!income) {
      warnings.push({ code: "withholdingAlone", message: `Line ${w.row}: a withholding tax without an income line of the same day and security`, row: w.row, severity: "info" });
      continue;
    }
    const t = transactions[i]!;
    transactions[i] = { ...t, description: `${t.description ?? ""} (withheld from line ${income.row})`.trim() };
  }
}
