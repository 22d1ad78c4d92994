import type { DataChangeKind } from "../db/data-changes.ts";
import type { CacheRegistry } from "./cache-registry.ts";
import type { NotePart } from "../portfolio/report-engine.ts";
import { notePortfolioChange, PORTFOLIO_CACHES } from "./portfolio-caches.ts";

/** One stored declaration, as a process reads it (`data_changes`, migration 1795000012000). */
export interface StoredChange {
  kind: string;
  /** Null: undated (from the beginning). */
  from: string | null;
  /** The broker or asset ids it touched (empty or absent: not known). */
  ids?: readonly number[];
}

/** What a process had not seen yet since its previous read. */
export interface ChangeBatch {
  changes: StoredChange[];
  /**
   * Some changes may be unknown to this process (rows pruned before it read them, or a write
   * around the journal): every cache built from stored data is cleared, undated.
   */
  unknown: boolean;
}

/** Reads the declarations stored since the previous call (the first call only takes the position). */
export type ChangeSource = () => Promise<ChangeBatch>;

/**
 * Whether a change of a kind is dated (a report resumes its replay at its date), and what its ids
 * are: a report whose scope holds none of them is not touched by it.
 */
interface KindRule {
  caches: readonly string[];
  dated: boolean;
  ids?: "brokers" | "assets";
  /**
   * Its ids name everything it touched, dated or not: an undated change then touches only the
   * scopes holding one of them. (A ledger write's are kept for dated changes only: an undated one
   * may not know a partner leg's broker.)
   */
  idsComplete?: boolean;
}

/**
 * The one map from declared data to the caches it clears (docs/portfolio.md "Caches"). Ledger,
 * price and FX rows carry their earliest date, and the report engine resumes its replay there;
 * everything else is undated (the engine compares those inputs whole, or they change what a scope
 * even is). An unknown kind (a newer version wrote it) clears everything.
 */
const RULES: Record<DataChangeKind, KindRule> = {
  ledger: { caches: PORTFOLIO_CACHES, dated: true, ids: "brokers" },
  prices: { caches: PORTFOLIO_CACHES, dated: true, ids: "assets" },
  fx: { caches: PORTFOLIO_CACHES, dated: true },
  events: { caches: PORTFOLIO_CACHES, dated: false },
  // An asset's own data (name, currency, classification, provider) matters to the scopes holding
  // it only: creating one (no scope holds it yet) or editing one leaves the other scopes' replays.
  assets: { caches: PORTFOLIO_CACHES, dated: false, ids: "assets", idsComplete: true },
  brokers: { caches: PORTFOLIO_CACHES, dated: false },
  access: { caches: PORTFOLIO_CACHES, dated: false },
  fx_routes: { caches: PORTFOLIO_CACHES, dated: false },
  restore: { caches: PORTFOLIO_CACHES, dated: false },
  portfolio: { caches: PORTFOLIO_CACHES, dated: false },
  uploads: { caches: ["upload_metadata"], dated: false },
};

const EVERYTHING: KindRule = { caches: [...PORTFOLIO_CACHES, "upload_metadata"], dated: false };

/**
 * Clears, in this process, the caches a batch of declarations affects, and notes the earliest
 * date of the portfolio ones for the report engine (one generation per batch).
 */
export function applyChanges(caches: CacheRegistry, batch: ChangeBatch): void {
  const rules = batch.changes.map((c) => ({ rule: Object.hasOwn(RULES, c.kind) ? RULES[c.kind as DataChangeKind] : EVERYTHING, from: c.from, ids: c.ids ?? [] }));
  if (batch.unknown) rules.push({ rule: EVERYTHING, from: null, ids: [] });
  let portfolio = false;
  let from: string | null | undefined;
  const parts: NotePart[] = [];
  const others = new Set<string>();
  for (const { rule, from: date, ids } of rules) {
    for (const name of rule.caches) {
      if ((PORTFOLIO_CACHES as readonly string[]).includes(name)) portfolio = true;
      else others.add(name);
    }
    if (!rule.caches.includes("portfolio_blob")) continue;
    const dated = rule.dated ? date : null;
    from = from === undefined ? dated : from === null || dated === null ? null : (dated < from ? dated : from);
    // An undated change names every scope unless its ids are complete (a ledger write's partner
    // leg may not be known).
    parts.push(rule.ids && ids.length > 0 && (dated !== null || rule.idsComplete) ? { from: dated, [rule.ids]: ids } : { from: dated });
  }
  for (const name of others) caches.clear(name);
  if (portfolio) notePortfolioChange(caches, from ?? null, parts);
}
