/**
 * Reads a report's input straight from the database with plain SQL. It runs inside a worker on the
 * worker's own read-only connection in one read transaction (host/db/read-snapshot.ts: SQLite's WAL,
 * or a PostgreSQL snapshot), so the request thread never loads or copies the tens of thousands of
 * rows a report needs.
 */
import type { ChainStep } from "../fx/fx-route.entity.ts";
import { normalisePair } from "../fx/pair.ts";
import { MANUAL_PROVIDER, PRIVATE_PROVIDER } from "../fx/route-search.calc.ts";
import { type DayColumn, DayColumnWriter } from "./day-columns.ts";
import {
  type AssetInfo, type FxPairConfig, fxSeriesKey, type ReportFlags, type ReportInput, type SplitEvent,
} from "./report-input.ts";
import { type TxColumns, TxColumnsWriter, TxTable } from "./tx-columns.ts";

import type { SqlReader } from "../db/sql-reader.ts";

export type { SqlReader };

/** `AND <column> >= ?` and its parameter when `since` is given, else nothing (a day column on PostgreSQL cannot be compared with ""). */
function sinceClause(column: string, since: string): [string, string[]] {
  return since === "" ? ["", []] : [` AND ${column} >= ?`, [since]];
}

export interface ReportRequest {
  /** Broker id → aggregation scale (decimal string) of every broker in scope. */
  scales: Record<number, string>;
  /**
   * The user the report is for: their private FX rates fill what the shared FX data cannot convert
   * (docs/fx.md "Private manual rates"); null: shared data only.
   */
  fxUserId: number | null;
  target: string;
  start: string | null;
  end: string;
  flags: ReportFlags;
  requested: ReportInput["requested"];
  generatedAt: string;
}

function placeholders(n: number): string {
  return Array.from({ length: n }, () => "?").join(",");
}

interface TxRow {
  id: number; broker_id: number; asset_id: number | null; type: string; date: string; quantity: string;
  amount: string | null; currency: string | null; related_transaction_id: number | null; cost_basis_override: string | null;
  cost_basis_currency: string | null; partner_broker_id: number | null; partner_date: string | null; split_linked: number | null;
}

export async function loadReportInput(db: SqlReader, req: ReportRequest): Promise<ReportInput> {
  const brokers = await loadBrokers(db, req);
  const txColumns = await loadTransactions(db, brokers, req.end);
  const transactions = new TxTable(txColumns);
  const assetIds = assetIdsOf(transactions);
  const assets = await loadAssets(db, assetIds);
  const { quotes, splits } = await loadQuotesAndSplits(db, assetIds, req.end);
  const { fxPairs, rates } = await loadFx(db, reportCurrencies(transactions, assets, req.target), req.target, req.end, "", req.fxUserId);

  return {
    brokers, txColumns, transactions: [], assets, columns: { quotes, rates }, quotes: {}, splits, fxPairs, fxSeries: {}, target: req.target, start: req.start,
    end: req.end, flags: req.flags, requested: req.requested, generatedAt: req.generatedAt,
  };
}

/** The brokers in scope (by id) with their scales. */
export async function loadBrokers(db: SqlReader, req: ReportRequest): Promise<ReportInput["brokers"]> {
  const brokerIds = Object.keys(req.scales).map(Number);
  const brokerRows = brokerIds.length === 0 ? [] : await db.all<{ id: number; name: string }>(
    `SELECT id, name FROM brokers WHERE id IN (${placeholders(brokerIds.length)})`, brokerIds);
  return brokerRows.map((b) => ({ id: b.id, name: b.name, scale: req.scales[b.id]! })).sort((a, b) => a.id - b.id);
}

/** Every currency a report converts (movements, cost overrides, asset currencies) but the target. */
export function reportCurrencies(transactions: TxTable, assets: readonly AssetInfo[], target: string): string[] {
  const currencies = new Set<string>();
  for (let i = 0; i < transactions.length; i++) {
    const currency = transactions.currency(i);
    if (currency) currencies.add(currency);
    const costBasisCurrency = transactions.costBasisCurrency(i);
    if (costBasisCurrency) currencies.add(costBasisCurrency);
  }
  for (const a of assets) currencies.add(a.currency);
  currencies.delete(target);
  return [...currencies];
}

