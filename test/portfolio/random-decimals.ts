import { uniformInt } from "pure-rand/distribution/uniformInt";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";

/**
 * A seeded source of random decimal texts for the exact-arithmetic property tests: the same seed
 * gives the same cases on every run, so a failure names a case that can be replayed.
 */
export function randomDecimals(seed: number) {
  const rng = xoroshiro128plus(seed);
  const int = (lo: number, hi: number): number => uniformInt(rng, lo, hi);
  /** Up to `maxIntDigits` digits before the point (none: "0") and up to `maxDecimals` after it. */
  function randomDecimal(maxIntDigits: number, maxDecimals: number): string {
    const intDigits = int(0, maxIntDigits);
    const decimals = int(0, maxDecimals);
    let s = intDigits === 0 ? "0" : String(int(1, 9));
    for (let i = 1; i < intDigits; i++) s += String(int(0, 9));
    if (decimals > 0) {
      s += ".";
      for (let i = 0; i < decimals; i++) s += String(int(0, 9));
    }
    return s;
  }
  return { int, randomDecimal };
}
