/**
 * Technical signals on a price or FX-rate series (docs/risk.md
 * "Signals" states each definition). Indicators whose library definition matches the pinned one come
 * from trading-signals; EMA, MACD and PPO are computed here because the library seeds its EMA with the
 * first value while the contract seeds it with the SMA of the first `period` values; the rolling
 * statistics are a few lines each. Float64; a value is null during the warm-up, never NaN.
 */
import {
  ADX, ATR, BollingerBands, CCI, DonchianChannels, KAMA, MFI, NATR, OBV, ROC, RSI, SMA,
} from "trading-signals";
import { Aroon } from "trading-signals";
import { addDays, addMonths } from "../dates/calendar.ts";
import { z } from "zod";

export interface SignalPoint {
  date: string;
  close: number;
  high: number;
  low: number;
  open: number;
  /** Null when the source has no real volume. */
  volume: number | null;
}

export type SignalLine = { date: string; value: number | null }[];

export interface SignalInstance {
  instance_id: string;
  signal_code: string;
  params: Record<string, unknown>;
}

export interface SignalResult {
  instance_id: string;
  signal_code: string;
  status: "ok" | "failed";
  outputs: Record<string, SignalLine>;
  error?: { code: string; message: string; details?: Record<string, unknown> };
}

type Domain = "asset" | "fx";

interface SignalDef {
  name: string;
  domains: Domain[];
  params: z.ZodObject;
  outputs: string[];
  requiresVolume: boolean;
  compute(points: readonly SignalPoint[], params: any): Record<string, (number | null)[]>;
}

const period = (d: number, min = 1) => z.number().int().min(min).max(1000).default(d).describe("Window length in points");

/** Runs a streaming trading-signals indicator over every point; null while it is not stable. */
function stream<I, R>(ind: { add(x: I): R | null; isStable: boolean }, inputs: readonly I[], pick: (r: R) => number): (number | null)[] {
  return inputs.map((x) => {
    const r = ind.add(x);
    return r === null || r === undefined || !ind.isStable ? null : finite(pick(r));
  });
}

function finite(x: number): number | null {
  return Number.isFinite(x) ? x : null;
}

const closes = (p: readonly SignalPoint[]) => p.map((x) => x.close);
const hlc = (p: readonly SignalPoint[]) => p.map((x) => ({ high: x.high, low: x.low, close: x.close }));

/** EMA seeded with the SMA of the first `n` values (null before), α = 2 / (n + 1); nulls in the input are skipped at the start. */
export function ema(xs: readonly (number | null)[], n: number): (number | null)[] {
  const out: (number | null)[] = new Array(xs.length).fill(null);
  const alpha = 2 / (n + 1);
  let seen = 0;
  let sum = 0;
  let prev: number | null = null;
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i];
    if (x === null || x === undefined) continue;
    if (prev === null) {
      sum += x;
      seen++;
      if (seen === n) { prev = sum / n; out[i] = prev; }
      continue;
    }
    prev = alpha * x + (1 - alpha) * prev;
    out[i] = prev;
  }
  return out;
}

function simpleReturns(xs: readonly number[]): (number | null)[] {
  return xs.map((x, i) => (i === 0 || !(xs[i - 1]! > 0) ? null : x / xs[i - 1]! - 1));
}

function rolling(rs: readonly (number | null)[], n: number, f: (w: number[]) => number | null): (number | null)[] {
  return rs.map((_, i) => {
    if (i < n) return null;
    const w = rs.slice(i - n + 1, i + 1);
    return w.some((x) => x === null) ? null : f(w as number[]);
  });
}

function meanOf(w: readonly number[]): number {
  return w.reduce((s, x) => s + x, 0) / w.length;
}
function stdOf(w: readonly number[]): number {
  const m = meanOf(w);
  return Math.sqrt(w.reduce((s, x) => s + (x - m) ** 2, 0) / (w.length - 1));
}

const WINDOWS: Record<string, { months?: number; days?: number }> = {
  "1w": { days: 7 }, "1m": { months: 1 }, "3m": { months: 3 }, "6m": { months: 6 }, "1y": { months: 12 }, "3y": { months: 36 }, "5y": { months: 60 },
};

function shiftBack(date: string, w: { months?: number; days?: number }): string {
  let d = date;
  if (w.days) d = addDays(d, -w.days);
  if (w.months) d = addMonths(d, -w.months);
  return d;
}

const BenchmarkPoints = z.array(z.object({ date: z.iso.date(), value: z.number().positive() })).max(20_000);

