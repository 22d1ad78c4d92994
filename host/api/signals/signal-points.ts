import type { SignalPoint } from "../../../core/signals/signals.calc.ts";

/** Series of the signal engine from stored rows (pure: the worker tasks use them too). */

/** A close-only series (previews, FX rates): high = low = open = close, no volume. */
export function closeOnly(points: readonly { date: string; value: number }[]): SignalPoint[] {
  return points.map((p) => ({ date: p.date, close: p.value, high: p.value, low: p.value, open: p.value, volume: null }));
}

/** Stored OHLCV rows (decimal strings, missing fields null): absent high/low/open fall back to the close. */
export function fromPriceRows(rows: readonly { date: string; open: string | null; high: string | null; low: string | null; close: string; volume: string | null }[]): SignalPoint[] {
  return rows.map((r) => {
    const close = Number(r.close);
    return {
      date: r.date, close, high: r.high === null ? close : Number(r.high), low: r.low === null ? close : Number(r.low),
      open: r.open === null ? close : Number(r.open), volume: r.volume === null ? null : Number(r.volume),
    };
  });
}


/** The points signals of an FX conversion see: days with a rate of their own (a backward-filled day would repeat a value). */
export function fxRatePoints(rows: readonly { conversionDate: string; rate: string; backwardFill?: { daysBack: number } }[]): SignalPoint[] {
  return closeOnly(rows.filter((r) => !r.backwardFill || r.backwardFill.daysBack === 0).map((r) => ({ date: r.conversionDate, value: Number(r.rate) })));
}
