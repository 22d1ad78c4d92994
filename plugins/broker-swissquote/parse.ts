import {
  Decimal, type ImportedTransaction, type ImportFileMeta, type ImportParseParams, type ImportResult, type ImportWarning, PluginError,
} from "../../sdk/index.ts";
import { assetTypeOfName, type CsvFormat, csvFormat, type CsvFormatTable, parseDate, parseDecimal } from "../../sdk/import/index.ts";

// Swissquote transactions export (eBanking > Transactions > Export, CSV): semicolons, decimal
// points with apostrophes grouping thousands ("7'012.00"), dates "DD-MM-YYYY HH:MM:SS", newest line
// first, in the interface's language:
//   en: Date;Order #;Transaction;Symbol;Name;ISIN;Quantity;Unit price;Costs;Accrued Interest;
//       Net Amount;Balance;Currency (Currency: the currency of the row's sub-account)
//   de: Datum;Auftrag #;Transaktionen;Symbol;Name;ISIN;Anzahl;Stückpreis;Kosten;Aufgelaufene Zinsen;
//       Nettobetrag;Währung Nettobetrag;Nettobetrag in der Währung des Kontos;Saldo;Währung (the
//       row's currency is "Währung Nettobetrag"; the last "Währung" is the account's)
// Net Amount is the signed cash movement and includes Costs and Accrued Interest: a buy is
// −(Quantity × Unit price + Costs + Accrued Interest). On a dividend, Quantity is 1, Unit price the
// gross dividend and Costs the tax withheld (Net = gross − withholding). A currency exchange is two
// lines (Forex debit, Forex credit) sharing the Order #. Kinds: Buy/Kauf, Sell/Verkauf,
// Rückzahlung (a redemption), Dividend/Dividende, Capital Gain, Custody Fees/Depotgebühren,
// Interests/Zinsen, Credit/Payment/Vergütung/Zahlung (money in), Debit/Belastung (money out, its
// Costs the transfer fee), Forex credit/debit, Forex-Gutschrift/-Belastung.

interface Layout {
  readonly code: "en" | "de";
  readonly format: CsvFormat;
  readonly n: { accrued: string; costs: string; currency: string; date: string; isin: string; name: string; net: string; order: string; price: string; qty: string; symbol: string; type: string };
}

const layout = (code: Layout["code"], n: Layout["n"]): Layout => ({
  code, n,
  format: csvFormat({
    notFound: "This is not a Swissquote transactions export",
    required: [n.date, n.order, n.type, n.symbol, n.isin, n.qty, n.price, n.costs, n.net],
    separators: [";"],
  }),
});

const LAYOUTS: readonly Layout[] = [
  layout("en", {
    accrued: "Accrued Interest", costs: "Costs", currency: "Currency", date: "Date", isin: "ISIN", name: "Name", net: "Net Amount",
    order: "Order #", price: "Unit price", qty: "Quantity", symbol: "Symbol", type: "Transaction",
  }),
  layout("de", {
    accrued: "Aufgelaufene Zinsen", costs: "Kosten", currency: "Währung Nettobetrag", date: "Datum", isin: "ISIN", name: "Name", net: "Nettobetrag",
    order: "Auftrag #", price: "Stückpreis", qty: "Anzahl", symbol: "Symbol", type: "Transaktionen",
  }),
];

/** 0.95 for the export's header row (English or German), else 0. */
export function acceptsSwissquote(file: ImportFileMeta): number {
  return Math.max(...LAYOUTS.map((l) => l.format.accepts(file)));
}

const ZERO = "0" as ImportedTransaction["quantity"];
const num = (s: string) => parseDecimal(s, ".");

type Kind = "BUY" | "SELL" | "REDEMPTION" | "DIVIDEND" | "TAX" | "INTEREST" | "FEE" | "FOREX" | "IN" | "OUT" | "STATEMENT";
const RULES: [RegExp, Kind][] = [
  [/forex|devisen/, "FOREX"],
  [/^(buy|kauf|achat)$/, "BUY"], [/^(sell|verkauf|vente)$/, "SELL"], [/rückzahlung|redemption|remboursement/, "REDEMPTION"],
  [/dividend|capital gain|ausschüttung|kapitalgewinn/, "DIVIDEND"],
  [/withholding|quellensteuer|verrechnungssteuer|stempel|stamp/, "TAX"],
  [/tax statement|steuerausweis/, "STATEMENT"],
  [/interest|zins/, "INTEREST"],
  [/custody|depotgebühr|fee|gebühr|frais/, "FEE"],
  [/^(credit|payment|vergütung|zahlung|gutschrift|crédit|versement)$/, "IN"], [/^(debit|belastung|débit|retrait)$/, "OUT"],
];

