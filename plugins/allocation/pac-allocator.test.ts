import { describe, expect, test } from "bun:test";
import { Decimal } from "../../sdk/index.ts";
import { runCalculationToolContract } from "../../sdk/testing/index.ts";
import { type PacInput, pacAllocatorPlugin, planPac as plan } from "./pac-allocator.ts";

/** A PAC input with plain strings (the schema brands them). */
interface Case {
  budget: { code: string; amount: string };
  positions: { key: string; price: string; quantity: string; target_weight: string }[];
  whole_units: boolean;
  min_order_amount?: string;
}

const planPac = (input: Case) => plan(input as unknown as PacInput);

runCalculationToolContract(pacAllocatorPlugin, {
  expectedOutput: {
    orders: [{ key: "A", quantity: "1", amount: "100" }, { key: "B", quantity: "4", amount: "200" }],
    cash_left: "0",
    weights_after: [{ key: "A", weight: "0.5" }, { key: "B", weight: "0.5" }],
  },
  sampleInput: {
    budget: { code: "EUR", amount: "300" },
    positions: [
      { key: "A", price: "100", quantity: "1", target_weight: "0.5" },
      { key: "B", price: "50", quantity: "0", target_weight: "0.5" },
    ],
    whole_units: true,
  },
});

/** Small deterministic generator (mulberry32) so failures replay. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomCase(seed: number, wholeUnits = true): Case {
  const r = rng(seed);
  const n = 1 + Math.floor(r() * 4);
  const raw = Array.from({ length: n }, () => 1 + Math.floor(r() * 9));
  const sum = raw.reduce((s, x) => s + x, 0);
  // weights as exact decimals summing to 1: the last takes the remainder
  const weights = raw.map((x) => new Decimal(x).div(sum).toDecimalPlaces(6));
  weights[n - 1] = new Decimal(1).minus(weights.slice(0, -1).reduce((s, w) => s.plus(w), new Decimal(0)));
  return {
    budget: { code: "EUR", amount: (20 + Math.floor(r() * 400)).toString() + (r() < 0.5 ? ".50" : "") } ,
    positions: raw.map((_, i) => ({
      key: `P${i}`,
      price: (5 + Math.floor(r() * 120)).toString() + "." + Math.floor(r() * 100).toString().padStart(2, "0"),
      quantity: String(Math.floor(r() * 4)),
      target_weight: weights[i]!.toFixed(),
    })),
    whole_units: wholeUnits,
    ...(r() < 0.4 ? { min_order_amount: String(10 + Math.floor(r() * 60)) } : {}),
  };
}

function score(input: Case, amounts: Decimal[]) {
  const prices = input.positions.map((p) => new Decimal(p.price));
  const current = input.positions.map((p, i) => new Decimal(p.quantity).times(prices[i]!));
  const budget = new Decimal(input.budget.amount);
  const total = current.reduce((s, c) => s.plus(c), budget);
  const objective = input.positions.reduce((s, p, i) => {
    const gap = current[i]!.plus(amounts[i]!).minus(new Decimal(p.target_weight).times(total));
    return s.plus(gap.times(gap));
  }, new Decimal(0));
  return { objective, cashLeft: budget.minus(amounts.reduce((s, a) => s.plus(a), new Decimal(0))) };
}

/** Every whole-unit plan within the budget (and the minimum order), best first: objective, then cash left. */
function bruteForce(input: Case) {
  const prices = input.positions.map((p) => new Decimal(p.price));
  const budget = new Decimal(input.budget.amount);
  const min = new Decimal(input.min_order_amount ?? 0);
  let best: { objective: Decimal; cashLeft: Decimal } | null = null;
  const units = new Array(prices.length).fill(0);
  const walk = (i: number, spent: Decimal) => {
    if (i === prices.length) {
      const s = score(input, units.map((u, k) => prices[k]!.times(u)));
      if (!best || s.objective.lt(best.objective) || (s.objective.eq(best.objective) && s.cashLeft.lt(best.cashLeft))) best = s;
      return;
    }
    for (let u = 0; ; u++) {
      const cost = prices[i]!.times(u);
      if (spent.plus(cost).gt(budget)) break;
      if (u > 0 && cost.lt(min)) continue;
      units[i] = u;
      walk(i + 1, spent.plus(cost));
    }
    units[i] = 0;
  };
  walk(0, new Decimal(0));
  return best!;
}

function amountsOf(input: Case, out: ReturnType<typeof planPac>): Decimal[] {
  return input.positions.map((p) => new Decimal(out.orders.find((o) => o.key === p.key)?.amount ?? 0));
}