export const SIGNALS: Record<string, SignalDef> = {
  SMA: {
    name: "Simple moving average", domains: ["asset", "fx"], params: z.object({ period: period(20) }).strict(), outputs: ["value"], requiresVolume: false,
    compute: (p, { period: n }) => ({ value: stream(new SMA(n), closes(p), (r) => r) }),
  },
  EMA: {
    name: "Exponential moving average", domains: ["asset", "fx"], params: z.object({ period: period(20) }).strict(), outputs: ["value"], requiresVolume: false,
    compute: (p, { period: n }) => ({ value: ema(closes(p), n) }),
  },
  KAMA: {
    name: "Kaufman adaptive moving average (fast 2, slow 30)", domains: ["asset", "fx"], params: z.object({ period: period(10) }).strict(), outputs: ["value"],
    requiresVolume: false, compute: (p, { period: n }) => ({ value: stream(new KAMA(n), closes(p), (r) => r) }),
  },
  MACD: {
    name: "Moving average convergence divergence", domains: ["asset", "fx"],
    params: z.object({ fast: period(12), slow: period(26), signal: period(9) }).strict().refine((x) => x.fast < x.slow, "fast must be shorter than slow"),
    outputs: ["macd", "signal", "histogram"], requiresVolume: false,
    compute: (p, { fast, slow, signal }) => {
      const f = ema(closes(p), fast);
      const s = ema(closes(p), slow);
      const macd = f.map((x, i) => (x === null || s[i] === null ? null : x - s[i]!));
      const sig = ema(macd, signal);
      return { macd, signal: sig, histogram: macd.map((x, i) => (x === null || sig[i] === null ? null : x - sig[i]!)) };
    },
  },
  PPO: {
    name: "Percentage price oscillator", domains: ["asset", "fx"],
    params: z.object({ fast: period(12), slow: period(26) }).strict().refine((x) => x.fast < x.slow, "fast must be shorter than slow"),
    outputs: ["value"], requiresVolume: false,
    compute: (p, { fast, slow }) => {
      const f = ema(closes(p), fast);
      const s = ema(closes(p), slow);
      return { value: f.map((x, i) => (x === null || s[i] === null || s[i] === 0 ? null : (100 * (x - s[i]!)) / s[i]!)) };
    },
  },
  RSI: {
    name: "Relative strength index (Wilder)", domains: ["asset", "fx"], params: z.object({ period: period(14) }).strict(), outputs: ["value"], requiresVolume: false,
    compute: (p, { period: n }) => ({ value: stream(new RSI(n), closes(p), (r) => r) }),
  },
  STOCH_RSI: {
    name: "Stochastic RSI: (RSI − lowest RSI) / (highest − lowest) over the last `period` RSIs, 0..1", domains: ["asset", "fx"],
    params: z.object({ period: period(14) }).strict(), outputs: ["value"], requiresVolume: false,
    // By hand over the library's RSI: trading-signals answers 100 (not 1, nor undefined) for a flat RSI window.
    compute: (p, { period: n }) => {
      const rsi = stream(new RSI(n), closes(p), (r) => r);
      return {
        value: rsi.map((r, i) => {
          if (r === null || i < n || rsi[i - n + 1] === null) return null;
          const w = rsi.slice(i - n + 1, i + 1) as number[];
          const lo = Math.min(...w);
          const hi = Math.max(...w);
          return hi > lo ? (r - lo) / (hi - lo) : null;
        }),
      };
    },
  },
  ROC: {
    name: "Rate of change (fraction)", domains: ["asset", "fx"], params: z.object({ period: period(12) }).strict(), outputs: ["value"], requiresVolume: false,
    compute: (p, { period: n }) => ({ value: stream(new ROC(n), closes(p), (r) => r) }),
  },
  CCI: {
    name: "Commodity channel index", domains: ["asset", "fx"], params: z.object({ period: period(20) }).strict(), outputs: ["value"], requiresVolume: false,
    compute: (p, { period: n }) => ({ value: stream(new CCI(n), hlc(p), (r) => r) }),
  },
  ADX: {
    name: "Average directional index", domains: ["asset", "fx"], params: z.object({ period: period(14) }).strict(), outputs: ["value"], requiresVolume: false,
    compute: (p, { period: n }) => ({ value: stream(new ADX(n), hlc(p), (r) => r) }),
  },
  AROON: {
    name: "Aroon up and down", domains: ["asset", "fx"], params: z.object({ period: period(25) }).strict(), outputs: ["up", "down"], requiresVolume: false,
    compute: (p, { period: n }) => {
      const a = new Aroon(n);
      const rows = p.map((x) => a.add({ high: x.high, low: x.low }));
      return { up: rows.map((r) => (r ? finite(r.aroonUp) : null)), down: rows.map((r) => (r ? finite(r.aroonDown) : null)) };
    },
  },
  ATR: {
    name: "Average true range (Wilder)", domains: ["asset", "fx"], params: z.object({ period: period(14) }).strict(), outputs: ["value"], requiresVolume: false,
    compute: (p, { period: n }) => ({ value: stream(new ATR(n), hlc(p), (r) => r) }),
  },
  NATR: {
    name: "Normalised average true range (percent of close)", domains: ["asset", "fx"], params: z.object({ period: period(14) }).strict(), outputs: ["value"],
    requiresVolume: false, compute: (p, { period: n }) => ({ value: stream(new NATR(n), hlc(p), (r) => r) }),
  },
  BOLLINGER: {
    name: "Bollinger bands (population standard deviation)", domains: ["asset", "fx"],
    params: z.object({ period: period(20, 2), std_dev: z.number().gt(0).max(10).default(2) }).strict(), outputs: ["upper", "middle", "lower"], requiresVolume: false,
    compute: (p, { period: n, std_dev }) => {
      const b = new BollingerBands(n, std_dev);
      const rows = closes(p).map((x) => b.add(x));
      return {
        upper: rows.map((r) => (r ? finite(r.upper) : null)), middle: rows.map((r) => (r ? finite(r.middle) : null)),
        lower: rows.map((r) => (r ? finite(r.lower) : null)),
      };
    },
  },
  DONCHIAN: {
    name: "Donchian channels", domains: ["asset", "fx"], params: z.object({ period: period(20) }).strict(), outputs: ["upper", "middle", "lower"],
    requiresVolume: false,
    compute: (p, { period: n }) => {
      const d = new DonchianChannels(n);
      const rows = p.map((x) => d.add({ high: x.high, low: x.low }));
      return {
        upper: rows.map((r) => (r ? finite(r.upper) : null)), middle: rows.map((r) => (r ? finite(r.middle) : null)),
        lower: rows.map((r) => (r ? finite(r.lower) : null)),
      };
    },
  },
  MFI: {
    name: "Money flow index", domains: ["asset"], params: z.object({ period: period(14) }).strict(), outputs: ["value"], requiresVolume: true,
    compute: (p, { period: n }) => ({ value: stream(new MFI(n), p.map((x) => ({ high: x.high, low: x.low, close: x.close, volume: x.volume ?? 0 })), (r) => r) }),
  },
  OBV: {
    name: "On-balance volume", domains: ["asset"], params: z.object({ period: period(2, 2) }).strict(), outputs: ["value"], requiresVolume: true,
    compute: (p, { period: n }) => ({
      value: stream(new OBV(n), p.map((x) => ({ open: x.open, high: x.high, low: x.low, close: x.close, volume: x.volume ?? 0 })), (r) => r),
    }),
  },
  DRAWDOWN: {
    name: "Drawdown from the running peak (fraction, ≤ 0)", domains: ["asset", "fx"], params: z.object({}).strict(), outputs: ["value"], requiresVolume: false,
    compute: (p) => {
      let peak = -Infinity;
      return { value: closes(p).map((x) => { peak = Math.max(peak, x); return peak > 0 ? x / peak - 1 : null; }) };
    },
  },
  ROLLING_RETURN: {
    name: "Return over the last `period` points (fraction)", domains: ["asset", "fx"], params: z.object({ period: period(20) }).strict(), outputs: ["value"],
    requiresVolume: false,
    compute: (p, { period: n }) => {
      const c = closes(p);
      return { value: c.map((x, i) => (i < n || !(c[i - n]! > 0) ? null : x / c[i - n]! - 1)) };
    },
  },
  CALENDAR_ROLLING_RETURN: {
    name: "Return over a calendar window (fraction), from the last point on or before the window's start", domains: ["asset", "fx"],
    params: z.object({ window: z.enum(["1w", "1m", "3m", "6m", "1y", "3y", "5y"]).default("1y") }).strict(), outputs: ["value"], requiresVolume: false,
    compute: (p, { window }) => {
      const w = WINDOWS[window]!;
      let j = 0;
      return {
        value: p.map((x) => {
          const from = shiftBack(x.date, w);
          if (p[0]!.date > from) return null;
          while (j + 1 < p.length && p[j + 1]!.date <= from) j++;
          return p[j]!.close > 0 ? x.close / p[j]!.close - 1 : null;
        }),
      };
    },
  },
  ROLLING_VOLATILITY: {
    name: "Annualised volatility of simple returns over the last `period` returns (sample, ×√252)", domains: ["asset", "fx"],
    params: z.object({ period: period(20, 2) }).strict(), outputs: ["value"], requiresVolume: false,
    compute: (p, { period: n }) => ({ value: rolling(simpleReturns(closes(p)), n, (w) => stdOf(w) * Math.sqrt(252)) }),
  },
  ROLLING_SHARPE: {
    name: "Annualised Sharpe ratio over the last `period` returns", domains: ["asset", "fx"],
    params: z.object({ period: period(63, 2), risk_free_rate: z.number().min(-1).max(1).default(0) }).strict(), outputs: ["value"], requiresVolume: false,
    compute: (p, { period: n, risk_free_rate }) => ({
      value: rolling(simpleReturns(closes(p)), n, (w) => {
        const sd = stdOf(w) * Math.sqrt(252);
        return sd > 0 ? finite((meanOf(w) * 252 - risk_free_rate) / sd) : null;
      }),
    }),
  },
  ROLLING_BETA: {
    name: "Beta against a benchmark over the last `period` common returns (cov / var)", domains: ["asset", "fx"],
    params: z.object({ period: period(63, 2), benchmark: BenchmarkPoints.min(3).describe("The benchmark's points {date, value}") }).strict(), outputs: ["value"],
    requiresVolume: false,
    compute: (p, { period: n, benchmark }) => {
      const bench = new Map((benchmark as { date: string; value: number }[]).map((b) => [b.date, b.value]));
      const out: (number | null)[] = new Array(p.length).fill(null);
      const ra: number[] = [];
      const rb: number[] = [];
      let prev: { a: number; b: number } | null = null;
      p.forEach((x, i) => {
        const b = bench.get(x.date);
        if (b === undefined) return;
        if (prev) { ra.push(x.close / prev.a - 1); rb.push(b / prev.b - 1); }
        prev = { a: x.close, b };
        if (ra.length >= n) {
          const wa = ra.slice(-n);
          const wb = rb.slice(-n);
          const ma = meanOf(wa);
          const mb = meanOf(wb);
          let cov = 0;
          let varb = 0;
          for (let k = 0; k < n; k++) { cov += (wa[k]! - ma) * (wb[k]! - mb); varb += (wb[k]! - mb) ** 2; }
          out[i] = varb > 0 ? finite(cov / varb) : null;
        }
      });
      return { value: out };
    },
  },
};

