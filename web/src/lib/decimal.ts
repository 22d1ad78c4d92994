/**
 * Decimal strings as the API sends them ("-1234.5678"), handled as digits: amounts are never
 * turned into binary floats for display, so what is shown is what is stored.
 */

import { t } from "./i18n.ts";

const DECIMAL = /^([+-])?(\d+)(?:\.(\d+))?$/;

export interface ParsedDecimal { negative: boolean; int: string; frac: string }

export function parseDecimal(value: string): ParsedDecimal | null {
  const m = DECIMAL.exec(value.trim());
  if (!m) return null;
  const int = m[2]!.replace(/^0+(?=\d)/, "");
  const frac = m[3] ?? "";
  const zero = /^0*$/.test(int) && /^0*$/.test(frac);
  return { negative: m[1] === "-" && !zero, int, frac };
}

export function isDecimal(value: string): boolean {
  return parseDecimal(value) !== null;
}

/** Adds one unit in the last place of a digit string ("0999" → "1000"). */
function increment(digits: string): string {
  const out = digits.split("");
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i] === "9") out[i] = "0";
    else { out[i] = String(Number(out[i]) + 1); return out.join(""); }
  }
  return "1" + out.join("");
}

/**
 * Rounds to `places` fraction digits, half away from zero (how a bank statement rounds), and
 * returns a plain decimal string such as "-12.35".
 */
export function roundDecimal(value: string, places: number): string {
  const p = parseDecimal(value);
  if (!p) return value;
  let { int, frac } = p;
  if (frac.length > places) {
    const roundUp = frac.charCodeAt(places) >= 53; // "5"
    frac = frac.slice(0, places);
    if (roundUp) {
      const bumped = increment(int + frac);
      int = bumped.slice(0, bumped.length - places) || "0";
      frac = bumped.slice(bumped.length - places);
    }
  }
  const zero = /^0*$/.test(int) && /^0*$/.test(frac);
  const body = places > 0 && frac.length ? `${int}.${frac}` : int;
  return (p.negative && !zero ? "-" : "") + body;
}

/** -1, 0 or 1. */
export function signOf(value: string): -1 | 0 | 1 {
  const p = parseDecimal(value);
  if (!p) return 0;
  if (/^0*$/.test(p.int) && /^0*$/.test(p.frac)) return 0;
  return p.negative ? -1 : 1;
}

/** Compares two decimal strings exactly. */
export function compareDecimal(a: string, b: string): -1 | 0 | 1 {
  const pa = parseDecimal(a), pb = parseDecimal(b);
  if (!pa || !pb) return 0;
  const sa = signOf(a), sb = signOf(b);
  if (sa !== sb) return sa < sb ? -1 : 1;
  if (sa === 0) return 0;
  const len = Math.max(pa.frac.length, pb.frac.length);
  const da = pa.int.padStart(64, "0") + pa.frac.padEnd(len, "0");
  const db = pb.int.padStart(64, "0") + pb.frac.padEnd(len, "0");
  const c = da < db ? -1 : da > db ? 1 : 0;
  return (sa < 0 ? -c : c) as -1 | 0 | 1;
}

/** Absolute value of a decimal string. */
export function absDecimal(value: string): string {
  return value.trim().replace(/^[+-]/, "");
}

/** Negates a decimal string. */
export function negateDecimal(value: string): string {
  const v = value.trim();
  if (signOf(v) === 0) return absDecimal(v);
  return v.startsWith("-") ? v.slice(1) : `-${v.replace(/^\+/, "")}`;
}

