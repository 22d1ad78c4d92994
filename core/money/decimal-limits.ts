/**
 * The supported range of decimal inputs lives in the SDK (sdk/decimal-limits.ts), so plugins'
 * parameter schemas and the host's fields apply one rule; core and host import it from here.
 */
export { DECIMAL_LIMITS, isLimitMessage, limitMessage, withinLimits } from "../../sdk/decimal-limits.ts";
export type { DecimalKind, DecimalLimit } from "../../sdk/decimal-limits.ts";