describe("pac_allocator", () => {
  test("the plan is never worse than the best of all whole-unit plans (brute force, 300 random small cases)", () => {
    for (let seed = 1; seed <= 300; seed++) {
      const input = randomCase(seed);
      const best = bruteForce(input);
      const got = score(input, amountsOf(input, planPac(input)));
      const worse = got.objective.gt(best.objective) || (got.objective.eq(best.objective) && got.cashLeft.gt(best.cashLeft));
      if (worse) throw new Error(`seed ${seed}: got ${got.objective} / ${got.cashLeft}, best ${best.objective} / ${best.cashLeft}`);
    }
  });

  test("the budget is never exceeded and whole units are whole", () => {
    for (let seed = 1; seed <= 200; seed++) {
      const input = randomCase(seed);
      const out = planPac(input);
      expect(new Decimal(out.cash_left).gte(0)).toBe(true);
      for (const o of out.orders) {
        expect(new Decimal(o.quantity).isInteger()).toBe(true);
        const price = input.positions.find((p) => p.key === o.key)!.price;
        expect(new Decimal(o.quantity).times(price).eq(o.amount)).toBe(true);
      }
    }
  });

  test("no order is below the minimum order amount", () => {
    for (let seed = 1; seed <= 200; seed++) {
      const input = randomCase(seed);
      if (!input.min_order_amount) continue;
      for (const o of planPac(input).orders) expect(new Decimal(o.amount).gte(input.min_order_amount)).toBe(true);
    }
  });

  test("amounts: the budget is spent to the cent, never exceeded, and beats every plan on a grid", () => {
    for (let seed = 1; seed <= 60; seed++) {
      const input = { ...randomCase(seed, false) };
      delete (input as any).min_order_amount;
      const out = planPac(input);
      expect(new Decimal(out.cash_left).gte(0)).toBe(true);
      expect(new Decimal(out.cash_left).lt("0.01")).toBe(true);
      for (const o of out.orders) expect(new Decimal(o.amount).decimalPlaces()).toBeLessThanOrEqual(2);
      // grid plans: multiples of a tenth of the budget on each position
      const step = new Decimal(input.budget.amount).div(10).toDecimalPlaces(2);
      const grid = bruteForce({ ...input, positions: input.positions.map((p) => ({ ...p, price: step.toFixed(), quantity: new Decimal(p.quantity).times(p.price).div(step).toFixed() })) } as Case);
      const got = score(input, amountsOf(input, out));
      // cents of rounding may cost at most n·(2·gap·0.01) over the continuous optimum; the grid is coarser
      expect(got.objective.lte(grid.objective.plus("1"))).toBe(true);
    }
  });

  test("weights_after are the values after the orders over their sum", () => {
    const input = randomCase(7);
    const out = planPac(input);
    const after = input.positions.map((p) => new Decimal(p.quantity).times(p.price).plus(out.orders.find((o) => o.key === p.key)?.amount ?? 0));
    const sum = after.reduce((s, v) => s.plus(v), new Decimal(0));
    out.weights_after.forEach((w, i) => expect(String(w.weight)).toBe(after[i]!.div(sum).toDecimalPlaces(10).toFixed()));
  });

  test("ties go to less cash left", () => {
    // Buying B (price 2) or not leaves the same squared gap (±1 around its goal); the plan spends the budget.
    const out = planPac({
      budget: { code: "EUR", amount: "2" },
      positions: [{ key: "A", price: "1000", quantity: "1", target_weight: "0.998003992" }, { key: "B", price: "2", quantity: "0", target_weight: "0.001996008" }],
      whole_units: true,
    } as Case);
    expect(String(out.cash_left)).toBe("0");
  });

  test("30 positions are solved within the node limit", () => {
    const r = rng(42);
    const positions = Array.from({ length: 30 }, (_, i) => ({
      key: `P${i}`, price: (10 + r() * 300).toFixed(2), quantity: String(Math.floor(r() * 50)), target_weight: "0",
    }));
    positions.forEach((p, i) => { p.target_weight = i < 29 ? "0.033333" : new Decimal(1).minus(new Decimal("0.033333").times(29)).toFixed(); });
    const out = planPac({ budget: { code: "EUR", amount: "5000" }, positions, whole_units: true } as Case);
    expect(new Decimal(out.cash_left).gte(0)).toBe(true);
    expect(out.orders.length).toBeGreaterThan(0);
  });
});