/** The brokers' transactions dated up to `end` (on or after `since` when given), by (date, id). */
export async function loadTransactions(db: SqlReader, brokers: readonly { id: number }[], end: string, since = ""): Promise<TxColumns> {
  const [after, afterParams] = sinceClause("t.date", since);
  const txRows = brokers.length === 0 ? [] : await db.all<TxRow>(`
    SELECT t.id, t.broker_id, t.asset_id, t.type, t.date, t.quantity, t.amount, t.currency, t.related_transaction_id,
           t.cost_basis_override, t.cost_basis_currency, p.broker_id AS partner_broker_id, p.date AS partner_date,
           CASE WHEN e.type = 'SPLIT' THEN 1 ELSE 0 END AS split_linked
      FROM transactions t
      LEFT JOIN transactions p ON p.id = t.related_transaction_id
      LEFT JOIN asset_events e ON e.id = t.asset_event_id
     WHERE t.broker_id IN (${placeholders(brokers.length)})${after} AND t.date <= ?
     ORDER BY t.broker_id, t.date, t.id`, [...brokers.map((b) => b.id), ...afterParams, end]);
  // Straight into the columns: no object or string is kept per row (docs/portfolio.md "Input").
  const w = new TxColumnsWriter(txRows.length);
  for (const i of mergedByDateAndId(txRows)) {
    const r = txRows[i]!;
    w.add(r.id, r.broker_id, r.asset_id, r.type, r.date, r.quantity, r.amount, r.currency, r.related_transaction_id, r.partner_broker_id,
      r.partner_date, r.cost_basis_override, r.cost_basis_currency, r.split_linked === 1);
  }
  return w.done();
}

/**
 * The indices of `rows` in (date, id) order, given them by broker, then date, then id. Each
 * broker's rows are a run in that order already (the database reads them from its (broker, date)
 * index, no sort), so the runs are merged: ordering the query by (date, id) made SQLite sort every
 * row in a temporary B-tree (~40 % of the query at 100,000 rows).
 */
export function mergedByDateAndId(rows: readonly { broker_id: number; date: string; id: number }[]): Int32Array {
  const order = new Int32Array(rows.length);
  // The next row of each run, and where each run ends.
  const next: number[] = [];
  const ends: number[] = [];
  for (let i = 0; i < rows.length; i++) {
    if (i > 0 && rows[i]!.broker_id === rows[i - 1]!.broker_id) continue;
    if (i > 0) ends.push(i);
    next.push(i);
  }
  ends.push(rows.length);
  if (next.length <= 1) {
    for (let i = 0; i < rows.length; i++) order[i] = i;
    return order;
  }
  const before = (a: number, b: number): boolean => {
    const x = rows[next[a]!]!;
    const y = rows[next[b]!]!;
    return x.date < y.date || (x.date === y.date && x.id < y.id);
  };
  // A binary heap of the runs by their next row.
  const heap = next.map((_, k) => k);
  const down = (i: number): void => {
    for (;;) {
      const l = 2 * i + 1;
      if (l >= heap.length) return;
      const c = l + 1 < heap.length && before(heap[l + 1]!, heap[l]!) ? l + 1 : l;
      if (!before(heap[c]!, heap[i]!)) return;
      [heap[c], heap[i]] = [heap[i]!, heap[c]!];
      i = c;
    }
  };
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
  for (let n = 0; n < rows.length; n++) {
    const k = heap[0]!;
    order[n] = next[k]!++;
    if (next[k] === ends[k]) {
      heap[0] = heap[heap.length - 1]!;
      heap.pop();
    }
    if (heap.length > 0) down(0);
  }
  return order;
}

/** The assets of `transactions`, in first-seen order. */
export function assetIdsOf(transactions: TxTable): number[] {
  const seen = new Set<number>();
  for (let i = 0; i < transactions.length; i++) {
    const id = transactions.assetId(i);
    if (id !== null) seen.add(id);
  }
  return [...seen];
}



/**
 * The stored closes (per asset, by date, as day-indexed columns) and the split events (by date, id)
 * of `assetIds` up to `end`; with `since`, only the closes dated on or after it (every split still).
 * The rows fill one set of typed buffers, each asset's series a view of its rows: no string or
 * object per close is kept.
 */
export async function loadQuotesAndSplits(db: SqlReader, assetIds: number[], end: string, since = ""): Promise<{ quotes: Record<number, DayColumn>; splits: SplitEvent[] }> {
  const quotes: Record<number, DayColumn> = {};
  const splits: SplitEvent[] = [];
  if (assetIds.length === 0) return { quotes, splits };
  const inList = `(${placeholders(assetIds.length)})`;
  const [after, afterParams] = sinceClause("date", since);
  const priceRows = await db.all<{ asset_id: number; date: string; close: string }>(
    `SELECT asset_id, date, close FROM price_history WHERE asset_id IN ${inList}${after} AND date <= ? ORDER BY asset_id, date`, [...assetIds, ...afterParams, end]);
  const w = new DayColumnWriter(priceRows.length);
  for (let i = 0; i < priceRows.length; i++) {
    const p = priceRows[i]!;
    w.add(p.date, p.close);
    if (i + 1 === priceRows.length || priceRows[i + 1]!.asset_id !== p.asset_id) quotes[p.asset_id] = w.column();
  }
  const splitRows = await db.all<{ asset_id: number; date: string; value: string }>(
    `SELECT asset_id, date, value FROM asset_events WHERE type = 'SPLIT' AND asset_id IN ${inList} AND date <= ? ORDER BY date, id`, [...assetIds, end]);
  for (const s of splitRows) splits.push({ assetId: s.asset_id, date: s.date, ratio: s.value });
  return { quotes, splits };
}

