import { Decimal, PluginError } from "../../sdk/index.ts";

/**
 * The allocation both tools solve (docs/tools.md "PAC allocator"): choose order amounts aᵢ ≥ 0 that
 * minimise Σᵢ (cᵢ + aᵢ − gᵢ)² subject to Σᵢ aᵢ ≤ budget, where cᵢ is position i's current value and
 * gᵢ its goal value; with `wholeUnits` each aᵢ is a whole number of units times the price, and with a
 * minimum order each aᵢ is 0 or at least the minimum.
 */
export interface AllocationProblem {
  budget: Decimal;
  current: Decimal[];
  goals: Decimal[];
  /** Orders below this amount are not placed (0: no minimum). */
  minOrder: Decimal;
  prices: Decimal[];
  wholeUnits: boolean;
}

export interface Allocation {
  amounts: Decimal[];
  /** Units bought: whole numbers, or amount ÷ price to 8 decimals when buying amounts. */
  quantities: Decimal[];
}

/** Decimals of an order amount when buying amounts (cents). */
export const AMOUNT_DECIMALS = 2;
/** Decimals of the quantity reported for an amount order. */
export const QUANTITY_DECIMALS = 8;
/** Search nodes before the tool gives up with execution_limit (PluginError reason `timeout`). */
export const NODE_LIMIT = 250_000;

const ZERO = new Decimal(0);

/** Bounds on each amount in a search node. */
interface Node {
  hi: number[];
  lo: number[];
}

interface Relaxed {
  a: number[];
  lambda: number;
  obj: number;
}

/**
 * Float model of the problem, used only to search; every plan it proposes is re-evaluated exactly in
 * decimals before one is chosen.
 */
class Search {
  readonly n: number;
  readonly d: number[];
  readonly p: number[];
  readonly budget: number;
  /** Smallest non-zero amount per position (the minimum order, rounded up to whole units). */
  readonly minOn: number[];
  readonly eps: number;
  nodes = 0;

  constructor(readonly problem: AllocationProblem) {
    this.n = problem.prices.length;
    this.p = problem.prices.map((x) => x.toNumber());
    this.d = problem.goals.map((g, i) => g.minus(problem.current[i]!).toNumber());
    this.budget = problem.budget.toNumber();
    const min = problem.minOrder.toNumber();
    this.minOn = this.p.map((p) => (min <= 0 ? 0 : problem.wholeUnits ? Math.ceil(min / p - 1e-12) * p : min));
    const total = problem.goals.reduce((s, g) => s.plus(g.abs()), ZERO).plus(problem.budget).toNumber();
    this.eps = 1e-12 * Math.max(1, total * total);
  }

  root(): Node {
    // Amounts need no upper bound (the budget constraint holds them); units stop at what the budget buys.
    const hi = this.p.map((p) => (this.problem.wholeUnits ? Math.floor(this.budget / p + 1e-12) * p : Infinity));
    return { lo: new Array(this.n).fill(0), hi: hi.map((h, i) => (h < this.minOn[i]! - 1e-12 ? 0 : h)) };
  }

  /** Continuous minimum of the node: aᵢ = clamp(dᵢ − λ, loᵢ, hiᵢ) with the smallest λ ≥ 0 that fits the budget. */
  relax(node: Node): Relaxed | null {
    this.nodes++;
    const { d, n } = this;
    let sumLo = 0;
    for (let i = 0; i < n; i++) sumLo += node.lo[i]!;
    if (sumLo > this.budget * (1 + 1e-12) + 1e-12) return null;
    const spend = (lambda: number) => {
      let s = 0;
      for (let i = 0; i < n; i++) s += Math.min(node.hi[i]!, Math.max(node.lo[i]!, d[i]! - lambda));
      return s;
    };
    let lambda = 0;
    if (spend(0) > this.budget) {
      let low = 0;
      let high = 0;
      for (let i = 0; i < n; i++) high = Math.max(high, d[i]! - node.lo[i]!);
      for (let k = 0; k < 80 && high - low > 1e-13 * Math.max(1, high); k++) {
        const mid = (low + high) / 2;
        if (spend(mid) > this.budget) low = mid;
        else high = mid;
      }
      lambda = high;
      // exact on the segment: the free amounts share what the bounded ones leave
      let free = 0;
      let rest = this.budget;
      let freeD = 0;
      for (let i = 0; i < n; i++) {
        const x = d[i]! - lambda;
        if (x > node.lo[i]! && x < node.hi[i]!) { free++; freeD += d[i]!; }
        else rest -= Math.min(node.hi[i]!, Math.max(node.lo[i]!, x));
      }
      if (free > 0) lambda = Math.max(0, (freeD - rest) / free);
    }
    const a = new Array<number>(n);
    let obj = 0;
    for (let i = 0; i < n; i++) {
      a[i] = Math.min(node.hi[i]!, Math.max(node.lo[i]!, d[i]! - lambda));
      obj += (a[i]! - d[i]!) ** 2;
    }
    return { a, lambda, obj };
  }

