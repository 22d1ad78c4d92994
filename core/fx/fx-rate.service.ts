import { inject, injectable } from "tsyringe";
import type { EntityManager } from "typeorm";
import { earliestDate } from "../cache/portfolio-caches.ts";
import { declareChange } from "../db/data-changes.ts";
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
export function writeRateRows(tx: EntityManager, rows: readonly RateRowWrite[]): Promise<{ inserted: number; updated: number; actions: RateWriteAction[] }> {
  return writeRows(tx, rows[0] ? { table: "fx_rates", column: "provider", key: rows[0].provider } : null, rows);
}

/** Where one pair's rows go: the shared `fx_rates` under a provider, or one user's `fx_private_rates`. */
interface RateStore {
  table: "fx_rates" | "fx_private_rates";
  column: "provider" | "user_id";
  key: string | number;
}

/** The store of an owner: null for the shared rates (provider MANUAL), else that user's private rates. */
const storeOf = (owner: number | null): RateStore => (owner === null
  ? { table: "fx_rates", column: "provider", key: MANUAL_PROVIDER }
  : { table: "fx_private_rates", column: "user_id", key: owner });

async function writeRows(tx: EntityManager, store: RateStore | null, rows: readonly Omit<RateRowWrite, "provider">[]): Promise<{ inserted: number; updated: number; actions: RateWriteAction[] }> {
  if (rows.length === 0 || !store) return { inserted: 0, updated: 0, actions: [] };
  const { base, quote } = rows[0]!;
  const { table, column, key } = store;
  const dates = rows.map((r) => r.date).sort();
  const stored = new Map<string, { rate: string; source: string }>();
  const existing: { date: string; rate: string; source: string }[] = await tx.query(
    `SELECT date, rate, source FROM ${table} WHERE base = ? AND quote = ? AND ${column} = ? AND date >= ? AND date <= ?`,
    [base, quote, key, dates[0], dates.at(-1)],
  );
  for (const e of existing) stored.set(e.date, { rate: e.rate, source: e.source });
  let inserted = 0;
  let updated = 0;
  const actions: RateWriteAction[] = [];
  // One row per date reaches the INSERT (the last given wins): PostgreSQL refuses an upsert that
  // touches the same row twice in one statement.
  const byDate = new Map<string, Omit<RateRowWrite, "provider">>();
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
      `INSERT INTO ${table} (base, quote, ${column}, date, rate, source, updated_at) VALUES ${chunk.map(() => "(?, ?, ?, ?, ?, ?, datetime('now'))").join(", ")}
       ON CONFLICT (${column === "user_id" ? "user_id, base, quote" : "base, quote, provider"}, date) DO UPDATE SET rate = excluded.rate, source = excluded.source, updated_at = excluded.updated_at`,
      chunk.flatMap((r) => [r.base, r.quote, key, r.date, r.rate, r.source]),
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

/** One stored private rate (alphabetical pair). */
export interface PrivateRateView {
  base: string;
  date: string;
  quote: string;
  rate: string;
  source: string;
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

/**
 * Manual FX rates (docs/fx.md): the shared ones, upserted under
 * provider MANUAL and deleted with every provider's rows of the pair (administrators only, checked
 * by the routes), and each user's private ones (`owner`), which only that user's conversions read.
 */
@injectable()
export class FxRateService {
  constructor(
    @inject(Database) private readonly db: Database,
  ) {}

  /**
   * Stores each rate in the pair's alphabetical orientation (a rate posted the other way is
   * stored as 1/rate, 34 significant digits) under provider MANUAL, or as `owner`'s private rate;
   * clears the portfolio caches when a row changed.
   */
  async upsert(items: readonly ManualRateInput[], owner: number | null = null): Promise<ManualRateOutcome[]> {
    const store = storeOf(owner);
    const outcomes = await this.db.write(async (tx) => {
      const out: ManualRateOutcome[] = [];
      // One read and one multi-row write per pair (items in their order), not per item: on
      // PostgreSQL every statement is a round trip.
      const byPair = new Map<string, { rows: Omit<RateRowWrite, "provider">[]; at: number[] }>();
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
        group.rows.push({ base: pair.base, date: item.date, quote: pair.quote, rate, source });
        group.at.push(out.length);
        out.push({ action: "unchanged", base: pair.base, date: item.date, quote: pair.quote, rate, success: true });
      }
      for (const group of byPair.values()) {
        const { actions } = await writeRows(tx, store, group.rows);
        group.at.forEach((index, j) => { out[index]!.action = actions[j]; });
      }
      const changed = out.filter((o) => o.action === "inserted" || o.action === "updated");
      if (changed.length > 0) declareChange(tx, { kind: "fx", from: earliestDate(changed.map((o) => o.date)) });
      return out;
    });
    return outcomes;
  }

  /**
   * Deletes a pair's shared rates (every provider), or `owner`'s private rates of the pair, within a
   * date range, or all of them with `deleteAll`; clears the portfolio caches when rows were removed.
   */
  async delete(items: readonly RateDeleteInput[], owner: number | null = null): Promise<RateDeleteOutcome[]> {
    const table = owner === null ? "fx_rates" : "fx_private_rates";
    const outcomes = await this.db.write(async (tx) => {
      const out: RateDeleteOutcome[] = [];
      for (const item of items) {
        const pair = normalisePair(item.from, item.to);
        const range = item.dateRange ?? null;
        const blank = { base: pair?.base ?? item.from, dateRange: range, deletedCount: 0, existingCount: 0, quote: pair?.quote ?? item.to };
        if (!pair) { out.push({ ...blank, message: "from and to must be two different three-letter currency codes", success: false }); continue; }
        if (!range && !item.deleteAll) { out.push({ ...blank, message: "Give date_range or delete_all", success: false }); continue; }
        let where = owner === null ? `base = ? AND quote = ?` : `user_id = ? AND base = ? AND quote = ?`;
        const params: (string | number)[] = owner === null ? [pair.base, pair.quote] : [owner, pair.base, pair.quote];
        const [{ n }] = await tx.query(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`, params);
        if (range && !item.deleteAll) {
          where += ` AND date >= ?`;
          params.push(range.start);
          if (range.end) { where += ` AND date <= ?`; params.push(range.end); }
        }
        const [{ d }] = await tx.query(`SELECT COUNT(*) AS d FROM ${table} WHERE ${where}`, params);
        if (d > 0) await tx.query(`DELETE FROM ${table} WHERE ${where}`, params);
        out.push({ ...blank, deletedCount: Number(d), existingCount: Number(n), success: true });
      }
      const deleted = out.filter((o) => o.deletedCount > 0);
      if (deleted.length > 0) declareChange(tx, { kind: "fx", from: earliestDate(deleted.map((o) => o.dateRange?.start ?? null)) });
      return out;
    });
    return outcomes;
  }

  /** `owner`'s private rates by pair and date; only the pair `from`/`to` (either orientation) when given. */
  async listPrivate(owner: number, pair?: { from: string; to: string }): Promise<PrivateRateView[]> {
    const p = pair ? normalisePair(pair.from, pair.to) : null;
    if (pair && !p) return [];
    const rows: PrivateRateView[] = await this.db.reads.query(
      `SELECT base, quote, date, rate, source FROM fx_private_rates WHERE user_id = ?${p ? " AND base = ? AND quote = ?" : ""} ORDER BY base, quote, date`,
      p ? [owner, p.base, p.quote] : [owner],
    );
    return rows.map((r) => ({ base: r.base, date: String(r.date), quote: r.quote, rate: String(r.rate), source: r.source }));
  }
}
