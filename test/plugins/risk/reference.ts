/** The Python reference (test/fixtures/risk/make_reference.py) and helpers to feed it to the risk plugins in-process. */
import { expect } from "bun:test";
import reference from "../../fixtures/risk/reference.json";
import type { Plugin } from "../../../sdk/index.ts";

export const REF = reference as any;

/** Relative closeness: |a − b| ≤ tol · max(1, |b|)… relative to |b| when |b| > 1e-12, absolute otherwise. */
export function expectClose(actual: number | null | undefined, expected: number, tol = 1e-9): void {
  expect(typeof actual).toBe("number");
  const a = actual as number;
  const scale = Math.abs(expected) > 1e-12 ? Math.abs(expected) : 1;
  if (Math.abs(a - expected) > tol * scale) throw new Error(`expected ${expected}, got ${a} (relative error ${Math.abs(a - expected) / scale})`);
}

export const closes = (i: number): number[] => REF.assets[i].closes.map(Number);

/** The portfolio of the fixture's quantities held over the period. */
export function portfolioValues(): number[] {
  return REF.dates.map((_: string, t: number) => REF.assets.reduce((s: number, a: any) => s + a.quantity * Number(a.closes[t]), 0));
}

export function compute(plugin: Plugin<"risk-tool", any>, input: Record<string, unknown>): any {
  const tool = plugin.create({} as never) as any;
  const full = {
    scope: "asset", mode: "historical", currency: "EUR", end_value: null, series: null, asset_dates: REF.dates, assets: [], benchmark: null,
    parameters: {}, ...input,
  };
  const parsed = tool.inputSchema.parse(full);
  const out = tool.outputSchema.parse(tool.compute(parsed));
  // NaN and ±Infinity never reach a response.
  JSON.stringify(out, (_k, v) => {
    if (typeof v === "number" && !Number.isFinite(v)) throw new Error("non-finite number in a risk result");
    return v;
  });
  return out;
}

export const assetSeries = (i: number, weight: number | null = null) => ({
  asset_id: i + 1, name: REF.assets[i].name, asset_type: "STOCK", sectors: null, geography: null, weight, values: closes(i),
});

export function currentWeights(): number[] {
  const last = REF.dates.length - 1;
  const values = REF.assets.map((a: any) => a.quantity * Number(a.closes[last]));
  const total = values.reduce((s: number, v: number) => s + v, 0);
  return values.map((v: number) => v / total);
}

/** The output of a run that must succeed. */
export function output(plugin: Plugin<"risk-tool", any>, input: Record<string, unknown>): any {
  const r = compute(plugin, input);
  if (r.error) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.output;
}
