import {
  Decimal, type ImportedTransaction, type ImportFileMeta, type ImportParseParams, type ImportResult, type ImportWarning, PluginError,
} from "../../sdk/index.ts";
import { columns, type Columns, detectDecimalMark, eachRecord, findHeaderRow, parseDate, parseDecimal, readCsv } from "../../sdk/import/index.ts";

// DEGIRO exports two CSVs (comma separated, UTF-8, newest row first, dates DD-MM-YYYY):
//
// Account.csv ("Account statement"): `Date,Time,Value date,Product,ISIN,Description,FX,Change,,
// Balance,,Order Id` (NL: Datum,Tijd,Valutadatum,Product,ISIN,Omschrijving,FX,Mutatie,,Saldo,,
// Order Id; DE: Datum,Uhrzeit,Valutadatum,Produkt,ISIN,Beschreibung,FX,Änderung,,Saldo,,Order-ID).
// "Change" and "Balance" each span two columns, the currency then the amount; amounts use a
// decimal comma and are quoted. The Description says what happened: "Buy 5 NAME@190 USD (ISIN)",
// "Sell ...", "Dividend", "Dividend Tax", "DEGIRO Transaction and/or third party fees",
// "DEGIRO Exchange Connection Fee 2024 (...)", "iDEAL/flatex/SOFORT Deposit", "flatex Withdrawal",
// "Flatex Interest Income", "FX Credit"/"FX Debit" (the two legs of a currency exchange: AutoFX of
// a foreign trade shares the trade's Order Id, a dividend's conversion has none but the same date
// and time), and internal cash-fund lines ("Degiro Cash Sweep Transfer", "Cash Market fund
// conversion", "Money Market fund price change") that move nothing for the user.
// One order executed in several fills gives several Buy/Sell lines with one Order Id.
//
// Transactions.csv ("Transactions"): `Date,Time,Product,ISIN,Reference exchange,Venue,Quantity,
// Price,,Local value,,Value,,Exchange rate,Transaction and/or third party fees,,Total,,Order ID`;
// again a currency column after each money column, decimal points. Quantity is signed (negative =
// sell); "Local value" is in the product's currency, "Value" in the account's: when they differ the
// trade was paid through an exchange (AutoFX), which becomes an FX_CONVERSION pair.

type Kind = "account" | "transactions";

const ACCOUNT_HEADERS = [
  ["date", "value date", "product", "isin", "description", "fx", "change"],
  ["datum", "valutadatum", "product", "isin", "omschrijving", "fx", "mutatie"],
  ["datum", "valutadatum", "produkt", "isin", "beschreibung", "fx", "anderung"],
  ["data", "data valuta", "prodotto", "isin", "descrizione", "fx", "variazioni"],
];
const TRANSACTION_HEADERS = [
  ["date", "product", "isin", "quantity", "price", "local value", "exchange rate", "order id"],
  ["datum", "product", "isin", "aantal", "koers", "lokale waarde", "wisselkoers", "order id"],
  ["datum", "produkt", "isin", "anzahl", "kurs", "wert in lokaler wahrung", "wechselkurs", "order id"],
];

function kindOf(rows: readonly (readonly string[])[]): { at: number; kind: Kind } | null {
  for (const h of ACCOUNT_HEADERS) {
    const at = findHeaderRow(rows, h, 3);
    if (at >= 0) return { at, kind: "account" };
  }
  for (const h of TRANSACTION_HEADERS) {
    const at = findHeaderRow(rows, h, 3);
    if (at >= 0) return { at, kind: "transactions" };
  }
  return null;
}

/** 0.95 for either DEGIRO export's header row, else 0. */
export function acceptsDegiro(file: ImportFileMeta): number {
  if ((file.format !== undefined && file.format !== "text") || file.head === "") return 0;
  return kindOf(readCsv(file.head.split(/\r?\n/, 2).join("\n")).rows) ? 0.95 : 0;
}

const BUY = /^(?:buy|koop|kauf|acquisto|achat|compra)\s+([\d.,]+)\s+(.*)@([\d.,]+)\s+([A-Z]{3})/i;
const SELL = /^(?:sell|verkoop|verkauf|vendita|vente|venta)\s+([\d.,]+)\s+(.*)@([\d.,]+)\s+([A-Z]{3})/i;
const SPLIT_OR_CHANGE = /^(?:stock split|product change|isin change|aandelensplitsing|productwijziging|aktiensplit)/i;

