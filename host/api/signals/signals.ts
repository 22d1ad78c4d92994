import type { SignalInstance, SignalPoint, SignalResult } from "../../../core/signals/signals.calc.ts";
import { runCalculation } from "../run-calculation.ts";

/** Computes signals in the worker pool (empty list: nothing to do, no task). */
export async function runSignals(domain: "asset" | "fx", points: SignalPoint[], signals: SignalInstance[]): Promise<SignalResult[]> {
  if (signals.length === 0) return [];
  return (await runCalculation("computeSignals", { domain, points, signals })).result;
}

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

/** A `POST /assets/prices/query` item with its requested `signals` beside the prices (dropped again unless asked for). */
export async function withPriceSignals<T extends { prices: unknown[] }>(
  item: T, rows: Parameters<typeof fromPriceRows>[0], req: { include_prices: boolean; signals?: SignalInstance[] },
): Promise<T & { signals?: SignalResult[] }> {
  if (!req.signals) return item;
  const signals = await runSignals("asset", fromPriceRows(rows), req.signals);
  return { ...item, prices: req.include_prices ? item.prices : [], signals };
}

/**
 * Signals of `POST /fx/currencies/convert` items that ask for them: computed on the item's rate per
 * day, keeping only days with a rate of their own (backward-filled days would repeat a value).
 * Returned as `[{item_index, signals}]` beside the flat conversion results.
 */
export async function convertSignals(
  items: readonly { signals?: SignalInstance[] }[],
  ratesOf: (index: number) => Promise<{ conversionDate: string; rate: string; backwardFill?: { daysBack: number } }[]>,
): Promise<{ item_index: number; signals: SignalResult[] }[] | undefined> {
  if (!items.some((i) => i.signals)) return undefined;
  const out: { item_index: number; signals: SignalResult[] }[] = [];
  for (const [index, item] of items.entries()) {
    if (!item.signals) continue;
    let rows: Awaited<ReturnType<typeof ratesOf>> = [];
    try {
      rows = await ratesOf(index);
    } catch {
      rows = [];
    }
    const points = rows.filter((r) => !r.backwardFill || r.backwardFill.daysBack === 0).map((r) => ({ date: r.conversionDate, value: Number(r.rate) }));
    out.push({ item_index: index, signals: points.length === 0 ? [] : await runSignals("fx", closeOnly(points), item.signals) });
  }
  return out;
}
