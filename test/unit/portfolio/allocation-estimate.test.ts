import { describe, expect, test } from "bun:test";
import { uniformInt } from "pure-rand/distribution/uniformInt";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import { percentText } from "../../../core/portfolio/allocation-percent.ts";
import { AssetValues } from "../../../core/portfolio/asset-values.ts";
import { type DD, ddAdd, ddMul, ddOfParts, ddPercentText, ddPow10, ddWireText, estimated } from "../../../core/portfolio/double-double.ts";
import { type DecimalParts, partsOfText, wireText } from "../../../core/portfolio/exact-decimal.ts";
import type { DayState } from "../../../core/portfolio/replay.calc.ts";
import type { AssetInfo } from "../../../core/portfolio/report-input.ts";
import { allocationPoints } from "../../../core/portfolio/report.calc.ts";
import { replay } from "../../../core/portfolio/replay.calc.ts";
import { input, wideInput } from "./report-input.sample.ts";

const rng = xoroshiro128plus(20261130);
const int = (from: number, to: number) => uniformInt(rng, from, to);
const pick = <T>(xs: readonly T[]): T => xs[int(0, xs.length - 1)]!;

/** A random decimal text: up to `digits` digits, up to `decimals` of them after the point. */
function decimalText(digits: number, decimals: number, negative = false): string {
  const n = int(1, digits);
  let s = String(int(1, 9));
  for (let i = 1; i < n; i++) s += String(int(0, 9));
  const d = Math.min(int(0, decimals), n);
  const text = d === 0 ? s : `${s.slice(0, n - d) || "0"}.${s.slice(n - d)}`;
  return (negative && int(0, 3) === 0 ? "-" : "") + text;
}

/** A double's exact value as num / 2^k. */
function rational(x: number): { num: bigint; k: number } {
  if (x === 0) return { num: 0n, k: 0 };
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const word = view.getBigUint64(0);
  const biased = Number((word >> 52n) & 0x7ffn);
  let m = word & ((1n << 52n) - 1n);
  if (biased > 0) m |= 1n << 52n;
  const e = (biased > 0 ? biased : 1) - 1075;
  const signed = word >> 63n ? -m : m;
  return e >= 0 ? { num: signed << BigInt(e), k: 0 } : { num: signed, k: -e };
}

/** |(hi + lo) − p| / |p| as a double (p ≠ 0), computed exactly in integers. */
function relativeError(x: DD, p: DecimalParts): number {
  const a = rational(x.hi);
  const b = rational(x.lo);
  const k = Math.max(a.k, b.k, 0);
  const sum = (a.num << BigInt(k - a.k)) + (b.num << BigInt(k - b.k));
  // sum / 2^k − m × 10^exp, over a common denominator 2^k × 10^max(0, −exp).
  const tenDen = p.exp < 0 ? 10n ** BigInt(-p.exp) : 1n;
  const tenNum = p.exp > 0 ? 10n ** BigInt(p.exp) : 1n;
  const exact = p.m * tenNum * (1n << BigInt(k));
  const diff = sum * tenDen - exact;
  const abs = (n: bigint) => (n < 0n ? -n : n);
  // Ratio of two big integers as a double, keeping 60 bits of each.
  const bits = (n: bigint) => n.toString(2).length;
  const shift = Math.max(0, bits(abs(exact)) - 60);
  return Number(abs(diff) >> BigInt(Math.max(0, shift - 0))) / Number(abs(exact) >> BigInt(shift));
}

