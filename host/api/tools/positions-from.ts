import type { ToolIssue } from "./tool-executor.ts";

export interface HeldPosition {
  assetId: number;
  price: string | null;
  quantity: string;
}

/**
 * Fills a tool's `positions` from the caller's holdings (`positions_from: {broker_ids}`; docs/tools.md):
 * every held asset becomes a position keyed by its asset id with the held quantity and, unless the
 * caller gave one, the current price; held assets the caller did not list get target weight 0;
 * listed keys that are not held keep quantity 0 and need a price from the caller.
 * Returns the new parameters, or issues when the merge is impossible.
 */
export function mergeHoldings(parameters: Record<string, unknown>, held: readonly HeldPosition[]):
  { ok: true; parameters: Record<string, unknown> } | { ok: false; issues: ToolIssue[] } {
  const listed = Array.isArray(parameters.positions) ? (parameters.positions as Record<string, unknown>[]) : [];
  const byKey = new Map(held.map((h) => [String(h.assetId), h]));
  const issues: ToolIssue[] = [];
  const positions: Record<string, unknown>[] = listed.map((p, i) => {
    const key = typeof p?.key === "string" ? p.key : "";
    const h = byKey.get(key);
    const price = typeof p?.price === "string" || typeof p?.price === "number" ? String(p.price) : h?.price ?? null;
    if (price === null) issues.push({ code: "price_unavailable", path: ["parameters", "positions", i, "price"] });
    return { ...p, key, price, quantity: h?.quantity ?? "0" };
  });
  const listedKeys = new Set(positions.map((p) => p.key));
  held.forEach((h) => {
    if (listedKeys.has(String(h.assetId))) return;
    if (h.price === null) {
      issues.push({ code: "price_unavailable", path: ["positions_from", "asset", h.assetId] });
      return;
    }
    positions.push({ key: String(h.assetId), price: h.price, quantity: h.quantity, target_weight: "0" });
  });
  if (issues.length) return { ok: false, issues };
  return { ok: true, parameters: { ...parameters, positions } };
}

/** The currency a tool's parameters are expressed in: `budget.code` or `cash.code`. */
export function parametersCurrency(parameters: Record<string, unknown>): string | null {
  for (const key of ["budget", "cash"]) {
    const money = parameters[key] as { code?: unknown } | undefined;
    if (money && typeof money.code === "string") return money.code;
  }
  return null;
}
