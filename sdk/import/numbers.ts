import { Decimal } from "../money.ts";

/**
 * Decimal separator of a report's numbers: `"."` (1,234.56), `","` (1.234,56) or `"auto"` (decided
 * per value: the last of `.` and `,` is the decimal mark when both appear; a lone `,` followed by
 * exactly three digits, as in `1,234`, is ambiguous and read as a thousands separator only when
 * `"."` was chosen; in auto it is a decimal comma unless repeated, as in `1,234,567`).
 */
export type DecimalMark = "." | "," | "auto";

const PLAIN_DOT = /^-?\d{1,15}(?:\.\d+)?$/;
const PLAIN_COMMA = /^-?\d{1,15}(?:,\d+)?$/;
const CURRENCY_NOISE = /[€$£¥₣₤₹\s\u00a0\u202f]|(?:^|\s)(?:[A-Z]{3})(?=\s|$)/g;

/**
 * Parses a human-written number into a {@link Decimal}, or `null` when the text is not a number
 * (empty, `-`, `n/a`, letters). Accepts a sign before or after (`-1`, `1-`), parentheses for
 * negatives (`(12.50)`), a leading `+`, thousands separators (`.` `,` space, NBSP, `'`), currency
 * symbols and a trailing or leading ISO code (`EUR 1.00`), and exponents (`1.5E-3`, as Excel
 * writes small numbers). Never goes through a float.
 * Example: `parseDecimal("-10.000,5", ",")` is `-10000.5`; `parseDecimal("1,234.56")` is `1234.56`.
 */
export function parseDecimal(input: string | number | null | undefined, mark: DecimalMark = "auto"): Decimal | null {
  if (input === null || input === undefined) return null;
  if (typeof input === "number") return Number.isFinite(input) ? new Decimal(input.toPrecision(15)) : null;
  // Fast path for the common plain forms (most cells of a large file).
  if (mark !== "," && PLAIN_DOT.test(input)) return new Decimal(input);
  if (mark === "," && PLAIN_COMMA.test(input)) return new Decimal(input.replace(",", "."));
  let text = input.trim().replace(CURRENCY_NOISE, "").replace(/'/g, "");
  if (text === "") return null;
  let negative = false;
  if (/^\(.*\)$/.test(text)) { negative = true; text = text.slice(1, -1); }
  if (text.endsWith("-")) { negative = !negative; text = text.slice(0, -1); }
  if (text.startsWith("-") || text.startsWith("−")) { negative = !negative; text = text.slice(1); }
  else if (text.startsWith("+")) text = text.slice(1);
  if (!/^[\d.,]*\d[\d.,]*(?:[eE][+-]?\d+)?$/.test(text)) return null;
  const [mantissa, exponent = ""] = text.split(/[eE]/) as [string, string?];
  const decimalMark = mark === "auto" ? guessMark(mantissa) : mark;
  const thousands = decimalMark === "," ? "." : ",";
  const parts = mantissa.split(thousands);
  if (parts.length > 1 && parts.slice(1).some((p, i) => (i < parts.length - 2 || !p.includes(decimalMark)) ? p.length !== 3 : p.split(decimalMark)[0]!.length !== 3)) return null;
  const plain = parts.join("").replace(decimalMark, ".");
  if (plain.includes(",") || (plain.match(/\./g)?.length ?? 0) > 1 || plain === ".") return null;
  const value = new Decimal(`${plain}${exponent === "" ? "" : `e${exponent}`}`);
  return negative && !value.isZero() ? value.neg() : value;
}

function guessMark(text: string): "." | "," {
  const dot = text.lastIndexOf(".");
  const comma = text.lastIndexOf(",");
  if (dot >= 0 && comma >= 0) return dot > comma ? "." : ",";
  if (comma >= 0) {
    const commas = text.split(",").length - 1;
    return commas > 1 ? "." : ",";
  }
  if (dot >= 0 && text.split(".").length - 1 > 1) return ",";
  return ".";
}

/**
 * The decimal mark most of `samples` imply (values with both marks or a non-three-digit group
 * decide; ambiguous ones don't count); `"."` when nothing decides.
 * Example: `detectDecimalMark(["1.234,5", "12"])` is `","`.
 */
export function detectDecimalMark(samples: Iterable<string>): "." | "," {
  let dot = 0;
  let comma = 0;
  for (const raw of samples) {
    const s = raw.replace(/[^\d.,]/g, "");
    const d = s.lastIndexOf(".");
    const c = s.lastIndexOf(",");
    if (d >= 0 && c >= 0) d > c ? dot++ : comma++;
    else if (c >= 0 && (s.length - c - 1 !== 3 || s.split(",").length > 2)) s.split(",").length > 2 ? dot++ : comma++;
    else if (d >= 0 && (s.length - d - 1 !== 3 || s.split(".").length > 2)) s.split(".").length > 2 ? comma++ : dot++;
  }
  return comma > dot ? "," : ".";
}
