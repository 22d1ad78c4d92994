/**
 * Converts amounts into the report's target currency day by day, through each pair's configured
 * routes by priority (unlimited backward fill) or, for a pair without routes, its manual rates,
 * then the requesting user's private rates (docs/fx.md "Private manual rates"); remembers every
 * conversion that could not be made (MISSING_FX_MARKET, MISSING_FX_RATES) and the pairs whose private rates
 * made one.
 */
import { type ConvertLeg, convertAlong, orientSteps, type RateSeries } from "../fx/convert.calc.ts";
import { normalisePair } from "../fx/pair.ts";
import { MANUAL_PROVIDER, PRIVATE_PROVIDER } from "../fx/route-search.calc.ts";
import { dayText } from "../dates/calendar.ts";
import { Decimal } from "../money/decimal.ts";
import { columnOfTexts, type DayColumn, EMPTY_COLUMN, valueText } from "./day-columns.ts";
import { fxSeriesKey, type FxPairConfig, type RateSeriesInput } from "./report-input.ts";

/** How a pair is configured: not at all, through a real provider somewhere, or by manual rates only. */
export type PairKind = "none" | "provider" | "manual";

export interface MissingConversion {
  from: string;
  to: string;
  /** Alphabetical slug `BASE-QUOTE`. */
  slug: string;
  kind: PairKind;
  dates: Set<string>;
}

interface CurrencyRoutes {
  kind: PairKind;
  routes: ConvertLeg[][];
  memo: Map<string, Decimal | null>;
  /** Index in `routes` of the private rates' route (-1: none), and the days it converted. */
  privateRoute: number;
  privateDays: Set<string>;
}

export class FxTable {
  private readonly byCurrency = new Map<string, CurrencyRoutes>();
  private readonly missingByCurrency = new Map<string, MissingConversion>();
  private readonly privateUsed = new Set<string>();
  private readonly parsed = new Map<string, RateSeries>();

  /**
   * `reuse`: a table over series whose entries dated before `before` are these (an incremental
   * report): its parsed rates before that date are taken over, not parsed again.
   */
  constructor(
    readonly target: string, pairs: readonly FxPairConfig[], private readonly series: Record<string, DayColumn | RateSeriesInput>,
    reuse?: { table: FxTable; before: string },
  ) {
    for (const p of pairs) {
      const from = p.base === target ? p.quote : p.base;
      const chains = p.routes.length > 0 ? [...p.routes] : [[{ from: p.base, provider: MANUAL_PROVIDER, to: p.quote }]];
      if (p.privateRates) chains.push([{ from: p.base, provider: PRIVATE_PROVIDER, to: p.quote }]);
      const routes = chains.map((chain) => orientSteps(chain, from, p.base).map((s) => ({ from: s.from, to: s.to, series: this.seriesOf(s.from, s.to, s.provider, reuse) })));
      const privateRoute = p.privateRates ? routes.length - 1 : -1;
      // The kind says what fills the gaps: a sync (some shared route has a provider), or manual rates
      // (shared ones an administrator keeps, or the user's own private ones).
      let kind: PairKind;
      if (p.routes.length > 0) kind = p.routes.some((c) => c.some((s) => s.provider !== MANUAL_PROVIDER)) ? "provider" : "manual";
      else kind = routes.some((legs) => legs[0]!.series.dates.length > 0) ? "manual" : "none";
      this.byCurrency.set(from, { kind, routes: kind === "none" ? [] : routes, memo: new Map(), privateRoute, privateDays: new Set() });
    }
  }

