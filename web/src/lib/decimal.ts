/**
 * Decimal strings as the API sends them ("-1234.5678"), handled as digits: amounts are never
 * turned into binary floats for display, so what is shown is what is stored.
 */

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
