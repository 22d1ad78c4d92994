import {
  type AssetEvent,
  type AssetEventType,
  Decimal,
  type DecimalString,
  type IsoDate,
  type IsoDateRange,
  type ScheduledPrice,
  toDecimalString,
} from "../../sdk/index.ts";
import { accrue, addMonths, type DayCount, dayNumber, isoDay, yearFractionOfDays } from "./day-count.calc.ts";
import type { MaturationFrequency, ScheduledInvestmentParams, ScheduleEvent } from "./params.ts";

// How a schedule becomes values and events:
// - Accrual: day d earns the step from d-1 to d at the rate of the period holding d; the first
//   start_date earns nothing (its value is initial_value). Contiguous periods (next start_date =
//   previous end_date + 1) lose and double no day; days in a gap between periods earn nothing.
//   Year fractions run from the last maturation date to d (not summed day by day), so 30/360 and
//   ACT/ACT count as defined, and are divided once (exact for ACT/365 amounts such as 10.00).
// - price(d) = initial_value + capitalised + accrued + adjustment: `accrued` runs since the last
//   maturation date, `capitalised` holds earlier cycles' interest not paid out, `adjustment` sums
//   listed PRICE_ADJUSTMENT minus listed INTEREST since the last payout.
// - Payout (generate_interest): at a maturation date, an INTEREST event of capitalised + accrued +
//   adjustment rounded to 2 decimals half to even, when positive; then all three reset to 0, so
//   the value drops by the event and is initial_value again (the sub-cent rest is dropped). Not
//   positive: no event and no reset. Without payout the cycle's interest moves to `capitalised`.
// - COMPOUND: interest accrues on initial_value + capitalised, i.e. interest not paid out
//   capitalises at each maturation date; with payouts nothing is left to capitalise and COMPOUND
//   equals SIMPLE. Adjustments never earn interest. SIMPLE: always on initial_value.
// - Settlement: value of that day after its events, rounded like an event; every later day has it
//   and nothing more is generated. A listed MATURITY_SETTLEMENT settles the same way with its value.
// - A listed INTEREST lowers the value by its amount (no reset). A listed and a generated event of
//   one date and type become one event with their sum. Listed DIVIDENDs leave the value alone.

const MONTHS: Readonly<Record<Exclude<MaturationFrequency, "DAILY" | "WEEKLY">, number>> = {
  ANNUAL: 12,
  MONTHLY: 1,
  QUARTERLY: 3,
  SEMIANNUAL: 6,
};

/** The k-th maturation step (k >= 1) after `anchor`; months are month-end aware (see addMonths). */
function stepFrom(anchor: IsoDate, frequency: MaturationFrequency, k: number): IsoDate {
  if (frequency === "DAILY") return isoDay(dayNumber(anchor) + k);
  if (frequency === "WEEKLY") return isoDay(dayNumber(anchor) + 7 * k);
  return addMonths(anchor, MONTHS[frequency] * k);
}

/**
 * Maturation dates of a run anchored at `anchor`: `anchor + k × frequency` (k = 1, 2, ...) strictly
 * before `end`, then `end` itself (so a last, shorter cycle closes at `end`). Without a frequency,
 * only `end`; with `end` null (open-ended), the steps go on. Dates after `horizon` are left out.
 * Example: 2024-01-31 to 2024-05-15 MONTHLY gives 2024-02-29, 03-31, 04-30, 05-15.
 */
export function maturationDates(
  anchor: IsoDate,
  end: IsoDate | null,
  frequency: MaturationFrequency | undefined,
  horizon: IsoDate,
): IsoDate[] {
  const dates: IsoDate[] = [];
  for (let k = 1; frequency !== undefined; k += 1) {
    const date = stepFrom(anchor, frequency, k);
    if ((end !== null && date >= end) || date > horizon) break;
    dates.push(date);
  }
  if (end !== null && end <= horizon) dates.push(end);
  return dates;
}

/** Accrual at `rate` over the days after `from` up to `to` (day numbers; `to` may be Infinity). */
interface RateSegment {
  readonly from: number;
  readonly rate: Decimal;
  readonly to: number;
}

interface Plan {
  readonly compound: boolean;
  readonly currency: AssetEvent["currency"];
  readonly dayCount: DayCount;
  readonly events: ReadonlyMap<number, readonly ScheduleEvent[]>;
  readonly initial: Decimal;
  /** Maturation days, each with whether it pays the interest out (generate_interest). */
  readonly maturities: ReadonlyMap<number, boolean>;
  /** After this day nothing changes any more (no accrual, maturation or listed event). */
  readonly quietAfter: number;
  readonly segments: readonly RateSegment[];
  readonly settlementDay: number | null;
  readonly start: number;
}

