import type { SqlReader } from "../db/sql-reader.ts";
import { daysBetween, eachDay } from "../dates/calendar.ts";
import { Decimal, toDecimalString } from "../money/decimal.ts";
import { type BackwardFillInfo, type ConvertLeg, convertAlong, orientSteps, type RateSeries } from "./convert.calc.ts";
import type { ChainStep } from "./fx-route.entity.ts";
import { normalisePair } from "./pair.ts";
import { MANUAL_PROVIDER, PRIVATE_PROVIDER } from "./route-search.calc.ts";

/**
 * FX conversion over stored rates (`POST /fx/currencies/convert`), on plain SQL reads and without
 * TypeORM, so the worker pool runs it on its own connection (host/api/fx/fx-convert.task.ts) and
 * the request thread (FxConvertService) on its own.
 */

/** Longest range one conversion item may expand to (days). */
export const MAX_CONVERT_DAYS = 36_600;

export interface ConvertInput {
  amount: string;
  end?: string;
  from: string;
  start: string;
  to: string;
}

export interface ConvertResult {
  backwardFill?: BackwardFillInfo;
  /** The day was converted with the caller's private rates (no shared route had a rate). */
  privateRate?: true;
  conversionDate: string;
  from: { amount: string; code: string };
  rate: string;
  to: { amount: string; code: string };
}

export interface ConvertOutput {
  errors: string[];
  results: ConvertResult[];
}

/** One stored rate row (`1 base = rate quote`). */
export interface RateRow {
  date: string;
  rate: string;
}

/**
 * The configured chains of the pair `from`/`to` by priority, each oriented from `from`; a pair
 * without configured routes converts through its manual rates. With `user`, that user's private
 * rates of the pair come last, when they have any (docs/fx.md "Private manual rates"). Null when
 * the two codes are not a pair (malformed or equal). Codes are expected upper-case.
 */
export async function pairChains(reads: SqlReader, from: string, to: string, user: number | null = null): Promise<ChainStep[][] | null> {
  const pair = normalisePair(from, to);
  if (!pair) return null;
  const routes = await reads.all<{ chain_steps: string }>(
    `SELECT "chain_steps" FROM "fx_routes" WHERE "base" = ? AND "quote" = ? ORDER BY "priority", "id"`, [pair.base, pair.quote]);
  const chains = routes.map((r) => JSON.parse(r.chain_steps) as ChainStep[]);
  if (chains.length === 0) chains.push([{ from: pair.base, provider: MANUAL_PROVIDER, to: pair.quote }]);
  if (user !== null && await hasPrivateRates(reads, user, pair.base, pair.quote)) chains.push([{ from: pair.base, provider: PRIVATE_PROVIDER, to: pair.quote }]);
  return chains.map((c) => orientSteps(c, from, pair.base));
}

/** Whether `user` keeps private rates of the alphabetical pair. */
export async function hasPrivateRates(reads: SqlReader, user: number, base: string, quote: string): Promise<boolean> {
  const rows = await reads.all(`SELECT 1 FROM fx_private_rates WHERE user_id = ? AND base = ? AND quote = ? LIMIT 1`, [user, base, quote]);
  return rows.length > 0;
}

/**
 * A loader of the stored series of a step's alphabetical pair under its provider, up to `end`
 * (oldest first), each read once per loader and shaped by `build`. A {@link PRIVATE_PROVIDER}
 * step reads `user`'s private rates (none without a user).
 */
export function rateSeriesLoader<S>(reads: SqlReader, build: (rows: RateRow[]) => S, user: number | null = null): (step: ChainStep, end: string) => Promise<S> {
  const memo = new Map<string, Promise<S>>();
  return (step, end) => {
    const [base, quote] = step.from < step.to ? [step.from, step.to] : [step.to, step.from];
    const key = `${base}|${quote}|${step.provider}|${end}`;
    let s = memo.get(key);
    if (!s) {
      const rows = step.provider !== PRIVATE_PROVIDER
        ? reads.all<RateRow>(
          `SELECT date, rate FROM fx_rates WHERE base = ? AND quote = ? AND provider = ? AND date <= ? ORDER BY date`,
          [base, quote, step.provider, end],
        )
        : user === null ? Promise.resolve([])
          : reads.all<RateRow>(
            `SELECT date, rate FROM fx_private_rates WHERE user_id = ? AND base = ? AND quote = ? AND date <= ? ORDER BY date`,
            [user, base, quote, end],
          );
      s = rows.then(build);
      memo.set(key, s);
    }
    return s;
  };
}

