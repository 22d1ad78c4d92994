import { IsoDateSchema, type IsoDate } from "./dates.ts";
import { CurrencyCodeSchema, DecimalStringSchema, type CurrencyCode, type DecimalString } from "./money.ts";

/**
 * Constructors for branded values written as literals, so `"42.00"` needs no cast:
 * `decimal("42.00")`, `currency("USD")`, `isoDate("2024-03-01")`. Each checks its value with the
 * type's schema and throws a `TypeError` naming the value and the rule when it does not fit
 * (`decimal("1e5")`, `currency("usd")`, `isoDate("2023-02-29")` throw).
 */
function brand<T>(schema: { safeParse(v: unknown): { success: boolean; data?: unknown; error?: { issues: { message: string }[] } } }, what: string, value: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new TypeError(`${JSON.stringify(value)} is not a ${what}: ${parsed.error?.issues[0]?.message ?? "invalid"}`);
  return parsed.data as T;
}

/** A {@link DecimalString} from a literal such as `"42.00"` or `"-0.5"`; throws a `TypeError` otherwise. */
export const decimal = (value: string): DecimalString => brand<DecimalString>(DecimalStringSchema, "decimal string", value);

/** A {@link CurrencyCode} from a literal such as `"USD"`; throws a `TypeError` otherwise. */
export const currency = (value: string): CurrencyCode => brand<CurrencyCode>(CurrencyCodeSchema, "currency code", value);

/** An {@link IsoDate} from a literal such as `"2024-03-01"`; throws a `TypeError` otherwise. */
export const isoDate = (value: string): IsoDate => brand<IsoDate>(IsoDateSchema, "date (YYYY-MM-DD)", value);