  /** The variable to branch on and its two children, or null when the relaxed plan is a valid plan. */
  branch(node: Node, r: Relaxed): [Node, Node] | null {
    let pick = -1;
    let score = 0;
    let kind: "min" | "unit" = "unit";
    for (let i = 0; i < this.n; i++) {
      const a = r.a[i]!;
      const on = this.minOn[i]!;
      if (on > 0 && a > 1e-9 * Math.max(1, on) && a < on - 1e-9 * Math.max(1, on)) {
        const s = Math.min(a, on - a) + 1e12; // minimum-order violations first
        if (s > score) { score = s; pick = i; kind = "min"; }
        continue;
      }
      if (!this.problem.wholeUnits) continue;
      const x = a / this.p[i]!;
      const frac = x - Math.floor(x);
      const dist = Math.min(frac, 1 - frac);
      if (dist > 1e-9 && dist * this.p[i]! > score) { score = dist * this.p[i]!; pick = i; kind = "unit"; }
    }
    if (pick < 0) return null;
    const down: Node = { lo: [...node.lo], hi: [...node.hi] };
    const up: Node = { lo: [...node.lo], hi: [...node.hi] };
    if (kind === "min") {
      down.hi[pick] = 0;
      up.lo[pick] = this.minOn[pick]!;
    } else {
      const x = r.a[pick]! / this.p[pick]!;
      down.hi[pick] = Math.floor(x) * this.p[pick]!;
      if (down.hi[pick]! < this.minOn[pick]! - 1e-9) down.hi[pick] = 0;
      up.lo[pick] = Math.max(Math.ceil(x) * this.p[pick]!, this.minOn[pick]!);
    }
    return [down, up];
  }
}

/** Whole units per position from a float plan (rounded: the plan is integral up to float noise). */
function unitsOf(search: Search, a: number[]): number[] {
  return a.map((x, i) => Math.round(x / search.p[i]!));
}

/** A quick good plan: the relaxed plan rounded down, then one unit at a time where it helps most. */
function greedy(search: Search, root: Relaxed): number[] {
  const { p, d, minOn } = search;
  const units = root.a.map((x, i) => {
    const u = Math.floor(x / p[i]! + 1e-9);
    return u * p[i]! < minOn[i]! - 1e-9 ? 0 : u;
  });
  let left = search.budget - units.reduce((s, u, i) => s + u * p[i]!, 0);
  for (;;) {
    let best = -1;
    let gain = 0;
    let step = 0;
    for (let i = 0; i < units.length; i++) {
      const k = units[i] === 0 && minOn[i]! > 0 ? Math.round(minOn[i]! / p[i]!) : 1;
      const cost = k * p[i]!;
      if (cost > left + 1e-9) continue;
      const now = units[i]! * p[i]! - d[i]!;
      const g = now * now - (now + cost) ** 2;
      if (g > gain) { gain = g; best = i; step = k; }
    }
    if (best < 0) return units;
    units[best] = units[best]! + step;
    left -= step * p[best]!;
  }
}

/** Exact objective and cash left of a plan of amounts, in decimals. */
function evaluate(problem: AllocationProblem, amounts: Decimal[]): { cashLeft: Decimal; objective: Decimal } {
  let objective = ZERO;
  let spent = ZERO;
  amounts.forEach((a, i) => {
    const gap = problem.current[i]!.plus(a).minus(problem.goals[i]!);
    objective = objective.plus(gap.times(gap));
    spent = spent.plus(a);
  });
  return { cashLeft: problem.budget.minus(spent), objective };
}

function feasible(problem: AllocationProblem, amounts: Decimal[]): boolean {
  const spent = amounts.reduce((s, a) => s.plus(a), ZERO);
  if (spent.gt(problem.budget)) return false;
  return amounts.every((a) => a.gte(0) && (a.isZero() || a.gte(problem.minOrder)));
}

/** Amounts of a whole-unit plan. */
function fromUnits(problem: AllocationProblem, units: number[]): Allocation {
  const quantities = units.map((u) => new Decimal(u));
  return { amounts: quantities.map((q, i) => q.times(problem.prices[i]!)), quantities };
}

/**
 * Amounts of a continuous plan, recomputed exactly: positions at zero or at the minimum stay there,
 * the others get dᵢ − λ with λ solved in decimals, then amounts are rounded down to cents and the
 * cents left over go to the largest remainders (one each at most) while the budget allows.
 */