  private seriesOf(a: string, b: string, provider: string, reuse: { table: FxTable; before: string } | undefined): RateSeries {
    const [base, quote] = a < b ? [a, b] : [b, a];
    const key = fxSeriesKey(base, quote, provider);
    let s = this.parsed.get(key);
    if (!s) {
      const given = this.series[key];
      const raw = !given ? EMPTY_COLUMN : "days" in given ? given : columnOfTexts(given.dates, given.rates);
      // One text per day (calendar.ts keeps them): the conversion reads dates as texts.
      const dates = Array.from(raw.days, dayText);
      const prev = reuse?.table.parsed.get(key);
      let n = 0;
      if (prev) while (n < prev.dates.length && n < dates.length && prev.dates[n]! < reuse!.before && prev.dates[n] === dates[n]) n++;
      const rates = n > 0 ? prev!.rates.slice(0, n) : [];
      for (let i = n; i < dates.length; i++) rates.push(new Decimal(valueText(raw, i)));
      s = { dates, rates };
      this.parsed.set(key, s);
    }
    return s;
  }

  /** 1 unit of `currency` in the target on `date`, or null (the gap is recorded when `record`). */
  rate(currency: string, date: string, record = true): Decimal | null {
    if (currency === this.target) return ONE;
    let entry = this.byCurrency.get(currency);
    if (!entry) {
      entry = { kind: "none", routes: [], memo: new Map(), privateRoute: -1, privateDays: new Set() };
      this.byCurrency.set(currency, entry);
    }
    let rate = entry.memo.get(date);
    if (rate === undefined) {
      rate = null;
      for (const [index, legs] of entry.routes.entries()) {
        const c = convertAlong(ONE, legs, date);
        if (!c) continue;
        rate = c.rate;
        if (index === entry.privateRoute) entry.privateDays.add(date);
        break;
      }
      entry.memo.set(date, rate);
    }
    if (rate === null && record) this.recordMissing(currency, entry.kind, date);
    else if (record && entry.privateRoute >= 0 && entry.privateDays.has(date)) this.privateUsed.add(currency);
    return rate;
  }

  convert(amount: Decimal, currency: string, date: string, record = true): Decimal | null {
    const r = this.rate(currency, date, record);
    return r === null ? null : amount.times(r);
  }

  private recordMissing(currency: string, kind: PairKind, date: string): void {
    let m = this.missingByCurrency.get(currency);
    if (!m) {
      const pair = normalisePair(currency, this.target);
      const slug = pair ? `${pair.base}-${pair.quote}` : `${currency}-${this.target}`;
      m = { from: currency, to: this.target, slug, kind, dates: new Set() };
      this.missingByCurrency.set(currency, m);
    }
    m.dates.add(date);
  }

  /** The gaps seen so far (currency → dates, in the order they were met), for a replay checkpoint. */
  missingSnapshot(): [string, string[]][] {
    return [...this.missingByCurrency].map(([c, m]) => [c, [...m.dates]]);
  }

  /** Records the gaps of a checkpoint again, as this table's configuration classifies them. */
  restoreMissing(snapshot: readonly [string, readonly string[]][]): void {
    for (const [currency, dates] of snapshot) {
      const kind = this.byCurrency.get(currency)?.kind ?? "none";
      for (const d of dates) this.recordMissing(currency, kind, d);
    }
  }

  /** The source currencies a recorded conversion used private rates for, for a replay checkpoint. */
  privateSnapshot(): string[] {
    return [...this.privateUsed];
  }

  /** Notes again the currencies of a checkpoint whose conversions used private rates. */
  restorePrivate(currencies: readonly string[]): void {
    for (const c of currencies) this.privateUsed.add(c);
  }

  /** Alphabetical slugs of the pairs whose private rates made a recorded conversion, sorted. */
  privatePairs(): string[] {
    return [...this.privateUsed].map((c) => {
      const pair = normalisePair(c, this.target);
      return pair ? `${pair.base}-${pair.quote}` : `${c}-${this.target}`;
    }).sort();
  }

  /** Every conversion gap seen so far, by source currency. */
  missing(): MissingConversion[] {
    return [...this.missingByCurrency.values()].sort((a, b) => a.slug.localeCompare(b.slug));
  }
}

const ONE = new Decimal(1);

