import { convertEach, type ConvertInput } from "../../../core/fx/fx-convert.ts";
import { computeSignals, type SignalInstance, type SignalResult } from "../../../core/signals/signals.calc.ts";
import type { DatabaseTarget } from "../../db/dialect.ts";
import { withReadSnapshot } from "../../db/read-snapshot.ts";
import { fxRatePoints } from "../signals/signal-points.ts";
import { toConvertItem } from "./fx-currencies.schema.ts";

export interface FxConvertInput {
  db: DatabaseTarget;
  items: (ConvertInput & { signals?: SignalInstance[] })[];
  /** The requesting user: their private rates fill the days the shared routes cannot convert (docs/fx.md "Private manual rates"). */
  userId: number;
}

/** The gzipped answer, or (every conversion failed) the error lines of the 404. */
export type FxConvertOutput = { ok: true; gzipped: Uint8Array } | { ok: false; errors: string[] };

/**
 * `POST /fx/currencies/convert` in a pool worker: rates read on the worker's own connection, each
 * day of each item converted (the pair's routes by priority, then the requesting user's private
 * rates), signals computed on the days with a rate of their own, and the answer serialised and
 * gzipped here. 200,000 day-series are about 1.5 s of decimal arithmetic and 28 MB
 * of JSON, none of it on the request thread.
 */
export async function fxConvert(input: FxConvertInput): Promise<FxConvertOutput> {
  const each = await withReadSnapshot(input.db, (reader) => convertEach(reader, input.items, input.userId));
  const results = each.flatMap((e) => e.results);
  const errors = each.flatMap((e) => e.errors);
  if (input.items.length > 0 && results.length === 0) return { ok: false, errors };
  let signals: { item_index: number; signals: SignalResult[] }[] | undefined;
  for (const [index, item] of input.items.entries()) {
    if (!item.signals) continue;
    const points = fxRatePoints(each[index]!.results);
    (signals ??= []).push({ item_index: index, signals: points.length === 0 ? [] : computeSignals({ domain: "fx", points, signals: item.signals }) });
  }
  const body = { results: results.map(toConvertItem), success_count: results.length, errors, ...(signals ? { signals } : {}) };
  return { ok: true, gzipped: Bun.gzipSync(JSON.stringify(body), { level: 6 }) };
}