describe("double-double estimates", () => {
  test("powers of ten are within 2^-104 of 10^k", () => {
    for (let k = -80; k <= 80; k++) expect(relativeError(ddPow10(k), { m: 1n, exp: k, top: k })).toBeLessThan(2 ** -104);
  });

  test("exact parts of up to 34 digits convert within 2^-100", () => {
    for (let i = 0; i < 3000; i++) {
      const p = partsOfText(decimalText(34, 34, true));
      if (p.m === 0n) continue;
      expect(relativeError(ddOfParts(p), p)).toBeLessThan(2 ** -100);
    }
  });

  test("the wire text of an estimate is the exact value's; undecided exactly near a tie or beyond 2^52", () => {
    let ties = 0;
    for (let i = 0; i < 5000; i++) {
      const p = partsOfText(decimalText(int(1, 3) === 1 ? 34 : 16, 14, true));
      const text = ddWireText(ddOfParts(p), 0);
      // Within 10^-5 of a unit of the 10th decimal from a tie, in integers.
      const abs = p.m < 0n ? -p.m : p.m;
      const cut = p.exp < -10 ? 10n ** BigInt(-p.exp - 10) : 1n;
      const twice = 2n * (abs % cut);
      const nearTie = p.exp < -10 && (twice > cut ? twice - cut : cut - twice) * 100_000n <= 2n * cut;
      const big = abs / (p.exp < 0 ? 10n ** BigInt(-p.exp) : 1n) * (p.exp > 0 ? 10n ** BigInt(p.exp) : 1n) >= 2n ** 52n;
      if (nearTie || big) {
        ties++;
        expect(text).toBeNull();
      } else expect(text).toBe(wireText(p));
    }
    expect(ties).toBeLessThan(2500);
  });

  test("an exact tie at the 11th decimal is never decided by the estimate", () => {
    for (const t of ["0.00000000005", "-2.50000000005", "1234567.12345678905", "0.12345678915", "99999.99999999995"]) {
      expect(ddWireText(ddOfParts(partsOfText(t)), 0)).toBeNull();
    }
  });

  test("percentages from estimates are the exact path's, or undecided", () => {
    let decided = 0;
    let compared = 0;
    for (let i = 0; i < 5000; i++) {
      const digits = int(1, 20);
      const total = partsOfText(decimalText(digits, 10));
      // Shares of the total (a percentage below 10^5 %: the estimate's range).
      const amount = partsOfText(decimalText(int(1, digits), 10, true));
      if (total.m === 0n || Number(wireText(amount).replace("-", "")) > Number(wireText(total))) continue;
      compared++;
      const text = ddPercentText(ddOfParts(amount), ddOfParts(total), 0);
      if (text !== null) {
        decided++;
        expect(text).toBe(percentText(amount, total)!);
      }
    }
    expect(decided).toBeGreaterThan(compared * 0.99);
    // 1/8 of 100: exactly 12.5; 1/3 of 100 rounds down; a tie at the 11th decimal of a percent is undecided.
    expect(ddPercentText(ddOfParts(partsOfText("1")), ddOfParts(partsOfText("8")), 0)).toBe("12.5");
    expect(ddPercentText(ddOfParts(partsOfText("1")), ddOfParts(partsOfText("3")), 0)).toBe("33.3333333333");
    for (const [amount, total] of [["0.0000000000005", "1"], ["0.0000000000015", "1"], ["12.34567890125", "100"], ["-3.00000000035", "100"], ["1.000000000005", "2"]]) {
      expect(ddPercentText(ddOfParts(partsOfText(amount)), ddOfParts(partsOfText(total)), 0)).toBeNull();
    }
  });

  test("sums and products stay within a few u² of the exact result", () => {
    for (let i = 0; i < 2000; i++) {
      const a = partsOfText(decimalText(17, 8, true));
      const b = partsOfText(decimalText(17, 8, true));
      if (a.m === 0n || b.m === 0n) continue;
      const product = { m: a.m * b.m, exp: a.exp + b.exp, top: 0 };
      expect(relativeError(ddMul(ddOfParts(a), ddOfParts(b)), product)).toBeLessThan(2 ** -100);
      const exp = Math.min(a.exp, b.exp);
      const sum = { m: a.m * 10n ** BigInt(a.exp - exp) + b.m * 10n ** BigInt(b.exp - exp), exp, top: 0 };
      if (sum.m !== 0n) expect(relativeError(ddAdd(ddOfParts(a), ddOfParts(b)), sum)).toBeLessThan(2 ** -100);
    }
  });
});

