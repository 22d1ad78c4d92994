/** Keys holding numbers of units: with `mask_amounts` they go too, since units times a public price is an amount. */
const UNIT_KEYS = new Set(["quantity", "original_quantity", "open_quantity", "realized_quantity"]);

function isMoney(value: unknown): value is { code: string; amount: string } {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    && Object.keys(value).length === 2 && "code" in value && "amount" in value;
}

/**
 * `mask_amounts: true` (docs/ai-export.md "Privacy"): every money object (`{code, amount}`) and every
 * unit count is removed; percentages, weights, rates, dates and names stay.
 */
export function maskAmounts(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((v) => !isMoney(v)).map(maskAmounts);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (isMoney(v) || UNIT_KEYS.has(k)) continue;
    out[k] = maskAmounts(v);
  }
  return out;
}