type Rule = { test: RegExp; type: ImportedTransaction["type"] | "FX" | "SKIP" };
/** Description → what it is; first match wins (order matters: "Dividend Tax" before "Dividend"). */
const RULES: readonly Rule[] = [
  { test: /^(?:fx credit|fx debit|valuta creditering|valuta debitering|währungsgutschrift|währungslastschrift|accredito cambio|addebito cambio)/i, type: "FX" },
  { test: /(?:dividend tax|dividendbelasting|dividendensteuer|ritenuta sul dividendo|impôts sur dividende|retención del dividendo)/i, type: "TAX" },
  { test: /(?:dividend|dividende|dividendo|ausschüttung)/i, type: "DIVIDEND" },
  { test: /(?:cash sweep|cash market fund|money market fund|geldmarktfonds|fondo monetario|reservation|reservering|reservierung)/i, type: "SKIP" },
  { test: /(?:withdrawal|terugstorting|opname|auszahlung|prelievo|retrait|retirada)/i, type: "WITHDRAWAL" },
  { test: /(?:deposit|storting|einzahlung|versamento|dépôt|ingreso)/i, type: "DEPOSIT" },
  { test: /(?:interest|rente|zinsen|interessi|intérêts|intereses)/i, type: "INTEREST" },
  { test: /(?:fee|kosten|costs|gebühr|commissioni|frais|comisi)/i, type: "FEE" },
  { test: /(?:tax|belasting|steuer|tassa|impôt|impuesto)/i, type: "TAX" },
];

const money = (amount: Decimal, currency: string) => ({ amount: amount.toFixed(), currency }) as ImportedTransaction["cash"];
const dec = (d: Decimal) => d.toFixed() as ImportedTransaction["quantity"];

function hints(product: string, isin: string) {
  return { ...(isin ? { isin: isin.toUpperCase() } : {}), ...(product ? { assetName: product } : {}) };
}

function parseAccount(rows: readonly (readonly string[])[], at: number): ImportResult {
  const header = rows[at]!;
  const cols: Columns = columns(header);
  const change = cols.index("change", "mutatie", "anderung", "variazioni");
  if (change < 0) throw new PluginError("invalid-input", "The Account.csv has no Change column");
  const data = rows.slice(at + 1);
  const mark = detectDecimalMark(data.map((r) => r[change + 1] ?? ""));
  const transactions: ImportedTransaction[] = [];
  const warnings: ImportWarning[] = [];
  const fxLegs: { index: number; key: string }[] = [];
  // Money cells are read by position (each spans two columns: currency, then amount).
  eachRecord(rows, at, cols, ({ cells: r, get, row }) => {
    const description = get("description", "omschrijving", "beschreibung", "descrizione");
    const date = parseDate(get("date", "datum", "data"), "DMY");
    const currency = (r[change] ?? "").trim().toUpperCase();
    const amount = parseDecimal(r[change + 1] ?? "", mark);
    const product = get("product", "produkt", "prodotto");
    const isin = get("isin");
    const orderId = get("order id", "order-id");
    if (!date) return warnings.push({ code: "badDate", message: `No readable date in row ${row}`, row, severity: "warning" });
    if (amount === null || !/^[A-Z]{3}$/.test(currency)) {
      return warnings.push({ code: "rowSkipped", message: `"${description}" has no amount`, row, severity: "info" });
    }
    const base = { row, date, ...(orderId ? { orderId } : {}) };
    const trade = BUY.exec(description) ?? SELL.exec(description);
    if (trade && !SPLIT_OR_CHANGE.test(description)) {
      const qty = parseDecimal(trade[1]!, ".") ?? new Decimal(0);
      const buy = BUY.test(description);
      return transactions.push({
        ...base, type: buy ? "BUY" : "SELL", ...hints(product, isin), quantity: dec(buy ? qty : qty.neg()), cash: money(amount, currency),
        description,
      });
    }
    if (SPLIT_OR_CHANGE.test(description) && trade) {
      const qty = parseDecimal(trade[1]!, ".") ?? new Decimal(0);
      return transactions.push({
        ...base, type: "ADJUSTMENT", ...hints(product, isin), quantity: dec(/^.*?(?:sell|verkoop|verkauf)/i.test(description) ? qty.neg() : qty), description,
      });
    }
    const rule = RULES.find((x) => x.test.test(description));
    if (!rule || rule.type === "SKIP" || amount.isZero()) {
      return warnings.push({
        code: "rowSkipped", message: rule ? `"${description}" moves nothing for you and was skipped` : `Unknown line "${description}" was skipped`,
        row, severity: rule ? "info" : "warning",
      });
    }
    if (rule.type === "FX") {
      fxLegs.push({ index: transactions.length, key: orderId || `${get("date", "datum", "data")} ${get("time", "tijd", "uhrzeit", "ora")}` });
      return transactions.push({ ...base, type: "FX_CONVERSION", quantity: dec(new Decimal(0)), cash: money(amount, currency), description });
    }
    let type = rule.type as ImportedTransaction["type"];
    if (type === "INTEREST" && amount.lt(0)) type = "FEE";
    if (type === "DIVIDEND" && amount.lt(0)) type = "TAX";
    const withAsset = type === "DIVIDEND" || ((type === "TAX" || type === "FEE") && isin !== "");
    transactions.push({ ...base, type, ...(withAsset ? hints(product, isin) : {}), quantity: dec(new Decimal(0)), cash: money(amount, currency), description });
  });
  pairLegs(transactions, fxLegs);
  return { transactions, warnings };
}