describe("allocation history from estimates", () => {
  const est = (text: string) => estimated(partsOfText(text));
  const weightsPool: (Record<string, string> | null)[] = [
    null, { Energy: "1" }, { Energy: "0.5", Utilities: "0.5" }, { Energy: "0.3333333333", Tech: "0.6666666667" },
    { Tech: "0.7", Utilities: "0.2", Energy: "0.1" }, { Health: "1" },
  ];
  const geoPool: (Record<string, string> | null)[] = [null, { DE: "1" }, { US: "0.5", DE: "0.5" }, { FR: "0.25", US: "0.75" }];
  const assets = new Map<number, AssetInfo>();
  for (let id = 1; id <= 40; id++) {
    assets.set(id, {
      id, name: `A${id}`, ticker: null, type: pick(["STOCK", "ETF", "BOND"]), currency: "EUR", quoteBaseQuantity: "1", hasProvider: false,
      sectors: pick(weightsPool), geography: pick(geoPool),
    });
  }
  assets.set(41, { ...assets.get(1)!, id: 41, sectors: { Zeta: "1" } });
  assets.set(42, { ...assets.get(1)!, id: 42, sectors: { Alpha: "1" } });
  // Quantities with up to 8 decimals, closes with up to 6, rates of 34 digits (an inverse) or 6.
  const rates = ["1", "0.9090909090909090909090909090909091", "1.163245", "0.8547008547008547008547008547008547"];
  function randomDay(): AssetValues {
    const values = new AssetValues();
    const n = int(1, 40);
    const ids = [...assets.keys()].sort(() => int(0, 2) - 1).slice(0, n);
    for (const id of ids) {
      const rate = pick(rates);
      values.addPosition(id, est(decimalText(12, 8, true)), est(decimalText(9, 6)), rate === "1" ? null : est(rate));
      // Some assets in transit too (added to the held value, or alone).
      if (int(0, 9) === 0) values.addValue(id, est(decimalText(10, 4)));
    }
    if (int(0, 4) === 0) values.addValue(ids[0]!, est(decimalText(10, 4, true)));
    return values;
  }

  test("the points from estimates are byte for byte the exact path's (random days, ties and equal sums among them)", () => {
    let compared = 0;
    for (let i = 0; i < 400; i++) {
      const values = randomDay();
      const day = { date: "2025-01-01", assetValues: values } as unknown as DayState;
      const fast = allocationPoints(day, assets);
      const exact = allocationPoints({ date: "2025-01-01", assetValues: values } as unknown as DayState, assets, true);
      expect(JSON.stringify(fast)).toBe(JSON.stringify(exact));
      compared++;
    }
    // Values that make ties and equal sums: two assets with the same value and the same weights.
    const tie = new AssetValues();
    tie.addPosition(1, est("3"), est("0.00000000005"), null);
    tie.addPosition(2, est("1"), est("0.00000000015"), null);
    const twin = new AssetValues();
    twin.addValue(5, est("100.12345678905"));
    twin.addValue(6, est("100.12345678905"));
    // Two sums a unit of the 34th digit apart, closer than the estimates can tell: ordered by value, not by name.
    const close = new AssetValues();
    close.addPosition(41, est("1.000000000000000000000000000000001"), est("1"), est(rates[1]!));
    close.addPosition(42, est("1"), est("1"), est(rates[1]!));
    const sectors = allocationPoints({ date: "2025-01-02", assetValues: close } as unknown as DayState, assets).sector.components;
    expect(sectors.map((c) => c.name)).toEqual(["Zeta", "Alpha"]);
    // A total that is exactly zero, whose estimate is not (1.5e-33): nothing is valued, no percentage.
    const zero = new AssetValues();
    for (const [id, v] of [[1, "0.1"], [2, "0.2"], [3, "-0.3"]] as const) zero.addValue(id, est(v));
    const zeroPoint = allocationPoints({ date: "2025-01-02", assetValues: zero } as unknown as DayState, assets).type.components;
    expect(zeroPoint.every((c) => c.value === null)).toBe(true);
    // Values beyond the doubles' range (10^-400, 10^320), alone or beside ordinary ones: the exact path.
    const far = new AssetValues();
    far.addValue(1, est(`0.${"0".repeat(399)}1`));
    far.addValue(2, est("12.5"));
    const huge = new AssetValues();
    huge.addValue(3, est(`1${"0".repeat(320)}`));
    huge.addValue(4, est("7"));
    expect(Number.isNaN(ddOfParts(partsOfText(`0.${"0".repeat(399)}1`)).hi)).toBe(true);
    for (const v of [tie, twin, close, zero, far, huge]) {
      expect(JSON.stringify(allocationPoints({ date: "2025-01-02", assetValues: v } as unknown as DayState, assets)))
        .toBe(JSON.stringify(allocationPoints({ date: "2025-01-02", assetValues: v } as unknown as DayState, assets, true)));
    }
    expect(compared).toBe(400);
  });
});

test("every day of a replayed ledger has the exact path's allocation points (a one-third share, USD, a bond per 100, sums past 2^53)", () => {
  for (const sample of [input(true), wideInput(true)]) {
    // Weights that split values in halves and thirds, so sums tie and divide.
    const halves: Record<string, string> = { Energy: "0.5", Tech: "0.5" };
    const thirds: Record<string, string> = { DE: "0.3333333333", US: "0.6666666667" };
    sample.assets = sample.assets.map((a, i) => ({ ...a, sectors: i % 2 === 0 ? halves : { Tech: "1" }, geography: i % 3 === 0 ? null : thirds }));
    const assets = new Map(sample.assets.map((a) => [a.id, a]));
    for (const scale of ["1", "0.5", "0.333333"]) {
      sample.brokers = sample.brokers.map((b, i) => (i === 0 ? { ...b, scale } : b));
      const days = replay(sample).days;
      expect(days.length).toBeGreaterThan(2);
      for (const d of days) {
        expect(JSON.stringify(allocationPoints(d, assets))).toBe(JSON.stringify(allocationPoints(d, assets, true)));
      }
    }
  }
});
