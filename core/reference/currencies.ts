import currencyCodes from "currency-codes";
import { NameIndex, foldSymbol, memoByLocale } from "./normalize.ts";

/**
 * ISO 4217 codes that are not currencies a portfolio holds cash in, left out of the list and of
 * normalisation (`/utilities/currencies` lists ISO 4217 codes):
 * - precious metals XAU, XAG, XPT, XPD (priced as assets, not cash);
 * - bond-market and accounting units XBA, XBB, XBC, XBD, the IMF's XDR, the SUCRE XSU and the
 *   ADB unit XUA (no notes, no retail accounts);
 * - testing and "no currency" codes XTS, XXX;
 * - fund codes (ISO "funds" flag, units of account beside a real currency): BOV, CHE, CHW, CLF,
 *   COU, MXV, USN, UYI, UYW.
 */
export const EXCLUDED_CURRENCY_CODES: ReadonlySet<string> = new Set([
  "XAU", "XAG", "XPT", "XPD",
  "XBA", "XBB", "XBC", "XBD", "XDR", "XSU", "XUA",
  "XTS", "XXX",
  "BOV", "CHE", "CHW", "CLF", "COU", "MXV", "USN", "UYI", "UYW",
]);

/**
 * Most traded first (BIS Triennial Survey 2022 turnover ranking), so a shared symbol such as
 * `$` resolves to the likeliest currency first; the rest follow alphabetically.
 */
const COMMON_CURRENCIES = [
  "USD", "EUR", "JPY", "GBP", "CNY", "AUD", "CAD", "CHF", "HKD", "SGD", "SEK", "KRW", "NOK", "NZD",
  "INR", "MXN", "TWD", "ZAR", "BRL", "DKK", "PLN", "THB", "ILS", "IDR", "CZK", "AED", "TRY", "HUF",
  "CLP", "SAR", "PHP", "MYR", "COP", "RUB", "RON", "PEN",
];

export interface CurrencyRecord {
  code: string;
  name: string;
  symbol: string;
}

/** Active ISO 4217 codes, sorted by code. */
export const ACTIVE_CURRENCY_CODES: readonly string[] = currencyCodes.data
  .map((r) => r.code)
  .filter((code) => !EXCLUDED_CURRENCY_CODES.has(code))
  .sort();

const ENGLISH_NAME = new Map(currencyCodes.data.map((r) => [r.code, r.currency]));

/** Orders codes most-traded first, then alphabetically. */
export function byCommonness(a: string, b: string): number {
  const rank = (code: string) => {
    const i = COMMON_CURRENCIES.indexOf(code);
    return i < 0 ? COMMON_CURRENCIES.length : i;
  };
  return rank(a) - rank(b) || a.localeCompare(b);
}

function symbolOf(code: string, language: string, display: "narrowSymbol" | "symbol"): string {
  try {
    const parts = new Intl.NumberFormat(language, { style: "currency", currency: code, currencyDisplay: display })
      .formatToParts(1);
    return parts.find((p) => p.type === "currency")?.value ?? code;
  } catch {
    return code;
  }
}

/** Every active currency with its name and narrow symbol in `language` (English names as fallback). */
export const listCurrencies = memoByLocale((language: string): readonly CurrencyRecord[] => {
  const names = new Intl.DisplayNames(language, { type: "currency", fallback: "none" });
  return ACTIVE_CURRENCY_CODES.map((code) => ({
    code,
    name: names.of(code) ?? ENGLISH_NAME.get(code) ?? code,
    symbol: symbolOf(code, language, "narrowSymbol"),
  }));
});

export interface CurrencyIndex {
  byName: NameIndex;
  bySymbol: NameIndex;
}

/**
 * Names (ISO English, Intl English, Intl in `language`) and symbols (narrow and standard, in
 * English and in `language`) of the active currencies. A symbol equal to its code is no symbol.
 */
export const currencyIndex = memoByLocale((language: string): CurrencyIndex => {
  const byName = new NameIndex();
  const bySymbol = new NameIndex(foldSymbol);
  const languages = language === "en" ? ["en"] : ["en", language];
  for (const lang of languages) {
    const names = new Intl.DisplayNames(lang, { type: "currency", fallback: "none" });
    for (const code of ACTIVE_CURRENCY_CODES) {
      byName.add(names.of(code), code);
      for (const display of ["narrowSymbol", "symbol"] as const) {
        const symbol = symbolOf(code, lang, display);
        if (symbol.toUpperCase() !== code) bySymbol.add(symbol, code);
      }
    }
  }
  for (const code of ACTIVE_CURRENCY_CODES) byName.add(ENGLISH_NAME.get(code), code);
  return { byName, bySymbol };
});

export interface CurrencyMatch {
  codes: string[];
  matchType: "exact" | "symbol" | "symbol_ambiguous" | "not_found";
}

/**
 * Resolves free text to ISO codes: a code (any case) or a full name in English or `language` is
 * `exact`; a symbol shared by one currency is `symbol`, by several `symbol_ambiguous` (most
 * traded first, so `$` gives USD first).
 */
export function normalizeCurrency(params: { language: string; name: string }): CurrencyMatch {
  const text = params.name.trim();
  const code = text.toUpperCase();
  if (ACTIVE_CURRENCY_CODES.includes(code)) return { codes: [code], matchType: "exact" };
  const index = currencyIndex(params.language);
  const named = index.byName.get(text);
  if (named.length) return { codes: [...named].sort(byCommonness), matchType: "exact" };
  const symbols = index.bySymbol.get(text);
  if (symbols.length === 1) return { codes: symbols, matchType: "symbol" };
  if (symbols.length > 1) return { codes: [...symbols].sort(byCommonness), matchType: "symbol_ambiguous" };
  return { codes: [], matchType: "not_found" };
}