/** Legs with one key pair up in order (a debit with the next credit); a key's odd leg stays unpaired. */
function pairLegs(transactions: ImportedTransaction[], legs: readonly { index: number; key: string }[]): void {
  const byKey = new Map<string, number[]>();
  for (const l of legs) byKey.set(l.key, [...(byKey.get(l.key) ?? []), l.index]);
  let n = 0;
  for (const [key, indexes] of byKey) {
    const negative = indexes.filter((i) => new Decimal(transactions[i]!.cash!.amount).lt(0));
    const positive = indexes.filter((i) => !new Decimal(transactions[i]!.cash!.amount).lt(0));
    for (let k = 0; k < Math.min(negative.length, positive.length); k++) {
      const pairKey = `fx-${++n}-${key}`;
      for (const i of [negative[k]!, positive[k]!]) transactions[i] = { ...transactions[i]!, pairKey };
    }
  }
}

function parseTransactions(rows: readonly (readonly string[])[], at: number): ImportResult {
  const header = rows[at]!;
  const cols = columns(header);
  const idx = (...names: string[]) => cols.index(...names);
  const qty = idx("quantity", "aantal", "anzahl");
  const local = idx("local value", "lokale waarde", "wert in lokaler wahrung");
  const value = idx("value", "waarde", "wert");
  const fees = idx("transaction and/or third party fees", "transaction and or third party fees", "transaction and/or third", "transactiekosten en/of kosten van derden", "transaktionsgebuhren");
  if (qty < 0 || local < 0 || value < 0) throw new PluginError("invalid-input", "The Transactions.csv lacks Quantity, Local value or Value");
  const data = rows.slice(at + 1);
  const mark = detectDecimalMark(data.flatMap((r) => [r[local] ?? "", r[value] ?? "", r[idx("price", "koers", "kurs")] ?? ""]));
  const transactions: ImportedTransaction[] = [];
  const warnings: ImportWarning[] = [];
  eachRecord(rows, at, cols, ({ cells: r, get, row }) => {
    const date = parseDate(get("date", "datum"), "DMY");
    const quantity = parseDecimal(r[qty] ?? "", mark);
    const localValue = parseDecimal(r[local] ?? "", mark);
    const localCurrency = (r[local + 1] ?? "").trim().toUpperCase();
    const accountValue = parseDecimal(r[value] ?? "", mark);
    const accountCurrency = (r[value + 1] ?? "").trim().toUpperCase();
    if (!date || !quantity || quantity.isZero() || !localValue || !/^[A-Z]{3}$/.test(localCurrency)) {
      return warnings.push({ code: "rowSkipped", message: `Row ${row} is not a trade`, row, severity: "warning" });
    }
    const orderId = get("order id", "order-id");
    const base = { row, date, ...(orderId ? { orderId } : {}) };
    const asset = hints(get("product", "produkt"), get("isin"));
    const buy = quantity.gt(0);
    transactions.push({ ...base, type: buy ? "BUY" : "SELL", ...asset, quantity: dec(quantity), cash: money(buy ? localValue.abs().neg() : localValue.abs(), localCurrency) });
    if (accountValue && /^[A-Z]{3}$/.test(accountCurrency) && accountCurrency !== localCurrency) {
      const pairKey = `fx-${row}`;
      const [from, to] = buy
        ? [money(accountValue.abs().neg(), accountCurrency), money(localValue.abs(), localCurrency)]
        : [money(localValue.abs().neg(), localCurrency), money(accountValue.abs(), accountCurrency)];
      transactions.push({ ...base, type: "FX_CONVERSION", quantity: dec(new Decimal(0)), cash: from, pairKey });
      transactions.push({ ...base, type: "FX_CONVERSION", quantity: dec(new Decimal(0)), cash: to, pairKey });
    }
    const fee = fees >= 0 ? parseDecimal(r[fees] ?? "", mark) : null;
    const feeCurrency = fees >= 0 ? (r[fees + 1] ?? "").trim().toUpperCase() : "";
    if (fee && !fee.isZero() && /^[A-Z]{3}$/.test(feeCurrency)) {
      transactions.push({ ...base, type: "FEE", ...asset, quantity: dec(new Decimal(0)), cash: money(fee.abs().neg(), feeCurrency) });
    }
  });
  return { transactions, warnings };
}

/** Reads either DEGIRO export; see the format notes at the top of this file. */
export function parseDegiro(params: ImportParseParams): ImportResult {
  if (params.bytes.length === 0) throw new PluginError("invalid-input", "The file is empty");
  const { rows } = readCsv(params.bytes, { separator: "," });
  const found = kindOf(rows);
  if (!found) throw new PluginError("invalid-input", "This is not a DEGIRO Account.csv or Transactions.csv (header row not recognised)");
  return found.kind === "account" ? parseAccount(rows, found.at) : parseTransactions(rows, found.at);
}

