import { queryable } from "../../../core/db/sql-reader.ts";
import { queryPrices } from "../../../core/prices/price-query.ts";
import { computeSignals, type SignalInstance } from "../../../core/signals/signals.calc.ts";
import type { DatabaseTarget } from "../../db/dialect.ts";
import { withReadSnapshot } from "../../db/read-snapshot.ts";
import { fromPriceRows } from "../signals/signal-points.ts";
import { toQueryItem } from "./prices.schema.ts";

export interface PriceQueryInput {
  db: DatabaseTarget;
  items: { assetId: number; end: string; includeEvents: boolean; includePrices: boolean; signals?: SignalInstance[]; start: string }[];
}

/**
 * `POST /assets/prices/query` in a pool worker: prices and events read on the worker's own
 * connection, each item's signals computed on its prices, and the answer serialised and gzipped
 * here, so neither the rows, the signal lines nor 30 MB of JSON pass through the request thread.
 */
export async function priceQuery(input: PriceQueryInput): Promise<Uint8Array> {
  const found = await withReadSnapshot(input.db, (reader) => queryPrices(queryable(reader), input.items.map((i) => ({
    assetId: i.assetId, range: { start: i.start, end: i.end }, prices: i.includePrices || (i.signals?.length ?? 0) > 0, events: i.includeEvents,
  }))));
  const items = found.map((r, k) => {
    const item = toQueryItem(r);
    const asked = input.items[k]!;
    if (!asked.signals) return item;
    const signals = asked.signals.length === 0 ? [] : computeSignals({ domain: "asset", points: fromPriceRows(r.prices), signals: asked.signals });
    return { ...item, prices: asked.includePrices ? item.prices : [], signals };
  });
  return Bun.gzipSync(JSON.stringify({ items }), { level: 6 });
}