function addMaturities(into: Map<number, boolean>, dates: readonly IsoDate[], generate: boolean): void {
  for (const date of dates) into.set(dayNumber(date), generate);
}

/** Segments and maturities after the last period: grace at the last rate, then the late rate. */
function latePhase(params: ScheduledInvestmentParams, horizon: IsoDate, maturities: Map<number, boolean>): RateSegment[] {
  const late = params.late_interest;
  const last = params.schedule[params.schedule.length - 1]!;
  if (!late) return [];
  const lastEnd = dayNumber(last.end_date);
  const lateEnd = late.end_date === undefined ? Infinity : dayNumber(late.end_date);
  const graceEnd = Math.min(lastEnd + late.grace_days, lateEnd);
  addMaturities(maturities, maturationDates(last.end_date, late.end_date ?? null, late.maturation_frequency, horizon), lateGenerates(params));
  return [
    { from: lastEnd, rate: new Decimal(last.annual_rate), to: graceEnd },
    { from: graceEnd, rate: new Decimal(late.annual_rate), to: lateEnd },
  ].filter((segment) => segment.from < segment.to);
}

function lateGenerates(params: ScheduledInvestmentParams): boolean {
  return params.late_interest?.generate_interest ?? params.schedule[params.schedule.length - 1]!.generate_interest;
}

/** The day of the generated MATURITY_SETTLEMENT (see "Settlement" above), or null when the schedule never settles itself. */
function settlementDay(params: ScheduledInvestmentParams): number | null {
  const last = params.schedule[params.schedule.length - 1]!;
  const late = params.late_interest;
  if (!late) return last.generate_interest ? dayNumber(last.end_date) : null;
  return late.end_date !== undefined && lateGenerates(params) ? dayNumber(late.end_date) : null;
}

function buildPlan(params: ScheduledInvestmentParams, horizon: IsoDate): Plan {
  const maturities = new Map<number, boolean>();
  const segments = params.schedule.map((period, i): RateSegment => {
    addMaturities(maturities, maturationDates(period.start_date, period.end_date, period.maturation_frequency, horizon), period.generate_interest);
    return { from: dayNumber(period.start_date) - (i === 0 ? 0 : 1), rate: new Decimal(period.annual_rate), to: dayNumber(period.end_date) };
  });
  segments.push(...latePhase(params, horizon, maturities));
  const events = new Map<number, ScheduleEvent[]>();
  for (const event of params.asset_events) events.set(dayNumber(event.date), [...(events.get(dayNumber(event.date)) ?? []), event]);
  return {
    compound: params.interest_type === "COMPOUND",
    currency: params.initial_value.code,
    dayCount: params.day_count,
    events,
    initial: new Decimal(params.initial_value.amount),
    maturities,
    quietAfter: [...segments.map((segment) => segment.to), ...maturities.keys(), ...events.keys()].reduce((a, b) => Math.max(a, b)),
    segments,
    settlementDay: settlementDay(params),
    start: dayNumber(params.schedule[0]!.start_date),
  };
}

interface State {
  adjustment: Decimal;
  capitalised: Decimal;
  cycleStart: number;
  settled: Decimal | null;
}

/** Interest accrued from the current cycle's start to `day`, on `base`, segment by segment. */
function accruedOn(plan: Plan, state: State, day: number, base: Decimal): Decimal {
  let total = new Decimal(0);
  for (const segment of plan.segments) {
    const from = Math.max(segment.from, state.cycleStart);
    const to = Math.min(segment.to, day);
    if (from < to) total = total.plus(accrue(base, segment.rate, yearFractionOfDays(from, to, plan.dayCount)));
  }
  return total;
}

const round2 = (value: Decimal) => value.toDecimalPlaces(2);

/** Money and prices are written with at least 2 decimals ("10010.00"); prices keep every digit they have. */
export function amountText(value: Decimal): DecimalString {
  if (value.isZero()) return "0.00" as DecimalString;
  return value.decimalPlaces() < 2 ? (value.toFixed(2) as DecimalString) : toDecimalString(value);
}