/** Reads the export; see the format notes at the top of this file. */
export function parseSwissquote(params: ImportParseParams): ImportResult {
  if (params.bytes.length === 0) throw new PluginError("invalid-input", "The file is empty");
  let found: { l: Layout; table: CsvFormatTable } | null = null;
  for (const l of LAYOUTS) {
    const table = l.format.match(params.bytes);
    if (table) { found = { l, table }; break; }
  }
  if (!found) throw new PluginError("invalid-input", "This is not a Swissquote transactions export (Date;Order #;Transaction;Symbol;Name;ISIN;Quantity;Unit price;Costs;Accrued Interest;Net Amount expected)");
  const { l, table } = found;
  const { n } = l;
  const transactions: ImportedTransaction[] = [];
  const warnings: ImportWarning[] = [];
  const skippedRows: NonNullable<ImportResult["skippedRows"]>[number][] = [];
  const skip = (row: number, reason: string, severity: "info" | "warning") => {
    skippedRows.push({ line: row, reason });
    warnings.push({ code: severity === "warning" ? "unsupportedType" : "rowSkipped", message: `Line ${row} was not imported: ${reason}`, row, severity });
  };
  // Forex legs, paired by order number once every line is read.
  const legs = new Map<string, { row: number; tx: ImportedTransaction }[]>();

  l.format.walk(table, ({ cells, get, row }) => {
    const word = get(n.type);
    const date = parseDate(get(n.date), "DMY");
    if (!date) return skip(row, `no readable date ("${get(n.date)}")`, "warning");
    const rule = RULES.find(([re]) => re.test(word.toLowerCase()));
    const net = num(get(n.net));
    if (net === null && get(n.net) !== "") return skip(row, `"${word}" with an unreadable net amount ("${get(n.net)}")`, "warning");
    if (rule?.[1] === "STATEMENT" || net === null || net.isZero()) return skip(row, `"${word}" moves no cash`, "info");
    // Some lines name their currency in the cell right after the net amount (the German layout's
    // "Währung Nettobetrag" written under an English header): read it there when Currency is empty.
    const after = cells[table.cols.index(n.net) + 1]?.trim().toUpperCase() ?? "";
    const currency = (get(n.currency) || (/^[A-Z]{3}$/.test(after) ? after : "")).toUpperCase();
    if (!/^[A-Z]{3}$/.test(currency)) return skip(row, `no currency ("${currency}")`, "warning");
    if (!rule) return skip(row, `"${word}" lines are not imported: enter it by hand if it moved money`, "warning");
    const isin = get(n.isin).toUpperCase();
    const symbol = get(n.symbol);
    const name = get(n.name);
    const assetType = isin || symbol ? assetTypeOfName(name) : undefined;
    const asset = { ...(isin ? { isin } : {}), ...(symbol ? { symbol } : {}), ...(name && (isin || symbol) ? { assetName: name } : {}), ...(assetType ? { assetType } : {}) };
    const order = get(n.order).replace(/^0+$/, "");
    const base = { row, date, description: [word, name].filter(Boolean).join(": ") };
    const cash = (v: Decimal) => ({ amount: v.toFixed(), currency }) as ImportedTransaction["cash"];
    const costs = num(get(n.costs))?.abs();
    const fee = costs && !costs.isZero() ? costs : null;
    const accrued = num(get(n.accrued));
    const positive = net.gt(0);
    switch (rule[1]) {
      case "BUY": case "SELL": case "REDEMPTION": {
        const buy = rule[1] === "BUY";
        const qty = num(get(n.qty))?.abs();
        if (!qty || qty.isZero()) return skip(row, `${word} without a quantity`, "warning");
        if (buy === positive) return skip(row, `${word} with an amount of the wrong sign (${net.toFixed()})`, "warning");
        // Net = ∓(value + costs + accrued interest): the value alone is the trade; costs a FEE,
        // accrued interest paid with a bond a FEE on it, received with a sale INTEREST.
        const ai = accrued && !accrued.isZero() ? accrued.abs() : null;
        const f = fee ?? new Decimal(0);
        const a = ai ?? new Decimal(0);
        const value = buy ? net.abs().minus(f).minus(a) : net.abs().plus(f).minus(a);
        const ids = order ? { orderId: order } : {};
        transactions.push({ ...base, ...ids, type: buy ? "BUY" : "SELL", ...asset, quantity: (buy ? qty : qty.neg()).toFixed() as never, cash: cash(buy ? value.neg() : value) });
        if (fee) transactions.push({ ...base, ...ids, type: "FEE", ...asset, quantity: ZERO, cash: cash(fee.neg()) });
        if (ai) transactions.push({ ...base, description: `${base.description} (accrued interest)`, type: buy ? "FEE" : "INTEREST", ...asset, quantity: ZERO, cash: cash(buy ? ai.neg() : ai) });
        return;
      }
      case "DIVIDEND": {
        if (!positive) {
          warnings.push({ code: "dividendReversal", message: `Line ${row}: a negative dividend (a reversal) was read as a fee on the security`, row, severity: "info" });
          return transactions.push({ ...base, type: "FEE", ...asset, quantity: ZERO, cash: cash(net) });
        }
        // Costs on a dividend are the tax withheld: the gross is a DIVIDEND, the tax a TAX.
        transactions.push({ ...base, type: "DIVIDEND", ...asset, quantity: ZERO, cash: cash(fee ? net.plus(fee) : net) });
        if (fee) transactions.push({ ...base, description: `${base.description} (withholding tax)`, type: "TAX", ...asset, quantity: ZERO, cash: cash(fee.neg()) });
        return;
      }
      case "TAX":
        return transactions.push({ ...base, type: positive ? (isin ? "DIVIDEND" : "INTEREST") : "TAX", ...asset, quantity: ZERO, cash: cash(net) });
      case "INTEREST":
        // Negative: interest charged on a debit balance.
        return transactions.push({ ...base, type: positive ? "INTEREST" : "FEE", quantity: ZERO, cash: cash(net) });
      case "FEE":
        return transactions.push({ ...base, type: positive ? "INTEREST" : "FEE", quantity: ZERO, cash: cash(net) });
      case "IN": case "OUT": {
        // A payment's Costs (e.g. 2.00 for a transfer out) are a FEE of their own.
        const transfer = net.plus(fee ?? 0);
        transactions.push({ ...base, type: positive ? "DEPOSIT" : "WITHDRAWAL", quantity: ZERO, cash: cash(transfer) });
        if (fee) transactions.push({ ...base, description: `${base.description} (costs)`, type: "FEE", quantity: ZERO, cash: cash(fee.neg()) });
        return;
      }
      case "FOREX": {
        if (!order) return skip(row, `"${word}" without an order number cannot be paired with its other leg`, "warning");
        const tx: ImportedTransaction = { ...base, pairKey: `forex-${order}`, type: "FX_CONVERSION", quantity: ZERO, cash: cash(net) };
        legs.set(order, [...(legs.get(order) ?? []), { row, tx }]);
        return;
      }
    }
  });

  // The legs of one order: the n-th debit with the n-th credit (an order filled in parts writes
  // several pairs), each pair in two currencies; anything else is left out with the reason.
  for (const [order, all] of legs) {
    const debits = all.filter((p) => p.tx.cash!.amount.startsWith("-"));
    const credits = all.filter((p) => !p.tx.cash!.amount.startsWith("-"));
    const ok = debits.length === credits.length && debits.every((d, i) => d.tx.cash!.currency !== credits[i]!.tx.cash!.currency);
    if (!ok) {
      for (const p of all) skip(p.row, `the exchange of order ${order} has no matching leg in another currency in this file`, "warning");
      continue;
    }
    debits.forEach((d, i) => {
      const pairKey = debits.length === 1 ? `forex-${order}` : `forex-${order}-${i + 1}`;
      transactions.push({ ...d.tx, pairKey }, { ...credits[i]!.tx, pairKey });
    });
  }
  transactions.sort((a, b) => a.row! - b.row!);
  return { detectedFormat: `swissquote/transactions/${l.code}`, skippedRows, transactions, warnings };
}
