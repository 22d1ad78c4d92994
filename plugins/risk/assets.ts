/** Per-asset return series of a multi-asset scope, aligned on the shared dates. */
import { type AssetSeries, fail } from "./contract.ts";

export function assetReturns(assets: readonly AssetSeries[], minObservations: number, minAssets = 1): number[][] {
  if (assets.length < minAssets) fail("data_unavailable", `At least ${minAssets} asset(s) with prices are needed`, { assets: assets.length });
  return assets.map((a) => {
    if (a.values.some((v) => !(v > 0))) fail("data_unavailable", `Asset ${a.asset_id} has days without a positive value`, { asset_id: a.asset_id });
    const obs = Math.max(0, a.values.length - 1);
    if (obs < minObservations) {
      fail("insufficient_history", `${obs} aligned return observations, at least ${minObservations} needed`, {
        observations: obs, min_observations: minObservations, asset_id: a.asset_id,
      });
    }
    const out: number[] = [];
    for (let i = 1; i < a.values.length; i++) out.push(a.values[i]! / a.values[i - 1]! - 1);
    return out;
  });
}

/** Current weights of the assets (value shares), refusing a scope without a current composition. */
export function currentWeights(assets: readonly AssetSeries[]): number[] {
  const w = assets.map((a) => a.weight);
  if (w.some((x) => x === null)) fail("incompatible_mode", "This analytic needs the current composition (weights of today's holdings)");
  return w as number[];
}
