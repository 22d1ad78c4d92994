import { fromSqliteDatetime } from "../db/sqlite-date.ts";
import { InputError, NotFoundError } from "../errors/domain-error.ts";
import { normalisePair } from "../fx/pair.ts";
import { type CsvKind, csvLine } from "./csv.ts";
import { ChunkBuffer, type SnapshotReader, yieldToEventLoop } from "./snapshot-reader.ts";

/**
 * Series exports (docs/backup.md "Series exports"): one asset's prices or events, or one FX pair's rates,
 * as CSV with fixed columns or as the JSON envelope `{scope, entity, exported_at, row_count, rows}`.
 * Rows are pulled from the snapshot one at a time and sent in chunks, so memory stays flat for
 * any length of history. Decimals are the exact strings stored; CSV text cells that a spreadsheet
 * would run as a formula get a leading `'` (csv.ts), the JSON envelope carries text as stored.
 */
export type SeriesFormat = "csv" | "json";

export interface SeriesSpec {
  /** Extra envelope fields written before `rows` (asset id, pair, `inverted`). */
  envelope: Record<string, unknown>;
  columns: readonly string[];
  /** Envelope `entity` and the file name's slug. */
  entity: string;
  /** Columns holding numbers (decimals, ids): written to CSV as stored. Every other column is text, neutralised against formulas (csv.ts). */
  numbers: readonly string[];
  params: unknown[];
  /** Envelope `scope` and the file name's prefix. */
  scope: string;
  sql: string;
  /** Maps a stored row to the column values, in column order. */
  toRow(row: any): unknown[];
}

const iso = (text: string | null) => (text === null ? null : fromSqliteDatetime(text).toISOString());

export const PRICE_COLUMNS = ["date", "open", "high", "low", "close", "volume", "currency", "source_plugin_key", "fetched_at"] as const;
export const EVENT_COLUMNS = ["date", "type", "value", "currency", "source", "provider_assignment_id", "notes", "created_at", "updated_at"] as const;
export const FX_COLUMNS = ["date", "base", "quote", "rate", "source", "fetched_at"] as const;

/** Lower-case letters, digits and dashes, at most 40 characters; `fallback` when nothing is left. */
export function slugOf(text: string, fallback: string): string {
  const slug = text.normalize("NFKD").replace(/[^\w\s-]/g, "").trim().toLowerCase().replace(/[\s_-]+/g, "-").slice(0, 40).replace(/-+$/, "");
  return slug || fallback;
}

/** `<scope>_<slug>_<today>.<format>`. */
export function seriesFileName(spec: Pick<SeriesSpec, "entity" | "scope">, format: SeriesFormat, today: string): string {
  return `${spec.scope}_${spec.entity}_${today}.${format}`;
}

export function priceSeries(asset: { id: number; name: string }): SeriesSpec {
  return {
    scope: "prices",
    entity: slugOf(asset.name, `asset-${asset.id}`),
    envelope: { asset_id: asset.id },
    columns: PRICE_COLUMNS,
    numbers: ["open", "high", "low", "close", "volume"],
    sql: `SELECT date, open, high, low, close, volume, currency, source_plugin_key, updated_at FROM price_history
          WHERE asset_id = ? ORDER BY date`,
    params: [asset.id],
    toRow: (r) => [r.date, r.open, r.high, r.low, r.close, r.volume, r.currency, r.source_plugin_key, iso(r.updated_at)],
  };
}

export function eventSeries(asset: { id: number; name: string }): SeriesSpec {
  return {
    scope: "events",
    entity: slugOf(asset.name, `asset-${asset.id}`),
    envelope: { asset_id: asset.id },
    columns: EVENT_COLUMNS,
    numbers: ["value", "provider_assignment_id"],
    sql: `SELECT date, type, value, currency, provider_assignment_id, notes, created_at, updated_at FROM asset_events
          WHERE asset_id = ? ORDER BY date, id`,
    params: [asset.id],
    toRow: (r) => [r.date, r.type, r.value, r.currency, r.provider_assignment_id === null ? "MANUAL" : "PROVIDER",
      r.provider_assignment_id, r.notes, iso(r.created_at), iso(r.updated_at)],
  };
}

/**
 * Rates of a pair in its stored orientation (`base < quote`), every provider, by date then
 * provider. A request for the other orientation gets the same rows with `inverted: true` in the
 * envelope: rates are never recomputed, so the exact stored strings travel. `source` is the
 * provider code (`MANUAL`, `ECB`, ...), which tells apart two rows of one day.
 */
export function fxRateSeries(pair: { base: string; quote: string; inverted: boolean }): SeriesSpec {
  return {
    scope: "fx_rates",
    entity: `${pair.base}-${pair.quote}`.toLowerCase(),
    envelope: { base: pair.base, quote: pair.quote, inverted: pair.inverted },
    columns: FX_COLUMNS,
    numbers: ["rate"],
    sql: `SELECT date, base, quote, rate, provider, updated_at FROM fx_rates WHERE base = ? AND quote = ? ORDER BY date, provider`,
    params: [pair.base, pair.quote],
    toRow: (r) => [r.date, r.base, r.quote, r.rate, r.provider, iso(r.updated_at)],
  };
}

/**
 * The series of one asset. Assets are shared reference data (global, no per-asset
 * access control), so any signed-in user may export them; an unknown id is 404 ASSET_NOT_FOUND.
 */
export async function assetSeries(reader: SnapshotReader, kind: "events" | "prices", assetId: number): Promise<SeriesSpec> {
  const [asset] = await reader.all<{ id: number; name: string }>(`SELECT id, name FROM assets WHERE id = ?`, [assetId]);
  if (!asset) throw new NotFoundError("ASSET_NOT_FOUND", `Asset ${assetId} not found`, { asset_id: assetId });
  return kind === "prices" ? priceSeries(asset) : eventSeries(asset);
}

/** The rates of a pair given in any order (normalised as stored); the same code twice is 400 FX_PAIR_INVALID. */
export function pairSeries(base: string, quote: string): SeriesSpec {
  const pair = normalisePair(base, quote);
  if (!pair) throw new InputError("FX_PAIR_INVALID", `${base}/${quote} is not a currency pair`, { base, quote });
  return fxRateSeries(pair);
}

/** The export as text chunks; the reader must stay open until the generator ends. */
export async function* streamSeries(reader: SnapshotReader, spec: SeriesSpec, format: SeriesFormat, exportedAt: Date): AsyncGenerator<string> {
  const out = new ChunkBuffer();
  let count = 0;
  const kinds: CsvKind[] = spec.columns.map((c) => (spec.numbers.includes(c) ? "number" : "text"));
  if (format === "csv") out.push(csvLine(spec.columns));
  else {
    const head = { scope: spec.scope, entity: spec.entity, exported_at: exportedAt.toISOString(), ...spec.envelope, columns: spec.columns };
    out.push(`${JSON.stringify(head).slice(0, -1)},"rows":[`);
  }
  for await (const row of reader.iterate<any>(spec.sql, spec.params)) {
    const values = spec.toRow(row);
    if (format === "csv") out.push(csvLine(values, kinds));
    else {
      const object: Record<string, unknown> = {};
      spec.columns.forEach((c, i) => { object[c] = values[i] ?? null; });
      out.push(`${count === 0 ? "" : ","}${JSON.stringify(object)}`);
    }
    count++;
    if (out.full) yield out.take();
    if (out.tick()) await yieldToEventLoop();
  }
  if (format === "json") out.push(`],"row_count":${count}}`);
  yield out.take();
}
