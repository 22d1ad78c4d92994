/** A currency pair as stored: `base < quote` alphabetically, so a pair has one key whichever way it is posted. */
export interface FxPairKey {
  base: string;
  quote: string;
}

const CODE = /^[A-Z]{3}$/;
const SLUG = /^([A-Za-z]{3})-([A-Za-z]{3})$/;

/** True for a three-letter upper-case currency code. */
export function isCurrencyCode(code: string): boolean {
  return CODE.test(code);
}

/**
 * The stored orientation of two codes (upper-cased, alphabetical); `inverted` tells that the
 * given order was the other way round. Null when a code is not three letters or both are equal.
 */
export function normalisePair(a: string, b: string): (FxPairKey & { inverted: boolean }) | null {
  const x = a.trim().toUpperCase();
  const y = b.trim().toUpperCase();
  if (!isCurrencyCode(x) || !isCurrencyCode(y) || x === y) return null;
  return x < y ? { base: x, inverted: false, quote: y } : { base: y, inverted: true, quote: x };
}

/** Parses a `BASE-QUOTE` slug (case-insensitive) into its stored orientation; null when malformed. */
export function parsePairSlug(slug: string): (FxPairKey & { inverted: boolean }) | null {
  const match = SLUG.exec(slug.trim());
  return match ? normalisePair(match[1]!, match[2]!) : null;
}

/** The `BASE-QUOTE` slug of a pair, in the order given. */
export function pairSlug(pair: FxPairKey): string {
  return `${pair.base}-${pair.quote}`;
}
