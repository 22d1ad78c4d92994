/**
 * Signals drawn over an asset's price chart (docs/risk.md, "Signals"): the instances the chart
 * asks `POST /assets/prices/query` for, their outputs aligned to the price dates, and the
 * crossovers of a fast and a slow moving average. Signal values are statistics (numbers on the
 * wire), used here for chart geometry only.
 */
import { msg } from "./i18n.ts";

export interface SignalInstance { instance_id: string; signal_code: string; params: Record<string, number> }
export interface SignalPoint { date: string; value: number | null }

export const FAST = 50;
export const SLOW = 200;

/** The overlays the user can switch on, each with the signal instances it needs. */
export const OVERLAYS = [
  { id: "sma_fast", label: msg("50-day moving average"), needs: ["sma_fast"] },
  { id: "sma_slow", label: msg("200-day moving average"), needs: ["sma_slow"] },
  { id: "bollinger", label: msg("Bollinger bands (20 days, 2 σ)"), needs: ["bollinger"] },
  { id: "crossovers", label: msg("Crossovers of the two averages"), needs: ["sma_fast", "sma_slow"] },
] as const;

export type OverlayId = (typeof OVERLAYS)[number]["id"];

const INSTANCES: Record<string, SignalInstance> = {
  sma_fast: { instance_id: "sma_fast", signal_code: "SMA", params: { period: FAST } },
  sma_slow: { instance_id: "sma_slow", signal_code: "SMA", params: { period: SLOW } },
  bollinger: { instance_id: "bollinger", signal_code: "BOLLINGER", params: { period: 20, std_dev: 2 } },
};

/** The signal instances to request for the overlays that are on (each once, in a stable order). */
export function signalsFor(on: ReadonlySet<OverlayId>): SignalInstance[] {
  const ids = new Set<string>(OVERLAYS.filter((o) => on.has(o.id)).flatMap((o) => o.needs));
  return Object.keys(INSTANCES).filter((id) => ids.has(id)).map((id) => INSTANCES[id]!);
}

/** A signal line placed on the chart's dates: null where the signal has no value (warm-up, gaps). */
export function alignToDates(dates: readonly string[], points: readonly SignalPoint[] | undefined): (number | null)[] {
  const byDate = new Map((points ?? []).map((p) => [p.date, p.value]));
  return dates.map((d) => {
    const v = byDate.get(d);
    return typeof v === "number" && Number.isFinite(v) ? v : null;
  });
}

export interface Crossover { index: number; date: string; direction: "up" | "down" }

/**
 * Where the fast line crosses the slow one: "up" when it moves from at or below to above, "down"
 * from at or above to below. Days where either line is missing are skipped; touching without
 * crossing (equal, then back to the same side) is not a crossover.
 */
export function crossovers(dates: readonly string[], fast: readonly (number | null)[], slow: readonly (number | null)[]): Crossover[] {
  const out: Crossover[] = [];
  let side = 0;
  for (let i = 0; i < dates.length; i++) {
    const f = fast[i], s = slow[i];
    if (f == null || s == null) continue;
    const now = Math.sign(f - s);
    if (now === 0) continue;
    if (side !== 0 && now !== side) out.push({ index: i, date: dates[i]!, direction: now > 0 ? "up" : "down" });
    side = now;
  }
  return out;
}
