/**
 * The supported range of decimal inputs (issue 10.5). Values are stored exactly as decimal
 * strings, but arithmetic runs on the configured Decimal (34 significant digits): a value with
 * more digits would be rounded silently in balances and reports. Inputs are limited so that a
 * value and the sums of many of them stay exact; anything outside is refused with 422.
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