/** The assets `ids` (by id) with their quote base, classification and whether a quote provider is assigned. */
export async function loadAssets(db: SqlReader, ids: number[]): Promise<AssetInfo[]> {
  if (ids.length === 0) return [];
  const rows = await db.all<{
    id: number; name: string; identifier_ticker: string | null; asset_type: string | null; currency: string;
    quote_base_quantity: string; classification_params: string | null; has_provider: number;
  }>(`
    SELECT a.id, a.name, a.identifier_ticker, a.asset_type, a.currency, a.quote_base_quantity, a.classification_params,
           CASE WHEN EXISTS (SELECT 1 FROM asset_provider_assignments p WHERE p.asset_id = a.id) THEN 1 ELSE 0 END AS has_provider
      FROM assets a WHERE a.id IN (${placeholders(ids.length)}) ORDER BY a.id`, ids);
  return rows.map((r) => {
    const c = r.classification_params ? JSON.parse(r.classification_params) as {
      geographic_area?: { distribution?: Record<string, string> }; sector_area?: { distribution?: Record<string, string> };
    } : {};
    return {
      id: r.id, name: r.name, ticker: r.identifier_ticker, type: r.asset_type, currency: r.currency,
      quoteBaseQuantity: r.quote_base_quantity || "1", hasProvider: r.has_provider === 1,
      sectors: c.sector_area?.distribution ?? null, geography: c.geographic_area?.distribution ?? null,
    };
  });
}

/**
 * Routes (by priority) of every pair `currency`–`target`, and the rate series their steps and
 * manual fallbacks read as day-indexed columns, up to `end` (with `since`: the rates dated on or
 * after it only); with `fxUserId`, that user's private rates of the pairs they keep some for.
 * Shared by the report and the risk adapter's asset view.
 */
export async function loadFx(
  db: SqlReader, currencies: string[], target: string, end: string, since = "", fxUserId: number | null = null,
): Promise<{ fxPairs: FxPairConfig[]; rates: Record<string, DayColumn> }> {
  const fxPairs: FxPairConfig[] = [];
  const rates: Record<string, DayColumn> = {};
  const wanted = new Map<string, [string, string, string]>();
  for (const c of currencies) {
    const pair = normalisePair(c, target);
    if (!pair) continue;
    const routes = (await db.all<{ chain_steps: string }>(`SELECT chain_steps FROM fx_routes WHERE base = ? AND quote = ? ORDER BY priority, id`,
      [pair.base, pair.quote])).map((r) => JSON.parse(r.chain_steps) as ChainStep[]);
    const config: FxPairConfig = { base: pair.base, quote: pair.quote, routes };
    const steps = routes.length > 0 ? routes.flat() : [{ from: pair.base, provider: MANUAL_PROVIDER, to: pair.quote }];
    if (fxUserId !== null && (await db.all(`SELECT 1 FROM fx_private_rates WHERE user_id = ? AND base = ? AND quote = ? LIMIT 1`,
      [fxUserId, pair.base, pair.quote])).length > 0) {
      config.privateRates = true;
      steps.push({ from: pair.base, provider: PRIVATE_PROVIDER, to: pair.quote });
    }
    fxPairs.push(config);
    for (const s of steps) {
      const [b, q] = s.from < s.to ? [s.from, s.to] : [s.to, s.from];
      wanted.set(fxSeriesKey(b, q, s.provider), [b, q, s.provider]);
    }
  }
  const [after, afterParams] = sinceClause("date", since);
  for (const [key, [b, q, provider]] of wanted) {
    const rows = provider === PRIVATE_PROVIDER
      ? await db.all<{ date: string; rate: string }>(
        `SELECT date, rate FROM fx_private_rates WHERE user_id = ? AND base = ? AND quote = ?${after} AND date <= ? ORDER BY date`, [fxUserId, b, q, ...afterParams, end])
      : await db.all<{ date: string; rate: string }>(
        `SELECT date, rate FROM fx_rates WHERE base = ? AND quote = ? AND provider = ?${after} AND date <= ? ORDER BY date`, [b, q, provider, ...afterParams, end]);
    const w = new DayColumnWriter(rows.length);
    for (const r of rows) w.add(r.date, r.rate);
    rates[key] = w.column();
  }
  return { fxPairs, rates };
}
