import { Decimal } from "../money/decimal.ts";

/** One dated cash flow: negative is money in (invested), positive is money out (returned). */
export interface CashFlow {
  amount: string;
  date: string;
}

export interface XirrResult {
  /** Annualised rate as a decimal string (0.1 = 10 %), or null when there is no solution. */
  rate: string | null;
  iterations: number;
}

const DAY_MS = 86_400_000;
const TOLERANCE = new Decimal("1e-12");
const MAX_ITERATIONS = 200;

function years(from: string, to: string): Decimal {
  return new Decimal(Date.parse(to) - Date.parse(from)).div(DAY_MS).div(365);
}

/** Net present value of the flows at `rate` and its derivative, both discounted to the first date. */
function npv(flows: { amount: Decimal; t: Decimal }[], rate: Decimal): [Decimal, Decimal] {
  const base = rate.plus(1);
  let value = new Decimal(0);
  let slope = new Decimal(0);
  for (const { amount, t } of flows) {
    const discount = base.pow(t.neg());
    value = value.plus(amount.times(discount));
    slope = slope.minus(amount.times(t).times(discount).div(base));
  }
  return [value, slope];
}

/**
 * Money-weighted annual return (XIRR, ACT/365) of dated cash flows, in exact decimal arithmetic:
 * Newton's method from `guess`, falling back to bisection over (-0.9999, 100) when Newton leaves
 * the domain. Needs at least one inflow and one outflow; otherwise the rate is null.
 */
export function xirr(cashFlows: CashFlow[], guess = "0.1"): XirrResult {
  const sorted = [...cashFlows].sort((a, b) => a.date.localeCompare(b.date));
  if (sorted.length < 2) return { rate: null, iterations: 0 };
  const flows = sorted.map((f) => ({ amount: new Decimal(f.amount), t: years(sorted[0]!.date, f.date) }));
  if (!flows.some((f) => f.amount.isNeg()) || !flows.some((f) => f.amount.isPos())) return { rate: null, iterations: 0 };

  let rate = new Decimal(guess);
  for (let i = 1; i <= MAX_ITERATIONS; i++) {
    const [value, slope] = npv(flows, rate);
    if (value.abs().lt(TOLERANCE)) return { rate: rate.toFixed(12), iterations: i };
    if (slope.isZero()) break;
    const next = rate.minus(value.div(slope));
    if (!next.isFinite() || next.lte(-1)) break;
    if (next.minus(rate).abs().lt(TOLERANCE)) return { rate: next.toFixed(12), iterations: i };
    rate = next;
  }
  return bisect(flows);
}

function bisect(flows: { amount: Decimal; t: Decimal }[]): XirrResult {
  let lo = new Decimal("-0.9999");
  let hi = new Decimal(100);
  let fLo = npv(flows, lo)[0];
  if (fLo.times(npv(flows, hi)[0]).isPos()) return { rate: null, iterations: 0 };
  for (let i = 1; i <= MAX_ITERATIONS; i++) {
    const mid = lo.plus(hi).div(2);
    const fMid = npv(flows, mid)[0];
    if (fMid.abs().lt(TOLERANCE) || hi.minus(lo).lt(TOLERANCE)) return { rate: mid.toFixed(12), iterations: i };
    if (fMid.times(fLo).isNeg()) hi = mid;
    else { lo = mid; fLo = fMid; }
  }
  return { rate: null, iterations: MAX_ITERATIONS };
}