function fromAmounts(problem: AllocationProblem, search: Search, a: number[], lambdaPositive: boolean): Allocation {
  const min = problem.minOrder.toDecimalPlaces(AMOUNT_DECIMALS, Decimal.ROUND_UP);
  const d = problem.goals.map((g, i) => g.minus(problem.current[i]!));
  const tol = (x: number) => 1e-9 * Math.max(1, Math.abs(x));
  const state = a.map((x, i) => (Math.abs(x) <= tol(x) ? "zero" : search.minOn[i]! > 0 && Math.abs(x - search.minOn[i]!) <= tol(x) ? "min" : "free"));
  const free = state.flatMap((s, i) => (s === "free" ? [i] : []));
  let lambda = ZERO;
  if (lambdaPositive && free.length) {
    const fixed = state.reduce((s, st) => (st === "min" ? s.plus(min) : s), ZERO);
    lambda = free.reduce((s, i) => s.plus(d[i]!), ZERO).plus(fixed).minus(problem.budget).div(free.length);
    if (lambda.lt(0)) lambda = ZERO;
  }
  const exact = state.map((s, i) => (s === "zero" ? ZERO : s === "min" ? min : Decimal.max(min, d[i]!.minus(lambda))));
  const amounts = exact.map((x) => x.toDecimalPlaces(AMOUNT_DECIMALS, Decimal.ROUND_DOWN));
  {
    const cent = new Decimal(1).div(10 ** AMOUNT_DECIMALS);
    let left = problem.budget.minus(amounts.reduce((s, x) => s.plus(x), ZERO)).toDecimalPlaces(AMOUNT_DECIMALS, Decimal.ROUND_DOWN);
    const order = free.slice().sort((i, j) => exact[j]!.minus(amounts[j]!).comparedTo(exact[i]!.minus(amounts[i]!)) || i - j);
    for (const i of order) {
      if (left.lt(cent)) break;
      if (exact[i]!.minus(amounts[i]!).isZero()) continue;
      amounts[i] = amounts[i]!.plus(cent);
      left = left.minus(cent);
    }
  }
  const quantities = amounts.map((x, i) => x.div(problem.prices[i]!).toDecimalPlaces(QUANTITY_DECIMALS, Decimal.ROUND_DOWN));
  return { amounts, quantities };
}

/**
 * Solves the allocation exactly: a depth-first branch and bound whose bound is the continuous
 * minimum of each node (closed form), so no plan better than the one returned exists. Plans within
 * float noise of the best are all kept and compared exactly in decimals; ties go to less cash left,
 * then to the earlier positions. Throws PluginError `timeout` (execution_limit) past NODE_LIMIT nodes.
 */
export function allocate(problem: AllocationProblem): Allocation {
  const n = problem.prices.length;
  if (n === 0 || problem.budget.lte(0)) {
    return { amounts: problem.prices.map(() => ZERO), quantities: problem.prices.map(() => ZERO) };
  }
  const search = new Search(problem);
  const rootNode = search.root();
  const root = search.relax(rootNode)!;
  const candidates: { a: number[]; obj: number; lambdaPositive: boolean }[] = [];
  let best = Infinity;
  const consider = (a: number[], obj: number, lambdaPositive: boolean) => {
    if (obj > best + search.eps) return;
    if (obj < best) best = obj;
    candidates.push({ a, obj, lambdaPositive });
  };
  if (problem.wholeUnits) {
    const units = greedy(search, root);
    const a = units.map((u, i) => u * search.p[i]!);
    consider(a, a.reduce((s, x, i) => s + (x - search.d[i]!) ** 2, 0), false);
  }
  const stack: { node: Node; r: Relaxed }[] = [{ node: rootNode, r: root }];
  while (stack.length) {
    const { node, r } = stack.pop()!;
    if (r.obj > best + search.eps) continue;
    const children = search.branch(node, r);
    if (!children) {
      consider(r.a, r.obj, r.lambda > 0);
      continue;
    }
    if (search.nodes > NODE_LIMIT) {
      throw new PluginError("timeout", `no proven best plan within ${NODE_LIMIT} search nodes`);
    }
    const relaxed = children.map((c) => ({ node: c, r: search.relax(c) })).filter((c): c is { node: Node; r: Relaxed } => c.r !== null);
    relaxed.sort((x, y) => y.r.obj - x.r.obj); // the more promising child is explored first
    for (const c of relaxed) if (c.r.obj <= best + search.eps) stack.push(c);
  }
  let chosen: { allocation: Allocation; cashLeft: Decimal; objective: Decimal } | null = null;
  for (const c of candidates) {
    if (c.obj > best + search.eps) continue;
    const allocation = problem.wholeUnits ? fromUnits(problem, unitsOf(search, c.a)) : fromAmounts(problem, search, c.a, c.lambdaPositive);
    if (!feasible(problem, allocation.amounts)) continue;
    const { cashLeft, objective } = evaluate(problem, allocation.amounts);
    if (!chosen || objective.lt(chosen.objective) || (objective.eq(chosen.objective) && cashLeft.lt(chosen.cashLeft))) {
      chosen = { allocation, cashLeft, objective };
    }
  }
  if (!chosen) {
    // Only float noise at the budget's edge can get here: spending nothing is always allowed.
    return { amounts: problem.prices.map(() => ZERO), quantities: problem.prices.map(() => ZERO) };
  }
  return chosen.allocation;
}
