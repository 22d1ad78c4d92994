/**
 * Numbers and dates for people: grouped and with the decimal mark of the user's language, from
 * decimal strings. Rounding happens on the digits (lib/decimal.ts); Intl.NumberFormat is handed
 * the rounded *string*, which it formats exactly (ECMA-402 treats a numeric string as an exact
 * decimal), so no amount passes through a float.
 */
import { parseDecimal, roundDecimal } from "./decimal.ts";

const formatters = new Map<string, Intl.NumberFormat>();

function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = locale + JSON.stringify(options);
  let nf = formatters.get(key);
  if (!nf) {
    try { nf = new Intl.NumberFormat(locale, options); } catch { nf = new Intl.NumberFormat("en", options); }
    formatters.set(key, nf);
  }
  return nf;
}

const digits = new Map<string, number>();

/** Fraction digits of a currency (JPY 0, EUR 2, BHD 3). */
export function currencyDigits(code: string): number {
  let n = digits.get(code);
  if (n === undefined) {
    try {
      n = new Intl.NumberFormat("en", { style: "currency", currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
    } catch {
      n = 2;
    }
    digits.set(code, n);
  }
  return n;
}

const format = (nf: Intl.NumberFormat, value: string) => nf.format(value as unknown as number);

/** A plain decimal ("1234.5" → "1,234.50" in en with 2 places). */
export function formatDecimal(value: string | null | undefined, locale: string, opts: { minPlaces?: number; maxPlaces?: number } = {}): string {
  if (value === null || value === undefined || value === "") return "—";
  const p = parseDecimal(value);
  if (!p) return value;
  const max = opts.maxPlaces ?? Math.max(opts.minPlaces ?? 0, p.frac.length);
  const min = Math.min(opts.minPlaces ?? 0, max);
  const rounded = roundDecimal(value, max);
  return format(numberFormat(locale, { minimumFractionDigits: min, maximumFractionDigits: max }), rounded);
}

/** A money amount in its currency ("-1234.5", "EUR" → "-€1,234.50" in en). */
export function formatMoney(amount: string | null | undefined, currency: string, locale: string): string {
  if (amount === null || amount === undefined || amount === "") return "—";
  if (!parseDecimal(amount)) return amount;
  const places = currencyDigits(currency);
  const rounded = roundDecimal(amount, places);
  try {
    return format(numberFormat(locale, { style: "currency", currency, minimumFractionDigits: places, maximumFractionDigits: places }), rounded);
  } catch {
    return `${formatDecimal(rounded, locale, { minPlaces: places, maxPlaces: places })} ${currency}`;
  }
}

/** A percentage given in percent units ("12.345" → "12.35 %" per locale), with a sign when asked. */
export function formatPercent(percent: string | null | undefined, locale: string, opts: { signed?: boolean; places?: number } = {}): string {
  if (percent === null || percent === undefined || percent === "") return "—";
  if (!parseDecimal(percent)) return percent;
  const places = opts.places ?? 2;
  const rounded = roundDecimal(percent, places);
  const nf = numberFormat(locale, {
    minimumFractionDigits: places, maximumFractionDigits: places, signDisplay: opts.signed ? "exceptZero" : "auto",
  });
  // Format as a number of percent units and append the locale's percent sign placement.
  const pct = numberFormat(locale, { style: "percent" }).formatToParts(0.01);
  const body = format(nf, rounded);
  const before = pct.findIndex((x) => x.type === "percentSign") < pct.findIndex((x) => x.type === "integer");
  const sign = pct.find((x) => x.type === "percentSign")?.value ?? "%";
  const space = pct.find((x) => x.type === "literal")?.value ?? "";
  return before ? `${sign}${space}${body}` : `${body}${space}${sign}`;
}

/** A fraction ("0.1234") as a percentage ("12.34 %"), by moving the decimal point (no float). */
export function fractionToPercent(fraction: string | null | undefined): string | null {
  if (fraction === null || fraction === undefined) return null;
  const p = parseDecimal(fraction);
  if (!p) return null;
  const frac = p.frac.padEnd(2, "0");
  const int = (p.int + frac.slice(0, 2)).replace(/^0+(?=\d)/, "");
  const rest = frac.slice(2);
  return (p.negative ? "-" : "") + int + (rest ? `.${rest}` : "");
}

/** A percentage ("12.5") as a fraction ("0.125"), by moving the decimal point (no float); trailing zeros dropped. */
export function percentToFraction(percent: string | null | undefined): string | null {
  if (percent === null || percent === undefined) return null;
  const p = parseDecimal(percent);
  if (!p) return null;
  const int = p.int.padStart(3, "0");
  const whole = int.slice(0, -2).replace(/^0+(?=\d)/, "");
  const frac = (int.slice(-2) + p.frac).replace(/0+$/, "");
  const zero = /^0*$/.test(whole) && frac === "";
  return (p.negative && !zero ? "-" : "") + whole + (frac ? `.${frac}` : "");
}

/** A broker share as the API writes it ("0.500000", a fraction) in percent units without trailing zeros ("50"). */
export function shareToPercent(share: string | null | undefined): string | null {
  const pct = fractionToPercent(share);
  return pct === null ? null : pct.includes(".") ? pct.replace(/\.?0+$/, "") : pct;
}

/** A broker share ("1.000000") as a percentage in the locale ("100 %", "33,3333 %"). */
export function formatShare(share: string | null | undefined, locale: string): string {
  const pct = shareToPercent(share);
  if (pct === null) return share ?? "—";
  return formatPercent(pct, locale, { places: pct.split(".")[1]?.length ?? 0 });
}

/** A calendar date "YYYY-MM-DD" in the locale's short form, without time-zone shifts. */
export function formatDate(iso: string | null | undefined, locale: string): string {
  if (!iso) return "—";
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  if (!m) return iso;
  const df = dateFormat(locale);
  return df ? df.format(new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])))) : iso.slice(0, 10);
}

/**
 * One Intl.DateTimeFormat per locale (null when the locale is refused): making one costs far more
 * than formatting with it, and a page's tables and chart axes format thousands of dates.
 */
const dateFormats = new Map<string, Intl.DateTimeFormat | null>();

function dateFormat(locale: string): Intl.DateTimeFormat | null {
  let df = dateFormats.get(locale);
  if (df === undefined) {
    try { df = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" }); } catch { df = null; }
    dateFormats.set(locale, df);
  }
  return df;
}

/** An instant (ISO date-time) in the locale, in the browser's time zone. */
export function formatDateTime(iso: string | null | undefined, locale: string): string {
  if (!iso) return "—";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  try {
    return new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }).format(d);
  } catch {
    return d.toISOString();
  }
}

/** What privacy mode shows instead of an amount. */
export const MASK = "•••••";