const toRateSeries = (rows: RateRow[]): RateSeries => ({ dates: rows.map((r) => r.date), rates: rows.map((r) => new Decimal(r.rate)) });

/** Days `convertEach` expands an item to (the inclusive range; 0 when `end` is before `start`). */
export function convertDays(item: { end?: string; start: string }): number {
  return Math.max(0, daysBetween(item.start, item.end ?? item.start) + 1);
}

/**
 * Each item converted on each day of its range, through the pair's routes by priority, then `user`'s
 * private rates (null: shared data only; days they convert carry `privateRate`): per item its
 * results and its error lines (range refused, not a pair, days no route could convert).
 */
export async function convertEach(reads: SqlReader, items: readonly ConvertInput[], user: number | null = null): Promise<ConvertOutput[]> {
  const series = rateSeriesLoader(reads, toRateSeries, user);
  const out: ConvertOutput[] = [];
  for (const item of items) {
    const results: ConvertResult[] = [];
    const errors: string[] = [];
    out.push({ errors, results });
    const from = item.from.trim().toUpperCase();
    const to = item.to.trim().toUpperCase();
    const end = item.end ?? item.start;
    const label = `${from}->${to}`;
    if (end < item.start) { errors.push(`${label}: date_range end is before start`); continue; }
    if (convertDays(item) > MAX_CONVERT_DAYS) { errors.push(`${label}: date_range longer than ${MAX_CONVERT_DAYS} days`); continue; }
    const days = eachDay(item.start, end);
    const amount = new Decimal(item.amount);
    const source = { amount: item.amount, code: from };
    if (from === to) {
      for (const day of days) results.push({ conversionDate: day, from: source, rate: "1", to: { amount: toDecimalString(amount), code: to } });
      continue;
    }
    const chains = await pairChains(reads, from, to, user);
    if (!chains) { errors.push(`${label}: not a currency pair`); continue; }
    const routeLegs: ConvertLeg[][] = [];
    for (const chain of chains) {
      routeLegs.push(await Promise.all(chain.map(async (s) => ({ from: s.from, series: await series(s, end), to: s.to }))));
    }
    const privateRoute = chains.findIndex((c) => c[0]!.provider === PRIVATE_PROVIDER);
    const missing: string[] = [];
    for (const day of days) {
      let done = false;
      for (const [index, legs] of routeLegs.entries()) {
        const c = convertAlong(amount, legs, day);
        if (!c) continue;
        const r: ConvertResult = {
          conversionDate: day, from: source, rate: toDecimalString(c.rate), to: { amount: toDecimalString(c.amount), code: to },
        };
        if (c.backwardFill) r.backwardFill = c.backwardFill;
        if (index === privateRoute) r.privateRate = true;
        results.push(r);
        done = true;
        break;
      }
      if (!done) missing.push(day);
    }
    if (missing.length > 0) {
      const span = missing.length === 1 ? missing[0] : `${missing[0]}..${missing.at(-1)}`;
      errors.push(`${label}: no rate on or before ${span} (${missing.length} day${missing.length === 1 ? "" : "s"})`);
    }
  }
  return out;
}

/**
 * The items' results and errors, flattened in request order, with `user`'s private rates after the
 * shared routes (see {@link convertEach}); `failed` when items were given and every conversion failed.
 */
export async function convertAll(reads: SqlReader, items: readonly ConvertInput[], user: number | null = null): Promise<ConvertOutput & { failed: boolean }> {
  const each = await convertEach(reads, items, user);
  const results = each.flatMap((e) => e.results);
  return { errors: each.flatMap((e) => e.errors), results, failed: items.length > 0 && results.length === 0 };
}
