import { inject, injectable } from "tsyringe";
import type { EntityManager } from "typeorm";
import { CacheRegistry } from "../cache/cache-registry.ts";
import { clearPortfolioCaches } from "../cache/portfolio-caches.ts";
import { Database } from "../db/database.ts";
import { Decimal, toDecimalString } from "../money/decimal.ts";
import { invertRate } from "./convert.calc.ts";
import { normalisePair } from "./pair.ts";
import { MANUAL_PROVIDER } from "./route-search.calc.ts";

/** Rows per multi-row statement (STACK.md: chunks of at most 500). */
const CHUNK = 500;

/** One rate row to store, already alphabetical (`base < quote`). */
export interface RateRowWrite {
  base: string;
  date: string;
  provider: string;
  quote: string;
  rate: string;
  source: string;
}

/**
 * Stores rows of ONE pair and provider; a row equal to the stored one (same rate and source) is not
 * written. Returns how many rows were inserted and updated.
 */
export async function writeRateRows(tx: EntityManager, rows: readonly RateRowWrite[]): Promise<{ inserted: number; updated: number; actions: RateWriteAction[] }> {
  if (rows.length === 0) return { inserted: 0, updated: 0, actions: [] };
  const { base, quote, provider } = rows[0]!;
  const dates = rows.map((r) => r.date).sort();
  const stored = new Map<string, { rate: string; source: string }>();
  const existing: { date: string; rate: string; source: string }[] = await tx.query(
    `SELECT date, rate, source FROM fx_rates WHERE base = ? AND quote = ? AND provider = ? AND date >= ? AND date <= ?`,
    [base, quote, provider, dates[0], dates.at(-1)],
  );
  for (const e of existing) stored.set(e.date, { rate: e.rate, source: e.source });
  let inserted = 0;
  let updated = 0;
  const actions: RateWriteAction[] = [];
  // One row per date reaches the INSERT (the last given wins): PostgreSQL refuses an upsert that
  // touches the same row twice in one statement.
  const byDate = new Map<string, RateRowWrite>();
  for (const r of rows) {
    const old = stored.get(r.date);
    if (!old) inserted++;
    else if (!new Decimal(old.rate).eq(r.rate) || old.source !== r.source) updated++;
    else {
      actions.push("unchanged");
      continue;
    }
    actions.push(old ? "updated" : "inserted");
    stored.set(r.date, { rate: r.rate, source: r.source });
    byDate.set(r.date, r);
  }
  const changed = [...byDate.values()];
  for (let i = 0; i < changed.length; i += CHUNK) {
    const chunk = changed.slice(i, i + CHUNK);
    await tx.query(
      `INSERT INTO fx_rates (base, quote, provider, date, rate, source, updated_at) VALUES ${chunk.map(() => "(?, ?, ?, ?, ?, ?, datetime('now'))").join(", ")}
       ON CONFLICT (base, quote, provider, date) DO UPDATE SET rate = excluded.rate, source = excluded.source, updated_at = excluded.updated_at`,
      chunk.flatMap((r) => [r.base, r.quote, r.provider, r.date, r.rate, r.source]),
    );
  }
  return { inserted, updated, actions };
}

/** What a rate write did to its row. */
export type RateWriteAction = "inserted" | "updated" | "unchanged";

export interface ManualRateInput {
  base: string;
  date: string;
  quote: string;
  /** Decimal string > 0 (checked by the schema). */
  rate: string;
  source?: string;
}

export interface ManualRateOutcome {
  action?: "inserted" | "updated" | "unchanged";
  base: string;
  date: string;
  message?: string;
  quote: string;
  /** The rate as stored (alphabetical orientation). */
  rate: string;
  success: boolean;
}

export interface RateDeleteInput {
  dateRange?: { end?: string; start: string };
  deleteAll?: boolean;
  from: string;
  to: string;
}

export interface RateDeleteOutcome {
  base: string;
  dateRange: { end?: string; start: string } | null;
  deletedCount: number;
  existingCount: number;
  message?: string;
  quote: string;
  success: boolean;
}

