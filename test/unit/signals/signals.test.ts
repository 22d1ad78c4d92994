import { describe, expect, test } from "bun:test";
import { computeSignals, SIGNALS, type SignalPoint } from "../../../core/signals/signals.calc.ts";
import { closes, expectClose, REF } from "../../plugins/risk/reference.ts";

const closeOnly = (values: number[]): SignalPoint[] =>
  values.map((v, i) => ({ date: REF.dates[i], close: v, high: v, low: v, open: v, volume: null }));
const points = closeOnly(closes(0));
const benchmark = REF.dates.map((date: string, i: number) => ({ date, value: closes(1)[i] }));

function run(code: string, params: Record<string, unknown>, pts = points) {
  const [r] = computeSignals({ domain: "asset", points: pts, signals: [{ instance_id: "x", signal_code: code, params }] });
  return r!;
}

describe("signals match the pandas/numpy reference to 1e-9 (nulls exactly where the warm-up is)", () => {
  for (const [code, ref] of Object.entries(REF.signals as Record<string, any>)) {
    test(code, () => {
      const params = code === "ROLLING_BETA" ? { ...ref.params, benchmark } : ref.params;
      const r = run(code, params);
      expect(r.status).toBe("ok");
      for (const [line, expected] of Object.entries(ref).filter(([k]) => k !== "params") as [string, (number | null)[]][]) {
        const got = r.outputs[line]!;
        expect(got.length).toBe(expected.length);
        expect(got.map((p) => p.date)).toEqual(REF.dates);
        got.forEach((p, i) => {
          if (expected[i] === null) expect(p.value).toBeNull();
          else expectClose(p.value, expected[i]!);
        });
      }
    });
  }
});

test("every one of the reference's 23 signals is in the catalog", () => {
  expect(Object.keys(SIGNALS).sort()).toEqual([
    "ADX", "AROON", "ATR", "BOLLINGER", "CALENDAR_ROLLING_RETURN", "CCI", "DONCHIAN", "DRAWDOWN", "EMA", "KAMA", "MACD", "MFI", "NATR", "OBV", "PPO",
    "ROC", "ROLLING_BETA", "ROLLING_RETURN", "ROLLING_SHARPE", "ROLLING_VOLATILITY", "RSI", "SMA", "STOCH_RSI",
  ]);
});

test("volume-based signals are refused with a clear reason on a series without volume", () => {
  for (const code of ["MFI", "OBV"]) {
    const r = run(code, {});
    expect(r).toMatchObject({ status: "failed", outputs: {}, error: { code: "volume_required" } });
    expect(r.error!.message).toContain("volume");
  }
  const withVolume = points.map((p, i) => ({ ...p, high: p.close * 1.01, low: p.close * 0.99, volume: 1000 + i }));
  expect(run("MFI", {}, withVolume).status).toBe("ok");
  expect(run("OBV", {}, withVolume).status).toBe("ok");
});

test("OBV adds the volume on up days and subtracts it on down days", () => {
  const pts = [10, 11, 10.5, 10.5, 12].map((v, i) => ({ date: REF.dates[i], close: v, high: v, low: v, open: v, volume: 100 * (i + 1) }));
  const r = run("OBV", {}, pts);
  const values = r.outputs.value!.map((p) => p.value);
  // 0 (start), +200, −300, 0, +500 → cumulative 0, 200, −100, −100, 400; shown once the indicator is stable.
  expect(values.filter((v) => v !== null)).toEqual([200, -100, -100, 400].slice(-values.filter((v) => v !== null).length));
});

test("the other indicators give finite values or null, never NaN, on OHLC data", () => {
  const ohlc = points.map((p, i) => ({ ...p, high: p.close * (1 + 0.004 * ((i % 5) + 1)), low: p.close * (1 - 0.003 * ((i % 7) + 1)), volume: 500 + i }));
  for (const code of ["ADX", "ATR", "NATR", "STOCH_RSI", "AROON", "CCI", "MFI"]) {
    const r = run(code, {}, ohlc);
    expect(r.status).toBe("ok");
    for (const line of Object.values(r.outputs)) {
      expect(line.some((p) => p.value !== null)).toBe(true);
      for (const p of line) expect(p.value === null || Number.isFinite(p.value)).toBe(true);
    }
  }
});

test("unknown codes, bad parameters and FX-only refusals fail alone", () => {
  const out = computeSignals({
    domain: "fx", points, signals: [
      { instance_id: "a", signal_code: "NOPE", params: {} }, { instance_id: "b", signal_code: "SMA", params: { period: 0 } },
      { instance_id: "c", signal_code: "OBV", params: {} }, { instance_id: "d", signal_code: "SMA", params: {} },
    ],
  });
  expect(out.map((r) => [r.status, r.error?.code ?? null])).toEqual([
    ["failed", "signal_not_found"], ["failed", "invalid_parameters"], ["failed", "incompatible_domain"], ["ok", null],
  ]);
});

describe("OHLCV signals match the Python reference (trading-signals' Wilder conventions) to 1e-9", () => {
  const o = REF.signals_ohlcv.ohlcv;
  const ohlcv: SignalPoint[] = closes(0).map((c, i) => ({ date: REF.dates[i], close: c, high: o.high[i], low: o.low[i], open: i === 0 ? c : closes(0)[i - 1]!, volume: o.volume[i] }));
  for (const [code, ref] of Object.entries(REF.signals_ohlcv as Record<string, any>).filter(([k]) => k !== "ohlcv")) {
    test(code, () => {
      const r = run(code, ref.params, ohlcv);
      expect(r.status).toBe("ok");
      for (const [line, expected] of Object.entries(ref).filter(([k]) => k !== "params") as [string, (number | null)[]][]) {
        r.outputs[line]!.forEach((p, i) => {
          if (expected[i] === null) expect(`${i}: ${p.value}`).toBe(`${i}: null`);
          else expectClose(p.value, expected[i]!);
        });
      }
    });
  }
});