function buildCatalog() {
  return Object.entries(SIGNALS).map(([code, s]) => ({
    signal_code: code, name: s.name, domains: s.domains, outputs: s.outputs, requires_volume: s.requiresVolume,
    params_schema: z.toJSONSchema(s.params, { io: "input", unrepresentable: "any" }) as Record<string, unknown>,
  }));
}

let catalog: ReturnType<typeof buildCatalog> | undefined;

/** The signals with their parameters' JSON Schemas, built once (the schemas cost milliseconds a call). */
export function signalCatalog() {
  catalog ??= buildCatalog();
  return catalog;
}

export interface SignalsTask {
  domain: Domain;
  points: SignalPoint[];
  signals: SignalInstance[];
}

/** Every requested signal over the points (oldest first); each fails alone with a clear reason. */
export function computeSignals(task: SignalsTask): SignalResult[] {
  const hasVolume = task.points.some((p) => p.volume !== null && p.volume > 0);
  return task.signals.map((s) => {
    const base = { instance_id: s.instance_id, signal_code: s.signal_code };
    const failed = (code: string, message: string, details?: Record<string, unknown>): SignalResult => ({ ...base, status: "failed", outputs: {}, error: { code, message, ...(details ? { details } : {}) } });
    const def = SIGNALS[s.signal_code];
    if (!def) return failed("signal_not_found", `Unknown signal '${s.signal_code}'`);
    if (!def.domains.includes(task.domain)) return failed("incompatible_domain", `${s.signal_code} is not available for ${task.domain} series`);
    if (def.requiresVolume && !hasVolume) {
      return failed("volume_required", `${s.signal_code} needs traded volume, and this series has none (FX rates and close-only price sources carry no volume)`);
    }
    const parsed = def.params.safeParse(s.params ?? {});
    if (!parsed.success) {
      return failed("invalid_parameters", "The parameters do not match the signal's schema", {
        issues: parsed.error.issues.map((i) => ({ loc: ["params", ...i.path.map(String)], msg: i.message, type: i.code })),
      });
    }
    const lines = task.points.length === 0 ? Object.fromEntries(def.outputs.map((o) => [o, []])) : def.compute(task.points, parsed.data);
    return {
      ...base, status: "ok",
      outputs: Object.fromEntries(Object.entries(lines).map(([k, vs]) => [k, vs.map((v, i) => ({ date: task.points[i]!.date, value: v === null ? null : finite(v) }))])),
    };
  });
}
