import type { z } from "zod";
import { type DecimalKind, limitMessage, withinLimits } from "../../sdk/decimal-limits.ts";

/**
 * The supported range of decimal inputs lives in the SDK (sdk/decimal-limits.ts), so plugins'
 * parameter schemas and the host's fields apply one rule; core and host import it from here.
 */
export { DECIMAL_LIMITS, isLimitMessage, limitMessage, withinLimits } from "../../sdk/decimal-limits.ts";
export type { DecimalKind, DecimalLimit } from "../../sdk/decimal-limits.ts";

/**
 * Refines a decimal-string schema to the supported range of `kind` (docs/errors.md): a value
 * outside it fails with {@link limitMessage}, which the host answers with 422. The write routes'
 * fields and the JSON restore's rows use it.
 */
export function limited<S extends z.ZodType<string, any>>(schema: S, kind: DecimalKind) {
  return schema.refine((s) => withinLimits(s, kind), limitMessage(kind));
}

/**
 * Significant digits of a value the server computes itself and stores: an FX rate kept in the
 * pair's stored direction (a rate entered or fetched the other way round is stored as its inverse,
 * the FED and SNB providers divide too), an automatic cost basis per unit (a pool's cost over its
 * quantity), a provider's split ratio. They carry the arithmetic's 34 digits, so they are not held
 * to the input limits above; they are still exact in the arithmetic, and as the quotient of two
 * values within the limits they lie between 10^-34 and 10^34.
 */
export const COMPUTED_DIGITS = 34;

export const COMPUTED_MESSAGE =
  `outside the range of stored values: at most ${COMPUTED_DIGITS} significant digits, between 10^-${COMPUTED_DIGITS} and 10^${COMPUTED_DIGITS}`;

/** True when the plain decimal string `text` is a value the server could have computed and stored (see {@link COMPUTED_DIGITS}). */
export function withinComputed(text: string): boolean {
  const [whole = "", fraction = ""] = text.replace(/^[-+]/, "").split(".");
  const integer = whole.replace(/^0+/, "");
  const digits = (integer + fraction).replace(/^0+/, "").replace(/0+$/, "");
  if (digits === "") return true;
  const leadingZeros = integer === "" ? fraction.length - fraction.replace(/^0+/, "").length : 0;
  return digits.length <= COMPUTED_DIGITS && integer.length <= COMPUTED_DIGITS && leadingZeros < COMPUTED_DIGITS;
}

/** Refines a decimal-string schema to {@link withinComputed}: for the columns the server computes (see {@link COMPUTED_DIGITS}). */
export function computed<S extends z.ZodType<string, any>>(schema: S) {
  return schema.refine(withinComputed, COMPUTED_MESSAGE);
}
