/**
 * A scaled integer (`n` × 10^-`scale`) as plain decimal text, every digit kept: `-1234n`, 2 →
 * "-12.34"; `5n`, 3 → "0.005". Used where exact sums run in BigInt (the ledger's balance sums, the
 * report's daily valuation) and come back as text or a Decimal.
 */
export function scaledToText(n: bigint, scale: number): string {
  if (scale === 0) return n.toString();
  const neg = n < 0n;
  const digits = (neg ? -n : n).toString().padStart(scale + 1, "0");
  return `${neg ? "-" : ""}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}
