/**
 * The supported range of decimal inputs (issue 10.5). Values are stored exactly as decimal
 * strings, but arithmetic runs on the configured Decimal (34 significant digits): a value with
 * more digits would be rounded silently in balances and reports. Inputs are limited so that a
 * value and the sums of many of them stay exact; anything outside is refused with 422.
 */
export interface DecimalLimit {
  readonly fractionDigits: number;
  readonly integerDigits: number;
  readonly what: string;
}

/**
 * At most 30 digits in all per kind, so values and sums of many of them stay inside the 34
 * significant digits of the arithmetic. Cash needs large totals and few decimals; unit prices,
 * quantities and rates need decimals (crypto units to 18 places, float-born prices to 17).
 */
export const DECIMAL_LIMITS = {
  /** Cash amounts, event values (a SPLIT's ratio too), initial balances. */
  amount: { fractionDigits: 12, integerDigits: 18, what: "amounts" },
  /** Unit prices: price points, cost basis per unit. */
  price: { fractionDigits: 18, integerDigits: 12, what: "prices" },
  /** Quantities of units, volumes, quote base quantities. */
  quantity: { fractionDigits: 18, integerDigits: 12, what: "quantities" },
  /** FX rates. */
  rate: { fractionDigits: 18, integerDigits: 12, what: "rates" },
} as const satisfies Record<string, DecimalLimit>;

export type DecimalKind = keyof typeof DECIMAL_LIMITS;

/** The message of a refusal, naming the limit, e.g. "outside the supported range of amounts: ...". */
export function limitMessage(kind: DecimalKind): string {
  const { fractionDigits, integerDigits, what } = DECIMAL_LIMITS[kind];
  return `outside the supported range of ${what}: at most ${integerDigits} digits before the decimal point and ${fractionDigits} after`;
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
  const { fractionDigits, integerDigits } = DECIMAL_LIMITS[kind];
  const [whole = "", fraction = ""] = text.replace(/^[-+]/, "").split(".");
  return whole.replace(/^0+/, "").length <= integerDigits && fraction.replace(/0+$/, "").length <= fractionDigits;
}
