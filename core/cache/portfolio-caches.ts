import { type ChangeNote, type NotePart, type ReportChanges, type ScopeIds, touches, untouchedSince } from "../portfolio/report-engine.ts";
import type { CacheRegistry } from "./cache-registry.ts";

/**
 * The caches holding values derived from transactions, prices, events, assets, access rows and
 * FX rates (docs/portfolio.md "Caches": every such write clears them, core/cache/change-feed.ts),
 * the realised gains among them (docs/portfolio-lots.md "Realised gains"). The risk simulation and
 * optimisation results are computed from the same data (docs/risk.md "Caches").
 */
export const PORTFOLIO_CACHES = ["portfolio_blob", "portfolio_layer2", "portfolio_wac", "portfolio_gains", "risk_simulation", "risk_optimization"] as const;

/** Notes kept: a report state older than this many writes recomputes from scratch. */
const NOTES_KEPT = 256;

/**
 * The dated writes of one cache registry (docs/decisions.md, "Incremental report": invalidation by date).
 * Every clear of `portfolio_blob` is a generation; a write that knows the earliest date it
 * changed notes it, so the report engine resumes its replay there instead of recomputing all.
 * A generation without a note (a manual clear, clear-all, an undated write) recomputes all.
 */
class PortfolioChangeLog {
  readonly epoch = crypto.randomUUID();
  private readonly notes: ChangeNote[] = [];

  note(generation: number, from: string | null, parts?: NotePart[]): void {
    this.notes.push(parts ? { generation, from, parts } : { generation, from });
    if (this.notes.length > NOTES_KEPT) this.notes.splice(0, this.notes.length - NOTES_KEPT);
  }

  snapshot(generation: number): ReportChanges {
    return { epoch: this.epoch, generation, notes: this.notes.filter((n) => n.generation <= generation) };
  }
}

const logs = new WeakMap<CacheRegistry, PortfolioChangeLog>();

function logOf(caches: CacheRegistry): PortfolioChangeLog {
  let log = logs.get(caches);
  if (!log) logs.set(caches, log = new PortfolioChangeLog());
  return log;
}

/**
 * Clears the portfolio caches (a cache not created yet is already empty and stays uncreated) and
 * notes the change's date: `from`, the earliest date whose stored inputs changed (null: unknown),
 * so a report can recompute from there; `parts`, each declared change with the brokers or assets
 * it touched, so a report of a scope none of them touched resumes unchanged. Only the change feed calls it (core/cache/change-feed.ts):
 * writes declare what they changed (`declareChange`, core/db/data-changes.ts) instead.
 */
export function notePortfolioChange(caches: CacheRegistry, from: string | null, parts?: NotePart[]): void {
  for (const name of PORTFOLIO_CACHES) {
    if (name === "portfolio_blob") caches.clearWhere<ScopedReport>(name, (report) => !parts || parts.some((p) => touches(p, (id) => report.scope.brokers.includes(id), (id) => report.scope.assets.includes(id))));
    else caches.clear(name);
  }
  logOf(caches).note(caches.generation("portfolio_blob"), from, parts);
}

/**
 * A report kept in `portfolio_blob`, with its scope's brokers and assets. A change that touches
 * neither (a write on another broker, another user's, prices of assets the scope never held, a
 * new asset) leaves it kept, as the report thread resumes such a scope unchanged: the answer would
 * be the same bytes (docs/portfolio.md "Caches").
 */
export interface ScopedReport {
  scope: ScopeIds;
}

/**
 * Whether a report computed against `generation` of `portfolio_blob` may still be kept: no change
 * noted since touches its scope (a clear without a note, manual or undated, touches every scope).
 */
export function reportStillCurrent(caches: CacheRegistry, generation: number, scope: ScopeIds): boolean {
  return untouchedSince(portfolioChanges(caches), generation, scope);
}

/** The dated writes so far, for the report engine (taken before the report reads the database). */
export function portfolioChanges(caches: CacheRegistry): ReportChanges {
  return logOf(caches).snapshot(caches.generation("portfolio_blob"));
}

/** The earliest of some dates (null when there is none or one of them is unknown). */
export function earliestDate(dates: Iterable<string | null>): string | null {
  let min: string | null = null;
  for (const d of dates) {
    if (d === null) return null;
    if (min === null || d < min) min = d;
  }
  return min;
}
