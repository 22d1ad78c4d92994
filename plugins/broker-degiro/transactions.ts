import { type ImportResult, PluginError } from "../../sdk/index.ts";
import { columns, type CsvTable, detectDecimalMark, normalizeHeader, parseDate } from "../../sdk/import/index.ts";
import { lineWas, notImported, unreadableLine } from "../../sdk/import/skips.ts";
import { amountOf, type Collected, dec, findColumn, hints, type Lang, money, ZERO } from "./shared.ts";

// The transactions export (Transactions.csv): one line per executed fill, newest first, in two
// layouts and the user's language.
// - Older: `Date,Time,Product,ISIN,Reference exchange,Venue,Quantity,Price,,Local value,,Value,,
//   Exchange rate,Transaction and/or third party fees,,Total,,Order ID` (the first files wrote
//   "Reference" and "Transaction and/or third"): a currency cell after each money column.
// - Newer: `...,Quantity,Price,,Local value,,Value EUR,Exchange rate,AutoFX Fee,Transaction and/or
//   third party fees EUR,Total EUR,Order ID,`: the account currency in the names of Value, fees and
//   Total, an AutoFX Fee column (the exchange's cost), and the Order Id one cell right of its
//   header in newer lines (an empty cell before it) but under it in older ones.
// NL: Datum,Tijd,Product,ISIN,Beurs,Uitvoeringsplaats,Aantal,Koers,,Lokale waarde,,Waarde EUR,
// Wisselkoers,AutoFX Kosten,Transactiekosten en/of kosten van derden EUR,Totaal EUR,Order ID; DE:
// Anzahl,Kurs,,Wert in Lokalwährung,,Wert EUR,Wechselkurs,AutoFX-Gebühr,Transaktionsgebühren und/
// oder Fremdkosten EUR,Gesamt EUR,Order-ID; IT: Quantità,Quotazione,,Valore locale,,Valore EUR,
// Tasso di cambio,Commissione AutoFX,Costi di transazione e/o di terze parti EUR,Totale EUR,ID
// Ordine; ES Número,Precio,,Valor local,,Valor EUR,Tipo de cambio,Comisión AutoFX,Costes de
// transacción y/o externos EUR,Total EUR,ID Orden; FR Quantité,Cours,,Valeur locale,,Valeur EUR,...;
// PT Quantidade,Preço,,Valor local,,Valor EUR,...,ID da Ordem. Quantity is signed (negative = a
// sale); Local value is in the product's currency, Value in the account's: when they differ the
// trade was paid through an exchange, which becomes an FX_CONVERSION pair.

interface Layout {
  autoFx: number;
  date: number;
  fees: number;
  isin: number;
  lang: Lang;
  local: number;
  order: number;
  product: number;
  quantity: number;
  /** The account currency written in the header ("Value EUR"), or null when a cell carries it. */
  valueCurrency: string | null;
  value: number;
}

const QUANTITY_LANG: Record<string, Lang> = {
  quantity: "en", aantal: "nl", anzahl: "de", quantita: "it", numero: "es", cantidad: "es", quantite: "fr", quantidade: "pt",
};

/** The transactions export's columns in any of DEGIRO's languages, or null when `header` is not one. */
export function transactionsLayout(header: readonly string[]): Layout | null {
  const cols = columns(header);
  const names = header.map(normalizeHeader);
  const quantity = findColumn(cols, /^(quantity|aantal|anzahl|quantita|numero|cantidad|quantite|quantidade)$/);
  const local = findColumn(cols, /^(local value|lokale waarde|wert in lokaler wahrung|wert in lokalwahrung|valore locale|valor local|valeur locale)$/);
  const value = findColumn(cols, /^(value|waarde|wert|valore|valor|valeur)( [a-z]{3})?$/);
  const isin = findColumn(cols, /^(isin|code isin)$/);
  const date = findColumn(cols, /^(date|datum|data|fecha)$/);
  if (quantity < 0 || local < 0 || value < 0 || isin < 0 || date < 0) return null;
  const inName = / ([a-z]{3})$/.exec(names[value]!);
  let lang = QUANTITY_LANG[names[quantity]!] ?? "en";
  if (lang === "es" && names.includes("quantidade")) lang = "pt";
  return {
    autoFx: findColumn(cols, /autofx/),
    date,
    fees: findColumn(cols, /^(transaction and or third|transactiekosten|transaktionsgebuhren|transaktionskosten|costi di transazione|commissioni di|costes de transaccion|frais de courtage|custos de transacao)/),
    isin, lang, local,
    order: findColumn(cols, /^(order id|id ordine|id orden|id ordre|id da ordem)$/),
    product: findColumn(cols, /^(product|produkt|produit|prodotto|producto|produto)$/),
    quantity,
    value,
    valueCurrency: inName ? inName[1]!.toUpperCase() : null,
  };
}

