import type { CacheRegistry } from "./cache-registry.ts";

/**
 * The caches holding values derived from transactions, prices, events, assets, access rows and
 * FX rates (docs/portfolio.md "Caches": every such write clears them). The risk simulation and
 * optimisation results are computed from the same data (docs/risk.md "Caches").
 */
export const PORTFOLIO_CACHES = ["portfolio_blob", "portfolio_layer2", "portfolio_wac", "risk_simulation", "risk_optimization"] as const;

/** Clears the portfolio caches; a cache not created yet is already empty and stays uncreated. */
export function clearPortfolioCaches(caches: CacheRegistry): void {
  for (const name of PORTFOLIO_CACHES) caches.clear(name);
}

/**
 * Awaits a write and clears the portfolio caches once it committed, when `changed` says the
 * result changed something; a failed (rolled back) write clears nothing.
 */
export async function clearAfterCommit<T>(caches: CacheRegistry, write: Promise<T>, changed: (result: T) => boolean = () => true): Promise<T> {
  const result = await write;
  if (changed(result)) clearPortfolioCaches(caches);
  return result;
}
