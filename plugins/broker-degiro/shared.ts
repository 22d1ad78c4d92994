import { Decimal, type ImportedTransaction, type ImportResult, type ImportWarning } from "../../sdk/index.ts";
import { assetTypeOfName, type Columns, normalizeHeader, parseDecimal } from "../../sdk/import/index.ts";

/** The languages DEGIRO writes its exports in, as they appear in `detectedFormat`. */
export type Lang = "de" | "en" | "es" | "fr" | "it" | "nl" | "pt";

/** What one parse collects: the rows, the remarks, and every data line left without a row of its own. */
export interface Collected {
  skipped: NonNullable<ImportResult["skippedRows"]>[number][];
  transactions: ImportedTransaction[];
  warnings: ImportWarning[];
}

export const money = (amount: Decimal, currency: string) => ({ amount: amount.toFixed(), currency }) as ImportedTransaction["cash"];
export const dec = (d: Decimal) => d.toFixed() as ImportedTransaction["quantity"];
export const ZERO = "0" as ImportedTransaction["quantity"];

/** Asset hints of a row: the ISIN, the product's name and the kind that name states, as far as the report gives them. */
export function hints(product: string, isin: string): Pick<ImportedTransaction, "assetName" | "assetType" | "isin"> {
  const code = isin.trim().toUpperCase();
  const assetType = assetTypeOfName(product);
  return { ...(/^[A-Z]{2}[A-Z0-9]{9}\d$/.test(code) ? { isin: code } : {}), ...(product.trim() ? { assetName: product.trim() } : {}), ...(assetType ? { assetType } : {}) };
}

/** The index of the first header cell whose normalised name one of `patterns` matches, or -1. */
export function findColumn(cols: Columns, ...patterns: RegExp[]): number {
  const names = cols.names.map(normalizeHeader);
  for (const p of patterns) {
    const i = names.findIndex((n) => p.test(n));
    if (i >= 0) return i;
  }
  return -1;
}

/**
 * An amount cell in the file's decimal mark, except when the value itself shows the other one
 * (`-97.93` in a file of decimal commas): DEGIRO's exports changed their number format over the
 * years, and a value with one separator followed by other than three digits can only be a decimal.
 */
export function amountOf(text: string, fileMark: "." | ","): Decimal | null {
  const t = text.trim();
  if (t === "") return null;
  return parseDecimal(t, /^[-+]?\d{1,3}[.,]\d{3}$/.test(t) ? fileMark : "auto");
}

/**
 * The readings of a number written in a description ("1.314,97", "4.600", "1’400", "0,039",
 * "116.5949"): one when the text is unambiguous, two when a single separator is followed by
 * exactly three digits (a thousands separator or a decimal mark).
 */
export function readings(text: string): Decimal[] {
  const t = text.replace(/['’\s\u00a0]/g, "");
  if (/^\d+$/.test(t)) return [new Decimal(t)];
  const dot = t.lastIndexOf(".");
  const comma = t.lastIndexOf(",");
  if (dot >= 0 && comma >= 0) {
    const value = parseDecimal(t, dot > comma ? "." : ",");
    return value ? [value] : [];
  }
  const sep = dot >= 0 ? "." : ",";
  const parts = t.split(sep);
  if (parts.length > 2) return parts.slice(1).every((p) => p.length === 3) ? [new Decimal(parts.join(""))] : [];
  const [whole, fraction] = parts as [string, string];
  if (!/^\d+$/.test(whole) || !/^\d+$/.test(fraction)) return [];
  const decimal = new Decimal(`${whole}.${fraction}`);
  return fraction.length === 3 ? [new Decimal(`${whole}${fraction}`), decimal] : [decimal];
}

/** Prices quoted in a currency's hundredth (pence, cents of rand, agorot) against the amount's currency. */
const MINOR: Record<string, string> = { GBX: "GBP", ZAC: "ZAR", ILA: "ILS" };

/**
 * The quantity and price of a trade description, choosing among the readings of each the pair
 * whose product is the line's amount (within a cent per unit or 0.5 %); `matched` is false when
 * none fits, so the caller can warn that the quantity may be misread.
 */
export function tradeNumbers(
  qtyText: string, priceText: string, priceCurrency: string, amount: Decimal | null, amountCurrency: string,
): { matched: boolean; price: Decimal; quantity: Decimal } | null {
  const quantities = readings(qtyText);
  const prices = readings(priceText);
  if (quantities.length === 0) return null;
  const unit = new Decimal(MINOR[priceCurrency.toUpperCase()] === amountCurrency ? "0.01" : "1");
  if (amount === null || prices.length === 0) return { matched: false, quantity: quantities[0]!, price: prices[0] ?? new Decimal(0) };
  const target = amount.abs();
  let best: { diff: Decimal; price: Decimal; quantity: Decimal } | null = null;
  for (const q of quantities) {
    for (const p of prices) {
      const diff = q.times(p).times(unit).minus(target).abs();
      if (!best || diff.lt(best.diff)) best = { diff, price: p, quantity: q };
    }
  }
  const b = best!;
  const tolerance = Decimal.max(b.quantity.times("0.01"), target.times("0.005"), new Decimal("0.02"));
  return { matched: b.diff.lte(tolerance), price: b.price, quantity: b.quantity };
}