/** A maturation date closes the cycle: pay out (see "Payout" above: an INTEREST event, then reset) or carry the accrued interest on. */
function mature(plan: Plan, state: State, day: number, accrued: Decimal, generate: boolean, out: AssetEvent[]): void {
  const payout = round2(state.capitalised.plus(accrued).plus(state.adjustment));
  if (generate && payout.greaterThan(0)) {
    out.push({ currency: plan.currency, date: isoDay(day), type: "INTEREST", value: amountText(payout) });
    state.capitalised = new Decimal(0);
    state.adjustment = new Decimal(0);
  } else {
    state.capitalised = state.capitalised.plus(accrued);
  }
  state.cycleStart = day;
}

/** One day of the walk: accrue, apply the listed events, mature, settle. Returns the day's value. */
function stepDay(plan: Plan, state: State, day: number, out: AssetEvent[]): Decimal {
  const base = plan.compound ? plan.initial.plus(state.capitalised) : plan.initial;
  let accrued = accruedOn(plan, state, day, base);
  let settlement: Decimal | null = null;
  for (const event of plan.events.get(day) ?? []) {
    const amount = new Decimal(event.value.amount);
    if (event.type === "PRICE_ADJUSTMENT") state.adjustment = state.adjustment.plus(amount);
    if (event.type === "INTEREST") state.adjustment = state.adjustment.minus(amount);
    if (event.type === "MATURITY_SETTLEMENT") settlement = amount;
  }
  const generate = plan.maturities.get(day);
  if (generate !== undefined) {
    mature(plan, state, day, accrued, generate, out);
    accrued = new Decimal(0);
  }
  const value = plan.initial.plus(state.capitalised).plus(accrued).plus(state.adjustment);
  if (settlement !== null) {
    state.settled = settlement;
  } else if (day === plan.settlementDay) {
    state.settled = round2(value);
    out.push({ currency: plan.currency, date: isoDay(day), type: "MATURITY_SETTLEMENT", value: amountText(state.settled) });
  }
  return state.settled ?? value;
}

interface Walk {
  readonly events: readonly AssetEvent[];
  readonly prices: readonly ScheduledPrice[];
}

/**
 * Walks the schedule from its first start_date to `range.to`, day by day, and returns the value of
 * every day of the range from the first start_date on, and the generated events up to `range.to`.
 * Once settled, or once nothing can change any more, the last value repeats for all later days.
 */
function walk(params: ScheduledInvestmentParams, range: IsoDateRange): Walk {
  const plan = buildPlan(params, range.to);
  const state: State = { adjustment: new Decimal(0), capitalised: new Decimal(0), cycleStart: plan.start, settled: null };
  const events: AssetEvent[] = [];
  const prices: ScheduledPrice[] = [];
  const [from, to] = [dayNumber(range.from), dayNumber(range.to)];
  let value = plan.initial;
  for (let day = plan.start; day <= to; day += 1) {
    if (state.settled === null && day <= plan.quietAfter) value = stepDay(plan, state, day, events);
    if (day >= from) prices.push({ date: isoDay(day), value: amountText(value) });
  }
  return { events, prices };
}

const TYPE_ORDER: Readonly<Record<AssetEventType, number>> = {
  DIVIDEND: 0,
  INTEREST: 2,
  MATURITY_SETTLEMENT: 3,
  PRICE_ADJUSTMENT: 1,
  SPLIT: 4,
};

/** Listed and generated events in one list, one per (date, type): the host stores provider events keyed so, and one of a key would replace the other. */
function mergeEvents(listed: readonly AssetEvent[], generated: readonly AssetEvent[]): AssetEvent[] {
  const byKey = new Map<string, AssetEvent>();
  for (const event of [...listed, ...generated]) {
    const key = `${event.date} ${event.type}`;
    const twin = byKey.get(key);
    byKey.set(key, twin ? { ...twin, value: amountText(new Decimal(twin.value).plus(event.value)) } : event);
  }
  return [...byKey.values()].sort((a, b) => a.date.localeCompare(b.date) || TYPE_ORDER[a.type] - TYPE_ORDER[b.type]);
}

/** Values of every day of `range` from the schedule's first start_date on, oldest first. */
export function generatePrices(params: ScheduledInvestmentParams, range: IsoDateRange): ScheduledPrice[] {
  return [...walk(params, range).prices];
}

/** Listed (`asset_events`) and generated events dated within `range`, oldest first. */
export function generateEvents(params: ScheduledInvestmentParams, range: IsoDateRange): AssetEvent[] {
  const inRange = (event: { date: string }) => event.date >= range.from && event.date <= range.to;
  const listed = params.asset_events.filter(inRange).map(
    (event): AssetEvent => ({ currency: params.initial_value.code, date: event.date, type: event.type, value: event.value.amount }),
  );
  return mergeEvents(listed, walk(params, range).events.filter(inRange));
}