/** Reads the transactions export below the header row `at`; see the format notes at the top of this file. */
export function parseTransactions(table: CsvTable, at: number, layout: Layout): ImportResult {
  const out: Collected = { skipped: [], transactions: [], warnings: [] };
  const data = table.rows.slice(at + 1);
  const cellOf = (r: readonly string[], i: number) => (i < 0 ? "" : (r[i] ?? "").trim());
  const mark = detectDecimalMark(data.flatMap((r) => [cellOf(r, layout.local), cellOf(r, layout.value), cellOf(r, layout.quantity + 1)]));
  const skip = (line: number, reason: string) => {
    out.skipped.push({ line, reason });
    out.warnings.push({ code: "rowSkipped", message: reason, row: line, severity: "warning" });
  };
  data.forEach((r, k) => {
    const row = table.lines[at + 1 + k] ?? at + 2 + k;
    const date = parseDate(cellOf(r, layout.date), "DMY");
    const quantity = amountOf(cellOf(r, layout.quantity), mark);
    const localValue = amountOf(cellOf(r, layout.local), mark);
    const localCurrency = cellOf(r, layout.local + 1).toUpperCase();
    const accountValue = amountOf(cellOf(r, layout.value), mark);
    const accountCurrency = layout.valueCurrency ?? cellOf(r, layout.value + 1).toUpperCase();
    // What the line was, for a skipped line's reason: its product, date, quantity and local value.
    const what = lineWas(cellOf(r, layout.product), cellOf(r, layout.date), cellOf(r, layout.quantity), `${cellOf(r, layout.local)} ${localCurrency}`.trim());
    if (!date) return skip(row, unreadableLine(row, "Date", cellOf(r, layout.date), "a date (DD-MM-YYYY)", what));
    if (!quantity || quantity.isZero()) {
      return skip(row, notImported(row, what, "has no quantity, so it is not a trade", "enter it by hand if it moved cash or shares (the account statement has every cash movement)"));
    }
    if (!localValue || localValue.isZero() || !/^[A-Z]{3}$/.test(localCurrency)) {
      return skip(row, notImported(row, what, "has no local value with its currency, so what the trade cost cannot be told", `enter it by hand as a ${quantity.gt(0) ? "BUY" : "SELL"} with the amount from the account statement`));
    }
    // The newer layout writes the Order Id one cell right of its header; older lines under it.
    const orderId = layout.order < 0 ? "" : cellOf(r, layout.order) || cellOf(r, layout.order + 1);
    const base = { row, date, ...(orderId ? { orderId } : {}) };
    const asset = hints(cellOf(r, layout.product), cellOf(r, layout.isin));
    const buy = quantity.gt(0);
    out.transactions.push({ ...base, type: buy ? "BUY" : "SELL", ...asset, quantity: dec(quantity), cash: money(buy ? localValue.abs().neg() : localValue.abs(), localCurrency) });
    if (accountValue && !accountValue.isZero() && /^[A-Z]{3}$/.test(accountCurrency) && accountCurrency !== localCurrency) {
      const pairKey = `fx-${row}`;
      const [from, to] = buy
        ? [money(accountValue.abs().neg(), accountCurrency), money(localValue.abs(), localCurrency)]
        : [money(localValue.abs().neg(), localCurrency), money(accountValue.abs(), accountCurrency)];
      out.transactions.push({ ...base, type: "FX_CONVERSION", quantity: ZERO, cash: from, pairKey });
      out.transactions.push({ ...base, type: "FX_CONVERSION", quantity: ZERO, cash: to, pairKey });
    }
    // In the older layout a currency cell follows the fee; the newer names it in the header.
    const feeCurrencyOf = (i: number) => layout.valueCurrency ?? cellOf(r, i + 1).toUpperCase();
    for (const [i, what] of [[layout.autoFx, "AutoFX"], [layout.fees, "transaction"]] as const) {
      if (i < 0) continue;
      const fee = amountOf(cellOf(r, i), mark);
      const currency = feeCurrencyOf(i);
      if (!fee || fee.isZero()) continue;
      if (!/^[A-Z]{3}$/.test(currency)) {
        out.warnings.push({ code: "feeWithoutCurrency", message: `Line ${row}: the ${what} fee ${fee.toFixed()} has no currency and was not booked`, row, severity: "warning" });
        continue;
      }
      out.transactions.push({ ...base, type: "FEE", ...asset, quantity: ZERO, cash: money(fee.abs().neg(), currency), description: `${what} fee` });
    }
  });
  return { detectedFormat: `degiro/transactions/${layout.lang}`, skippedRows: out.skipped, transactions: out.transactions, warnings: out.warnings };
}

/** Guard: the layout found must leave room for the local value's currency cell. */
export function assertTransactionsLayout(layout: Layout, header: readonly string[]): void {
  if (layout.local + 1 >= header.length) throw new PluginError("invalid-input", "The Transactions.csv has no currency cell after Local value");
}
