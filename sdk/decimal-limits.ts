import { DecimalStringSchema } from "./money.ts";

/**
 * The supported range of decimal inputs (docs/errors.md, "Supported range of amounts"). Values are
 * stored exactly as decimal strings, but arithmetic runs on the configured Decimal (34 significant
 * digits): a value with more digits would be rounded silently in balances and reports. Inputs are
 * limited so that a value and the sums of many of them stay exact; anything outside is refused
 * with 422. The one implementation of the rule: the host's fields and plugins' schemas use it.
 */
export interface DecimalLimit {
  readonly fractionDigits: number;
  readonly integerDigits: number;
  readonly totalDigits: number;
  readonly what: string;
}

/**
 * At most 16 digits before the point, 18 after and 30 in all: every accepted value is exact in the
 * 34-digit arithmetic, with 4 digits of headroom so balances and totals of many values stay exact
 * too. Crypto units and float-born prices need the 18 decimals; 10^16 covers the largest totals
 * even in currencies without cents.
 */
const EXACT = { fractionDigits: 18, integerDigits: 16, totalDigits: 30 } as const;

export const DECIMAL_LIMITS = {
  /** Cash amounts, event values (a SPLIT's ratio too), initial balances. */
  amount: { ...EXACT, what: "amounts" },
  /** Unit prices: price points, cost basis per unit. */
  price: { ...EXACT, what: "prices" },
  /** Quantities of units, volumes, quote base quantities. */
  quantity: { ...EXACT, what: "quantities" },
  /** FX rates. */
  rate: { ...EXACT, what: "rates" },
} as const satisfies Record<string, DecimalLimit>;

export type DecimalKind = keyof typeof DECIMAL_LIMITS;

/** The message of a refusal, naming the limit, e.g. "outside the supported range of amounts: ...". */
export function limitMessage(kind: DecimalKind): string {
  const { fractionDigits, integerDigits, totalDigits, what } = DECIMAL_LIMITS[kind];
  return `outside the supported range of ${what}: at most ${integerDigits} digits before the decimal point, ${fractionDigits} after and ${totalDigits} in all`;
}

/** True for a message made by {@link limitMessage}. */
export function isLimitMessage(message: string): boolean {
  return message.startsWith("outside the supported range of ");
}

/**
 * True when the plain decimal string `text` (sign, digits, optional fraction) fits `kind`'s
 * limits. Leading zeros of the integer part and trailing zeros of the fraction do not count.
 */
export function withinLimits(text: string, kind: DecimalKind): boolean {
  const { fractionDigits, integerDigits, totalDigits } = DECIMAL_LIMITS[kind];
  const [whole = "", fraction = ""] = text.replace(/^[-+]/, "").split(".");
  const before = whole.replace(/^0+/, "").length;
  const after = fraction.replace(/0+$/, "").length;
  return before <= integerDigits && after <= fractionDigits && before + after <= totalDigits;
}

/**
 * A {@link DecimalStringSchema} limited to the supported range of `kind`: a value outside it fails
 * with {@link limitMessage}`(kind)`: the host refuses such provider parameters with 422
 * (docs/errors.md) and reports such a tool input as issue `out_of_range` (docs/tools.md). Use it for
 * every amount, price, quantity or rate a plugin accepts from a user.
 * Example: `boundedDecimal("amount").safeParse("1" + "0".repeat(16))` fails (17 integer digits);
 * `boundedDecimal("rate").parse("0.035")` is `"0.035"`.
 */
export function boundedDecimal(kind: DecimalKind) {
  // Only on a well-formed decimal string: a failed regex does not abort the refinements in zod 4.
  return DecimalStringSchema.refine((text) => withinLimits(text, kind), {
    message: limitMessage(kind),
    when: (payload) => payload.issues.length === 0,
  });
}
