/** Core uses the SDK's one configured decimal.js clone, so plugins and core round alike. */
import { Decimal } from "../../sdk/index.ts";

export { Decimal, toDecimalString } from "../../sdk/index.ts";

/**
 * `x.gt(0)` and `x.lt(0)` from the sign and the zero test alone: decimal.js compares with a
 * Decimal made from its argument on every call (an object and its array per comparison), and the
 * replay asks these of every transaction's quantities and cash several times.
 */
export const isAboveZero = (x: Decimal): boolean => !x.isZero() && x.isPositive();
export const isBelowZero = (x: Decimal): boolean => !x.isZero() && x.isNegative();