/** Manual FX rates: upsert under provider MANUAL, and deletion (REFERENCE §2.5; decisions in docs/fx.md). */
@injectable()
export class FxRateService {
  constructor(
    @inject(Database) private readonly db: Database,
    @inject(CacheRegistry) private readonly caches: CacheRegistry,
  ) {}

  /**
   * Stores each rate in the pair's alphabetical orientation (a rate posted the other way is
   * stored as 1/rate, 34 significant digits) under provider MANUAL; clears the portfolio caches
   * when a row changed.
   */
  async upsert(items: readonly ManualRateInput[]): Promise<ManualRateOutcome[]> {
    const outcomes = await this.db.write(async (tx) => {
      const out: ManualRateOutcome[] = [];
      // One read and one multi-row write per pair (items in their order), not per item: on
      // PostgreSQL every statement is a round trip.
      const byPair = new Map<string, { rows: RateRowWrite[]; at: number[] }>();
      for (const item of items) {
        const pair = normalisePair(item.base, item.quote);
        if (!pair) {
          out.push({ base: item.base, date: item.date, message: "base and quote must be two different three-letter currency codes", quote: item.quote, rate: item.rate, success: false });
          continue;
        }
        const given = new Decimal(item.rate);
        if (!given.isFinite() || given.lte(0)) {
          out.push({ base: pair.base, date: item.date, message: "rate must be greater than 0", quote: pair.quote, rate: item.rate, success: false });
          continue;
        }
        const rate = toDecimalString(pair.inverted ? invertRate(given) : given);
        const source = item.source?.trim() || MANUAL_PROVIDER;
        const key = `${pair.base}-${pair.quote}`;
        const group = byPair.get(key) ?? { rows: [], at: [] };
        byPair.set(key, group);
        group.rows.push({ base: pair.base, date: item.date, provider: MANUAL_PROVIDER, quote: pair.quote, rate, source });
        group.at.push(out.length);
        out.push({ action: "unchanged", base: pair.base, date: item.date, quote: pair.quote, rate, success: true });
      }
      for (const group of byPair.values()) {
        const { actions } = await writeRateRows(tx, group.rows);
        group.at.forEach((index, j) => { out[index]!.action = actions[j]; });
      }
      return out;
    });
    if (outcomes.some((o) => o.action === "inserted" || o.action === "updated")) clearPortfolioCaches(this.caches);
    return outcomes;
  }

  /**
   * Deletes a pair's rates (every provider) within a date range, or all of them with `deleteAll`;
   * clears the portfolio caches when rows were removed.
   */
  async delete(items: readonly RateDeleteInput[]): Promise<RateDeleteOutcome[]> {
    const outcomes = await this.db.write(async (tx) => {
      const out: RateDeleteOutcome[] = [];
      for (const item of items) {
        const pair = normalisePair(item.from, item.to);
        const range = item.dateRange ?? null;
        const blank = { base: pair?.base ?? item.from, dateRange: range, deletedCount: 0, existingCount: 0, quote: pair?.quote ?? item.to };
        if (!pair) { out.push({ ...blank, message: "from and to must be two different three-letter currency codes", success: false }); continue; }
        if (!range && !item.deleteAll) { out.push({ ...blank, message: "Give date_range or delete_all", success: false }); continue; }
        const [{ n }] = await tx.query(`SELECT COUNT(*) AS n FROM fx_rates WHERE base = ? AND quote = ?`, [pair.base, pair.quote]);
        let where = `base = ? AND quote = ?`;
        const params: string[] = [pair.base, pair.quote];
        if (range && !item.deleteAll) {
          where += ` AND date >= ?`;
          params.push(range.start);
          if (range.end) { where += ` AND date <= ?`; params.push(range.end); }
        }
        const [{ d }] = await tx.query(`SELECT COUNT(*) AS d FROM fx_rates WHERE ${where}`, params);
        if (d > 0) await tx.query(`DELETE FROM fx_rates WHERE ${where}`, params);
        out.push({ ...blank, deletedCount: Number(d), existingCount: Number(n), success: true });
      }
      return out;
    });
    if (outcomes.some((o) => o.deletedCount > 0)) clearPortfolioCaches(this.caches);
    return outcomes;
  }
}
