import type { SignalInstance, SignalPoint, SignalResult } from "../../../core/signals/signals.calc.ts";
import { runCalculation } from "../run-calculation.ts";

/** Computes signals in the worker pool (empty list: nothing to do, no task). */
export async function runSignals(domain: "asset" | "fx", points: SignalPoint[], signals: SignalInstance[]): Promise<SignalResult[]> {
  if (signals.length === 0) return [];
  return (await runCalculation("computeSignals", { domain, points, signals })).result;
}
