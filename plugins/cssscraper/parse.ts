import { parse as parseHtml } from "node-html-parser";
import { Decimal, type DecimalString, PluginError, toDecimalString } from "../../sdk/index.ts";

/** How the page writes numbers: `us` 1,234.56 (comma groups, point decimals) or `eu` 1.234,56. */
export type DecimalFormat = "eu" | "us";

// Whole-number shapes per format: grouped by threes, or not grouped at all; an optional fraction.
const SHAPES: Readonly<Record<DecimalFormat, RegExp>> = {
  eu: /^(?:\d{1,3}(?:\.\d{3})+|\d+)(?:,\d+)?$/,
  us: /^(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$/,
};
// Also group separators in the wild: spaces (incl. no-break and thin ones) and apostrophes (1'234.50).
const SPACES_AND_APOSTROPHES = /[\s\u00a0\u2009\u202f'\u2019]/g;
const DIGIT = /\d/;

/** True when node-html-parser can use `selector` (it throws on syntax it cannot compile). */
export function isUsableSelector(selector: string): boolean {
  try {
    parseHtml("<p></p>").querySelector(selector);
    return true;
  } catch {
    return false;
  }
}

function lastDigitIndex(text: string): number {
  for (let i = text.length - 1; i >= 0; i--) if (DIGIT.test(text[i]!)) return i;
  return -1;
}

/**
 * Reads a price written as text: the number between the first and the last digit, in `format`,
 * with whatever surrounds it (a currency sign or code, a label) ignored, and a minus before it kept.
 * Returns an exact decimal string; throws `bad-response` when the text holds no such number
 * (no digits, two numbers, separators that don't fit the format).
 * Example: `parsePrice("1.234,50 €", "eu")` is `"1234.5"`.
 */
export function parsePrice(text: string, format: DecimalFormat): DecimalString {
  const compact = text.replace(/\u2212/g, "-").replace(SPACES_AND_APOSTROPHES, "");
  const first = compact.search(DIGIT);
  const last = lastDigitIndex(compact);
  const prefix = compact.slice(0, Math.max(first, 0));
  const number = first < 0 ? "" : compact.slice(first, last + 1);
  if (!SHAPES[format].test(number) || /[.,]$/.test(prefix)) {
    throw new PluginError("bad-response", `"${text.trim().slice(0, 80)}" is not a price in ${format} format`);
  }
  const plain = format === "us" ? number.replaceAll(",", "") : number.replaceAll(".", "").replace(",", ".");
  return toDecimalString(new Decimal(prefix.includes("-") ? `-${plain}` : plain));
}

/**
 * The price on a page: the text of the first element `selector` matches, read by {@link parsePrice}.
 * Throws `invalid-input` for a selector that cannot be compiled, `bad-response` when nothing matches.
 */
export function priceOnPage(html: string, selector: string, format: DecimalFormat): DecimalString {
  let element: ReturnType<ReturnType<typeof parseHtml>["querySelector"]>;
  try {
    element = parseHtml(html).querySelector(selector);
  } catch (cause) {
    throw new PluginError("invalid-input", `the CSS selector "${selector}" is not usable: ${String(cause)}`, { cause });
  }
  if (!element) throw new PluginError("bad-response", `the CSS selector "${selector}" matches nothing on the page`);
  return parsePrice(element.text, format);
}
