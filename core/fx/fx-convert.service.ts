import { inject, injectable } from "tsyringe";
import type { EntityManager } from "typeorm";
import { NotFoundError } from "../errors/domain-error.ts";
import { Database } from "../db/database.ts";
import { Decimal, toDecimalString } from "../money/decimal.ts";
import { eachDay } from "../dates/calendar.ts";
import { type BackwardFillInfo, type ConvertLeg, convertAlong, orientSteps, type RateSeries } from "./convert.calc.ts";
import { type ChainStep, FxRoute } from "./fx-route.entity.ts";
import { normalisePair } from "./pair.ts";
import { MANUAL_PROVIDER } from "./route-search.calc.ts";

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
 * without configured routes converts through its manual rates. Null when the two codes are not
 * a pair (malformed or equal). Codes are expected upper-case.
 */
export async function pairChains(reads: EntityManager, from: string, to: string): Promise<ChainStep[][] | null> {
  const pair = normalisePair(from, to);
  if (!pair) return null;
  const routes = await reads.find(FxRoute, { order: { priority: "ASC" }, where: { base: pair.base, quote: pair.quote } });
  const chains = routes.map((r) => JSON.parse(r.chainSteps) as ChainStep[]);
  if (chains.length === 0) chains.push([{ from: pair.base, provider: MANUAL_PROVIDER, to: pair.quote }]);
  return chains.map((c) => orientSteps(c, from, pair.base));
}

/**
 * A loader of the stored series of a step's alphabetical pair under its provider, up to `end`
 * (oldest first), each read once per loader and shaped by `build`.
 */
export function rateSeriesLoader<S>(reads: EntityManager, build: (rows: RateRow[]) => S): (step: ChainStep, end: string) => Promise<S> {
  const memo = new Map<string, Promise<S>>();
  return (step, end) => {
    const [base, quote] = step.from < step.to ? [step.from, step.to] : [step.to, step.from];
    const key = `${base}|${quote}|${step.provider}|${end}`;
    let s = memo.get(key);
    if (!s) {
      s = (reads.query(
        `SELECT date, rate FROM fx_rates WHERE base = ? AND quote = ? AND provider = ? AND date <= ? ORDER BY date`,
        [base, quote, step.provider, end],
      ) as Promise<RateRow[]>).then(build);
      memo.set(key, s);
    }
    return s;
  };
}

const toRateSeries = (rows: RateRow[]): RateSeries => ({ dates: rows.map((r) => r.date), rates: rows.map((r) => new Decimal(r.rate)) });

/** `POST /fx/currencies/convert`: each day of each item's range, through the pair's routes by priority. */
@injectable()
export class FxConvertService {
  constructor(@inject(Database) private readonly db: Database) {}

  /** Throws NotFoundError when items were given and every conversion failed. */
  async convert(items: readonly ConvertInput[]): Promise<ConvertOutput> {
    const series = rateSeriesLoader(this.db.reads, toRateSeries);
    const results: ConvertResult[] = [];
    const errors: string[] = [];
    for (const item of items) {
      const from = item.from.trim().toUpperCase();
      const to = item.to.trim().toUpperCase();
      const end = item.end ?? item.start;
      const label = `${from}->${to}`;
      if (end < item.start) { errors.push(`${label}: date_range end is before start`); continue; }
      const days = eachDay(item.start, end);
      if (days.length > MAX_CONVERT_DAYS) { errors.push(`${label}: date_range longer than ${MAX_CONVERT_DAYS} days`); continue; }
      const amount = new Decimal(item.amount);
      const source = { amount: item.amount, code: from };
      if (from === to) {
        for (const day of days) results.push({ conversionDate: day, from: source, rate: "1", to: { amount: toDecimalString(amount), code: to } });
        continue;
      }
      const chains = await pairChains(this.db.reads, from, to);
      if (!chains) { errors.push(`${label}: not a currency pair`); continue; }
      const routeLegs: ConvertLeg[][] = [];
      for (const chain of chains) {
        routeLegs.push(await Promise.all(chain.map(async (s) => ({ from: s.from, series: await series(s, end), to: s.to }))));
      }
      const missing: string[] = [];
      for (const day of days) {
        let done = false;
        for (const legs of routeLegs) {
          const c = convertAlong(amount, legs, day);
          if (!c) continue;
          const r: ConvertResult = {
            conversionDate: day, from: source, rate: toDecimalString(c.rate), to: { amount: toDecimalString(c.amount), code: to },
          };
          if (c.backwardFill) r.backwardFill = c.backwardFill;
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
    if (items.length > 0 && results.length === 0) {
      throw new NotFoundError("FX_RATE_NOT_FOUND", "No conversion could be made", { errors });
    }
    return { errors, results };
  }
}