/** A number only for chart geometry (never for showing an amount). */
export function toChartNumber(value: string | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/** The decimal mark and grouping separator a locale writes ("de" → "," and "."; "fr" → "," and U+202F). */
export function localeSeparators(locale: string): { decimal: string; group: string } {
  let parts: Intl.NumberFormatPart[];
  try { parts = new Intl.NumberFormat(locale).formatToParts(12345.5); } catch { parts = new Intl.NumberFormat("en").formatToParts(12345.5); }
  return {
    decimal: parts.find((p) => p.type === "decimal")?.value ?? ".",
    group: parts.find((p) => p.type === "group")?.value ?? ",",
  };
}

/** Separators that only ever group digits: spaces (plain, no-break, narrow no-break, thin) and apostrophes. */
const SPACE_OR_APOSTROPHE = /^[\s\u00a0\u2009\u202f'\u2019]$/;

export type TypedDecimal =
  | { ok: true; value: string }
  | { ok: false; reason: "empty" | "invalid" | "ambiguous"; message: string };

/**
 * What a person typed in a number field, in their locale ("1.234,56" in it, "1 234,56" in fr,
 * "1'234.56" in de-CH, "1,234.56" in en), as the API's canonical decimal string ("1234.56").
 * String to string: digits are never turned into a float.
 *
 * The locale's decimal mark is always a decimal mark. Spaces and apostrophes only group. A point
 * or comma that is not the locale's decimal mark groups when the number has both marks, or the
 * same mark more than once (in groups of three); once and followed by other than three digits it
 * is read as a decimal mark ("232.10" in Italian is 232.10, as the API writes it). A lone mark
 * followed by exactly three digits ("1.234" in Italian, "1,234" in English) could be either and
 * is refused with a message saying how to write each.
 */
export function readDecimal(input: string, locale: string): TypedDecimal {
  const text = input.trim();
  if (text === "") return { ok: false, reason: "empty", message: t("Enter a number.") };
  const { decimal } = localeSeparators(locale);
  const example = decimal === "," ? "1234,56" : "1234.56";
  const invalid: TypedDecimal = { ok: false, reason: "invalid", message: t("Enter a number such as {example}.", { example }) };
  const m = /^([+\-\u2212])?\s*(.*)$/s.exec(text)!;
  const negative = m[1] === "-" || m[1] === "\u2212";
  const body = m[2]!;
  if (!/^[\d.,\s\u00a0\u2009\u202f'\u2019]+$/.test(body) || !/\d/.test(body)) return invalid;
  // Tokens: runs of digits and the single separators between them.
  const tokens = body.match(/\d+|[^\d]/g)!;
  const seps = tokens.map((tok, i) => ({ tok, i })).filter((x) => !/^\d/.test(x.tok));
  for (let k = 1; k < tokens.length; k++) if (!/^\d/.test(tokens[k]!) && !/^\d/.test(tokens[k - 1]!)) return invalid; // two separators in a row
  const marks = seps.filter((s) => s.tok === "." || s.tok === ",");
  let decimalAt = -1; // index in tokens of the decimal mark
  const kinds = new Set(marks.map((s) => s.tok));
  if (kinds.size === 2) {
    const last = marks[marks.length - 1]!;
    if (marks.filter((s) => s.tok === last.tok).length > 1) return invalid;
    decimalAt = last.i;
  } else if (kinds.size === 1) {
    const mark = marks[0]!.tok;
    if (mark === decimal) {
      if (marks.length > 1) return invalid;
      decimalAt = marks[0]!.i;
    } else if (marks.length === 1) {
      const after = tokens[marks[0]!.i + 1];
      const groupedElsewhere = seps.some((s) => SPACE_OR_APOSTROPHE.test(s.tok));
      const before = tokens.slice(0, marks[0]!.i).join("");
      // Grouping needs a first group of one to three digits, not starting with 0 ("0.250" is a decimal).
      if (after !== undefined && after.length === 3 && !groupedElsewhere && /^[1-9]\d{0,2}$/.test(before)) {
        const sign = negative ? "-" : "";
        const whole = sign + before + after;
        const asDecimal = `${sign}${before}${decimal}${after}`;
        return {
          ok: false, reason: "ambiguous",
          message: t("\"{text}\" could be read two ways: write {whole} for the whole number, or {decimal} with a decimal mark.", { text, whole, decimal: asDecimal }),
        };
      }
      decimalAt = marks[0]!.i;
    }
    // The same mark more than once, not the decimal mark: grouping only.
  }
  const intTokens = decimalAt < 0 ? tokens : tokens.slice(0, decimalAt);
  const fracTokens = decimalAt < 0 ? [] : tokens.slice(decimalAt + 1);
  if (fracTokens.length > 1) return invalid; // separators after the decimal mark
  const frac = fracTokens[0] ?? "";
  // The integer part: digits, or groups of three after a first group of one to three, all by one kind of separator.
  let int = "";
  if (intTokens.length > 1) {
    const groups = intTokens.filter((_, k) => k % 2 === 0);
    const between = intTokens.filter((_, k) => k % 2 === 1);
    const kind = (s: string) => (SPACE_OR_APOSTROPHE.test(s) ? (/['\u2019]/.test(s) ? "'" : " ") : s);
    if (new Set(between.map(kind)).size > 1) return invalid;
    if (groups[0]!.length > 3 || groups.slice(1).some((g) => g.length !== 3)) return invalid;
    int = groups.join("");
  } else int = intTokens[0] ?? "";
  if (int === "" && frac === "") return invalid;
  int = int.replace(/^0+(?=\d)/, "") || "0";
  const zero = /^0*$/.test(int) && /^0*$/.test(frac);
  return { ok: true, value: (negative && !zero ? "-" : "") + int + (frac ? `.${frac}` : "") };
}

/** A canonical decimal string written for an input in the locale, without grouping ("1234.5" → "1234,5" in de). */
export function toInputText(value: string | null | undefined, locale: string): string {
  if (value === null || value === undefined) return "";
  const p = parseDecimal(value);
  if (!p) return value;
  const { decimal } = localeSeparators(locale);
  return (p.negative ? "-" : "") + p.int + (p.frac ? decimal + p.frac : "");
}
