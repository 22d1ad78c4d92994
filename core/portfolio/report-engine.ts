/**
 * The report with an incremental path (docs/portfolio.md "Engine data flow", docs/decisions.md
 * "Incremental report"). A report keeps, per replay (user, brokers with scales, currency, period:
 * the output sections do not change the replay, so requests that differ only in them share it), its
 * loaded input, its daily states, a replay checkpoint at the first day of every month, the TWRR
 * growth, the warm MWRR series, the period returns and each history and allocation point's JSON
 * (the points of the days a report of another sections' request left unchanged). The writes note
 * the earliest date they changed (core/cache/portfolio-caches.ts); the next report of that scope
 * reloads only the rows dated from the checkpoint before that date, resumes the replay there and
 * reuses every figure of the days before it. Anything it cannot date (a cleared cache, an event,
 * a changed asset, broker, route or split, a new first transaction) recomputes from scratch: the
 * result is always the cold computation's, byte for byte (test/portfolio/incremental.test.ts).
 */
import type { FxTable } from "./fx-table.calc.ts";
import type { PriceBook } from "./price-book.calc.ts";
import { type Checkpoint, type DayState, replay, replayDays, replayFrom } from "./replay.calc.ts";
import type { IncomePayment } from "./replay-ledger.ts";
import type { Decimal } from "../money/decimal.ts";
import { allocationPointText, historyPointWriter, toReportDto } from "./report.dto.ts";
import { allocationPoints, computeReportParts } from "./report.calc.ts";
import {
  assetIdsOf, loadAssets, loadBrokers, loadFx, loadQuotesAndSplits, loadReportInput, loadTransactions, reportCurrencies, type ReportRequest, type SqlReader,
} from "./report-input.loader.ts";
import { dayNumber } from "../dates/calendar.ts";
import { type DayColumn, EMPTY_COLUMN, patchColumn } from "./day-columns.ts";
import { type AssetInfo, type ReportInput, seriesColumns, txTable } from "./report-input.ts";
import { spliceTxColumns, TxTable } from "./tx-columns.ts";
import type { Mwrr } from "./returns.calc.ts";
import type { KeptPeriodReturns } from "./period-returns.calc.ts";
import type { AllocationPoint, Dimension, HistoryPoint } from "./report.types.ts";

/** One dated write: every stored input dated before `from` is unchanged; null: not dated (recompute all). */
export interface ChangeNote {
  generation: number;
  from: string | null;
  /**
   * What the generation's writes changed, each with its own date, when every one of them names
   * the brokers or assets it touched (docs/portfolio.md "Caches"); a scope touched by none of
   * them resumes as if nothing changed. Absent: every scope is touched, from `from`.
   */
  parts?: NotePart[];
}

/** One declared change of a generation: the brokers' transactions, or the assets' prices, from `from`. */
export interface NotePart {
  from: string | null;
  brokers?: readonly number[];
  assets?: readonly number[];
}

/** The write log a report is computed against (core/cache/portfolio-caches.ts). */
export interface ReportChanges {
  /** Identifies the log; a state computed against another log is never resumed. */
  epoch: string;
  /** The generation of the last write noted. */
  generation: number;
  /** The notes of the latest generations; a generation without a note is an undated change. */
  notes: ChangeNote[];
}

/** The database the engine reads, inside one read transaction the caller holds (host/db/read-snapshot.ts). */
export type ReportDb = SqlReader;

/** What a kept scope's key holds (`ReportEngine.report`): user, scales, target currency, start and end. */
type ScopeKey = [number | null, Record<number, string>, string, string | null, string];

interface ScopeState {
  epoch: string;
  generation: number;
  input: ReportInput;
  /** JSON of the inputs read whole each time (brokers, assets, splits, FX routes). */
  small: string;
  from: string;
  checkpoints: Checkpoint[];
  days: DayState[];
  incompleteDates: string[];
  /** The run's income payments (its checkpoints keep how many there were). */
  incomePayments: IncomePayment[];
  prices: PriceBook;
  fx: FxTable;
  growth: Decimal[];
  warm: Mwrr[] | null;
  /**
   * The history's points as JSON, comma-separated, and where each ends (null: none kept). A report
   * without history keeps the points of the days before its checkpoint (they did not change).
   */
  history: PointsText | null;
  /** The `summary` flag the history points were written with (the series check may rewrite them). */
  historySummary: boolean;
  /** The same per allocation dimension (null: none kept). */
  allocation: Record<Dimension, PointsText> | null;
  /** The period returns of the last report that asked for them, and how many first days they are still valid for. */
  periodReturns: KeptPeriodReturns | null;
}

/**
 * Points as JSON, comma-separated, and where each ends. The text is kept in the parts it was
 * written in (a kept prefix's, then the points written after it, each later part beginning with
 * its comma), never joined: joining copied the whole text on each resumed report (3.4 MB of
 * history, 6 MB of allocation history on a dense 20,000-row ledger) only to be cut again.
 */
interface PointsText {
  texts: string[];
  ends: number[];
}

export interface EngineReport {
  /**
   * The report's JSON cut into pieces that recur from one report of a scope to the next (joined,
   * they are the JSON): around each points array and at each checkpoint's day inside it (the
   * points before a resumed checkpoint are the previous report's, character for character). The
   * worker compresses the pieces one by one and keeps them (host/api/portfolio/segmented-gzip.ts).
   */
  pieces: string[];
  /** The JSON in one string, joined when read (the worker never reads it). */
  readonly json: string;
  /** `cold`, or the date the replay resumed at. */
  mode: "cold" | { resumedAt: string };
  /**
   * Why a report was cold: `not kept` (no kept replay of the scope on this thread: its first report,
   * or dropped for newer scopes), `undated` (a change since has no date, or the log is not the
   * replay's), `inputs` (the dated change cannot be resumed: the small inputs or the scope changed).
   */
  coldReason?: "not kept" | "undated" | "inputs";
  /** The scope's brokers and the assets its transactions hold. */
  scope: ScopeIds;
}

/**
 * Replays kept, bounded by their size rather than only their number: each holds its inputs,
 * checkpoints and points (35–47 MB of heap on a dense 20,000-row ledger, one for all the sections
 * asked of it; docs/decisions.md "Portfolio engine"). The budget is two such replays in
 * {@link scopeWeight} units (a dense 20k replay weighs ~170,000), so a server keeps two large
 * scopes as before, or many small ones (one per broker of a household): a report after a write
 * then resumes instead of recomputing cold because ten small scopes pushed each other out.
 */
const MAX_SCOPES = 16;
/**
 * A replay makes millions of short-lived values (BigInts, Decimals, texts) per year of days; left
 * to the engine's own pace, the heap grew to ~115 MB of blocks around ~45 MB live before it
 * collected. A young-generation collection keeps it smaller (a cold dense-100k report's peak
 * 210 → 180–192 MB in process when it came), once this many rows were applied or days valued
 * since the last one, whichever comes first. What outlives the engine's own young collections
 * grows with the rows: on the dense 20k ledger one every 512 days kept the peak of one every
 * 128 (~120 MB in process) for a quarter of the collections, each 1–7 ms on that heap (the
 * dashboard's cold report 6–11 % faster); at dense 100k, 3,500 rows come about every 128 days,
 * the pace it had (docs/decisions.md, "Young collections paced by rows").
 */
export const YOUNG_COLLECTION_ROWS = 3_500;
export const YOUNG_COLLECTION_DAYS = 512;

/**
 * Once this many rows were applied since the last full collection, the next collection of the
 * pace below is a full one. A young collection frees the young garbage but not what it promoted
 * and what died old since (the heap never compacts), and that grows with the rows: in process, a
 * cold dense-100k report's RSS peak 175–188 → 146–158 MB with a full collection every 25,000 rows
 * (4 in its replay, 11–29 ms each); through the server, its peak 309 → 294–296 MB with one every
 * 50,000 (2), for ~0.1 s more of its 1.4–1.6 s. Below 50,000 rows, none (docs/decisions.md, "Full
 * collections in the replay, again").
 */
export const FULL_COLLECTION_ROWS = 50_000;

/**
 * The pace of a cold run's collections: the function returned is called for each day valued (with
 * the rows replayed since the day valued before) and each history point written (0 rows); once
 * {@link YOUNG_COLLECTION_ROWS} rows or {@link YOUNG_COLLECTION_DAYS} calls came since the last,
 * `collectYoung` runs, or `collectFull` when {@link FULL_COLLECTION_ROWS} rows came since the last
 * full one.
 */
export function youngCollectionPace(collectYoung: () => void, collectFull: () => void = collectYoung): (applied: number) => void {
  let days = 0;
  let rows = 0;
  let rowsSinceFull = 0;
  return (applied) => {
    rows += applied;
    rowsSinceFull += applied;
    if (++days < YOUNG_COLLECTION_DAYS && rows < YOUNG_COLLECTION_ROWS) return;
    days = 0;
    rows = 0;
    if (rowsSinceFull >= FULL_COLLECTION_ROWS) {
      rowsSinceFull = 0;
      collectFull();
    } else collectYoung();
  };
}
const SCOPE_BUDGET = 350_000;
const SLOT = `\u0000slot-${Math.random().toString(36).slice(2)}`;
const DIMENSIONS: readonly Dimension[] = ["type", "sector", "geography"];

/**
 * The weight ({@link scopeWeight}) from which a cold run has its full collections: after its load,
 * after its replay, and of the kept scopes it drops. They lower a large ledger's peak (~100 MB on
 * the dense 20k ledger, weight ~170,000), but each costs the time to mark the whole heap, kept
 * scopes and compiled code included (~10 ms on a server thread), whatever the ledger's size. On a
 * household's small ledgers that was three quarters of a cold report (median 42 → 10 ms in
 * `bench/multiprocess.ts`, where a write before a scope's first checkpoint makes every report of it
 * cold), for garbage of a few MB that the thread's collection after the task frees anyway
 * (host/workers/calc.worker.ts; docs/decisions.md, "Small ledgers' cold reports skip the full collections").
 */
export const COLLECTION_WEIGHT = 40_000;

export interface ReportEngineOptions {
  /**
   * Called once a cold report's input is loaded, when the SQLite rows it was built from became
   * garbage, once its replay and figures are done (before the JSON and its compression), and before
   * a cold report that replaces kept scopes, each when what it frees weighs {@link COLLECTION_WEIGHT}
   * or more (`collectFrom`); the worker runs a full collection there (the peak is ~100 MB lower on a
   * dense 20,000-row ledger; the one after the replay ~15 MB at dense 100k, where the serialising
   * and compressing had raised the peak by ~55 MB).
   */
  collect?: () => void;
  /**
   * Called as a cold replay values its days and writes its history points, at the pace of
   * {@link YOUNG_COLLECTION_ROWS}; the worker runs a young-generation collection there.
   */
  collectYoung?: () => void;
  /** How many replays are kept at most. */
  maxScopes?: number;
  /** What the kept replays may weigh together ({@link scopeWeight}). */
  budget?: number;
  /** The weight from which `collect` is called (tests set 0 to see every call on a small ledger). */
  collectFrom?: number;
}

export class ReportEngine {
  private readonly scopes = new Map<string, ScopeState>();
  private readonly collect: () => void;
  private readonly collectYoung: () => void;
  private readonly maxScopes: number;
  private readonly budget: number;
  private readonly collectFrom: number;

  constructor(options: ReportEngineOptions = {}) {
    this.collect = options.collect ?? (() => {});
    this.collectYoung = options.collectYoung ?? (() => {});
    this.maxScopes = options.maxScopes ?? MAX_SCOPES;
    this.budget = options.budget ?? SCOPE_BUDGET;
    this.collectFrom = options.collectFrom ?? COLLECTION_WEIGHT;
  }

  /** The report of `request` as JSON; `changes` null: always cold, nothing kept. */
  async report(db: ReportDb, request: ReportRequest, changes: ReportChanges | null): Promise<EngineReport> {
    // Per user too: the FX input holds the user's private rates (docs/fx.md "Private manual rates").
    // Not per sections: the replay and its checkpoints are the same whatever the output flags.
    const key = JSON.stringify([request.fxUserId, request.scales, request.target, request.start, request.end] satisfies ScopeKey);
    let state = changes ? this.scopes.get(key) : undefined;
    const kept = state !== undefined;
    this.scopes.delete(key);
    const since = state && changes ? resumeDate(state, changes, request.end) : null;
    // The other scopes no later report can resume (another write log, or an undated write since
    // they were computed) go too: kept, one held ~70 MB of heap through the cold run of the next
    // scope asked for (dense 100k, docs/decisions.md "Memory at 100k, report phase").
    let dropped = 0;
    if (changes) {
      for (const [k, s] of this.scopes) {
        if (neverResumable(s, changes)) {
          this.scopes.delete(k);
          dropped += scopeWeight(s);
        }
      }
    }
    const resumed = state && since !== null ? await this.incremental(db, request, state, since) : null;
    // Not resumed: the old state goes, and what went is collected before the cold run allocates
    // a new one (the load then reuses its memory: ~10 MB lower peak for a cold report after another one).
    if (!resumed && state) {
      dropped += scopeWeight(state);
      state = undefined;
    }
    const coldReason = resumed ? undefined : !kept ? "not kept" as const : since === null ? "undated" as const : "inputs" as const;
    // A cold run makes room before its replay: the kept scopes the budget would drop once it is kept
    // go while its input is all it holds, not after its replay (dense 100k: two kept scopes do not fit).
    const out = resumed ?? await this.cold(db, request, changes ? (weight) => this.makeRoom(1, weight) : undefined, dropped);
    if (changes) {
      out.state.epoch = changes.epoch;
      out.state.generation = changes.generation;
      // The oldest go first; the one just computed always stays.
      this.makeRoom(1, scopeWeight(out.state));
      this.scopes.set(key, out.state);
    }
    const pieces = out.pieces;
    const scope = { brokers: out.state.input.brokers.map((b) => b.id), assets: out.state.input.assets.map((a) => a.id) };
    return { pieces, mode: out.mode, scope, get json() { return pieces.join(""); }, ...(coldReason ? { coldReason } : {}) };
  }

  /** Drops the oldest kept scopes until `count` more of `weight` in all fit the count and the budget; the weight dropped. */
  private makeRoom(count: number, weight: number): number {
    let kept = 0;
    let dropped = 0;
    for (const s of this.scopes.values()) kept += scopeWeight(s);
    while (this.scopes.size > 0 && (this.scopes.size + count > this.maxScopes || kept + weight > this.budget)) {
      const oldest = this.scopes.keys().next().value!;
      const w = scopeWeight(this.scopes.get(oldest)!);
      kept -= w;
      dropped += w;
      this.scopes.delete(oldest);
    }
    return dropped;
  }

  /**
   * A weight the replay of `request` will have at least once loaded ({@link scopeWeight}), known
   * before its load from a kept scope of the same user, currency and brokers ending no later: the
   * new input then holds every row of that one's (those brokers' rows up to a later end, the closes
   * and rates of their assets up to it), its days aside. About, when rows were deleted since that
   * scope was computed. 0 when no such scope is kept.
   */
  private weightAtLeast(request: ReportRequest): number {
    const brokers = Object.keys(request.scales).join();
    let least = 0;
    for (const [key, s] of this.scopes) {
      const [user, scales, target, , end] = JSON.parse(key) as ScopeKey;
      if (user !== request.fxUserId || target !== request.target || end > request.end || Object.keys(scales).join() !== brokers) continue;
      least = Math.max(least, inputWeight(s.input));
    }
    return least;
  }

  /** Whether freeing replays of this weight is worth a full collection ({@link COLLECTION_WEIGHT}). */
  private worthCollecting(weight: number): boolean {
    return weight > 0 && weight >= this.collectFrom;
  }

  /** Scopes kept. */
  get kept(): number {
    return this.scopes.size;
  }

  /** Drops every kept scope. */
  clear(): void {
    this.scopes.clear();
  }

  /**
   * `makeRoom`: given the weight the replay will have ({@link scopeWeight}), drops kept scopes and
   * answers the weight dropped. It runs before the load with the weight the replay will have at
   * least ({@link weightAtLeast}), then once the input is loaded with its weight, whose drops are
   * collected with the load's rows. `dropped`: the weight of kept scopes the report dropped already,
   * collected with the first drops before the load.
   *
   * The drops before the load are the first of those after it (the oldest scopes first, for a
   * smaller weight), made while the new scope holds nothing yet: kept through the load, the old
   * replay sat beside the new input and the rows it is read from (dense 100k: the dashboard's first
   * report after the API's default one took the server's peak to 311 MB, now 293; docs/decisions.md
   * "Kept replays dropped before the load").
   */
  private async cold(db: ReportDb, request: ReportRequest, makeRoom?: (weight: number) => number, dropped = 0) {
    const before = dropped + (makeRoom?.(this.weightAtLeast(request)) ?? 0);
    if (this.worthCollecting(before)) this.collect();
    const input = await loadReportInput(db, request);
    const weight = scopeWeight({ input, days: { length: replayDays(input) } });
    const after = makeRoom?.(weight) ?? 0;
    const large = this.worthCollecting(weight);
    if (large || this.worthCollecting(after)) this.collect();
    return { ...this.compute(input, smallInputs(input), undefined, large), mode: "cold" as const };
  }

  /** Null when the change cannot be applied incrementally (the caller recomputes cold). */
  private async incremental(db: ReportDb, request: ReportRequest, state: ScopeState, since: string) {
    // The allocation points of kept days are not rebuilt (their per-asset values are gone): resume
    // no later than the kept ones reach.
    const reach = request.flags.allocationHistory ? (state.allocation?.type.ends.length ?? 0) : Infinity;
    let cpIndex = -1;
    for (let i = 0; i < state.checkpoints.length && state.checkpoints[i]!.date <= since; i++) if (state.checkpoints[i]!.dayCount <= reach) cpIndex = i;
    if (cpIndex < 0) return null;
    const cp = state.checkpoints[cpIndex]!;
    const prev = state.input;
    const brokers = await loadBrokers(db, request);
    const delta = await loadTransactions(db, brokers, request.end, cp.date);
    const cpDay = dayNumber(cp.date);
    // The rows dated before the checkpoint kept at their indexes (the price book's kept trade days
    // point at them), the reloaded ones after them.
    const before = txTable(prev);
    const txColumns = spliceTxColumns(before.columns, before.firstFrom(cpDay), delta);
    const transactions = new TxTable(txColumns);
    const assetIds = assetIdsOf(transactions);
    // Assets new to the scope (a first buy since the checkpoint): none of their rows is dated
    // before it (the write's date is at or after the checkpoint's), so the replay up to the
    // checkpoint is the same without them. Their closes are read whole, an older close valuing
    // them after the checkpoint as in a cold run. With split events, cold (kept simple: rare).
    const kept = new Set(prev.assets.map((a) => a.id));
    const added = assetIds.filter((id) => !kept.has(id));
    const assets = await loadAssets(db, assetIds);
    const { quotes: newQuotes, splits } = await loadQuotesAndSplits(db, assetIds.filter((id) => kept.has(id)), request.end, cp.date);
    const fresh = added.length > 0 ? await loadQuotesAndSplits(db, added, request.end) : null;
    if (fresh && fresh.splits.length > 0) return null;
    const { fxPairs, rates: newRates } = await loadFx(db, reportCurrencies(transactions, assets, request.target), request.target, request.end, cp.date, request.fxUserId);
    const series = seriesColumns(prev);
    const quotes: Record<number, DayColumn> = {};
    for (const id of assetIds) {
      const q = kept.has(id) ? patchColumn(series.quotes[id] ?? EMPTY_COLUMN, newQuotes[id] ?? EMPTY_COLUMN, cpDay) : fresh!.quotes[id] ?? EMPTY_COLUMN;
      if (q.days.length > 0) quotes[id] = q;
    }
    const rates: Record<string, DayColumn> = {};
    for (const [k, b] of Object.entries(newRates)) rates[k] = patchColumn(series.rates[k] ?? EMPTY_COLUMN, b, cpDay);
    const input: ReportInput = {
      ...prev, brokers, txColumns, transactions: [], assets, columns: { quotes, rates }, quotes: {}, fxSeries: {}, splits, fxPairs,
      flags: request.flags, requested: request.requested, generatedAt: request.generatedAt,
    };
    const small = smallInputs(input);
    // The small inputs as they were, the new assets aside (their splits: none, above).
    const keptSmall = added.length === 0 ? small : smallInputs({ ...input, assets: assets.filter((a) => kept.has(a.id)) });
    if (keptSmall !== state.small || replayFrom(input).from !== state.from) return null;
    return { ...this.compute(input, small, { state, cp }), mode: { resumedAt: cp.date } };
  }

  /** `large`: a cold run whose replay's garbage is collected before the answer is serialised. */
  private compute(input: ReportInput, small: string, resume: { state: ScopeState; cp: Checkpoint } | undefined, large = false) {
    const checkpoints = resume ? resume.state.checkpoints.filter((c) => c.date <= resume.cp.date) : [];
    // The allocation history is written day by day as the replay values each day, and the day's
    // per-asset values are dropped at once: they are never all alive together.
    const allocation = input.flags.allocationHistory ? new AllocationText(new Map(input.assets.map((a) => [a.id, a]))) : null;
    // Cold runs only: a resumed one replays a year at most, and its time is what an edit waits for.
    const tick = resume ? () => {} : youngCollectionPace(this.collectYoung, this.collect);
    const r = replay(input, {
      checkpoints,
      resume: resume && {
        checkpoint: resume.cp, days: resume.state.days, incompleteDates: resume.state.incompleteDates, incomePayments: resume.state.incomePayments,
        prices: resume.state.prices, fx: resume.state.fx,
      },
      onDay: (day, applied) => {
        allocation?.add(day);
        tick(applied);
      },
    });
    const n = resume?.cp.dayCount ?? 0;
    // Kept history points are reused only if written with the same summary flag (the series check
    // runs with it); the others are written again from the kept days, growth and series.
    const keptPoints = resume?.state.history && resume.state.historySummary === input.flags.summary ? Math.min(n, resume.state.history.ends.length) : 0;
    const prefix = resume && {
      days: n, growth: resume.state.growth.slice(0, n), warm: (resume.state.warm ?? []).slice(0, n), historyDays: keptPoints,
      periodReturns: resume.state.periodReturns ?? undefined,
    };
    const history = input.flags.history ? new PointsWriter(historyPointWriter(input.target)) : null;
    const parts = computeReportParts(input, r, {
      prefix, allocationWritten: allocation !== null,
      onHistoryPoint: history ? (p) => {
        history.add(p);
        tick(0);
      } : undefined,
    });
    // A cold run's replay garbage is collected before the answer is serialised and compressed,
    // which then reuse its memory instead of growing the heap (dense 100k: the worker's peak
    // ~15 MB lower; docs/decisions.md, "Memory at 100k, report phase").
    if (large) this.collect();
    const dto = toReportDto({ ...parts.report, history: null, allocationHistory: null });
    // Each array's points as text, and the index of every checkpoint's first day among them.
    const boundaries = checkpoints.map((c) => c.dayCount);
    const splices: [string, Piece[]][] = [];
    let keptHistory: PointsText | null = null;
    if (history) {
      // `historyFrom` is 0 when no prefix was resumed or the series check (docs/portfolio.md "Returns", Series check) rebuilt the MWRR series (every point again).
      keptHistory = history.finish(parts.historyFrom > 0 ? prefixOf(resume!.state.history!, parts.historyFrom) : undefined);
      splices.push(["history", ["[", keptHistory, "]"]]);
    }
    let keptAllocation: Record<Dimension, PointsText> | null = null;
    if (allocation) {
      const before = resume?.state.allocation;
      keptAllocation = allocation.finish(before ? (dim) => prefixOf(before[dim], n) : undefined);
      const pieces: Piece[] = ["{"];
      for (const [i, dim] of DIMENSIONS.entries()) pieces.push(`${i > 0 ? "," : ""}${JSON.stringify(dim)}:[`, keptAllocation[dim], "]");
      pieces.push("}");
      splices.push(["allocation_history", pieces]);
    }
    const pieces = splice(dto, splices, boundaries);
    // Sections this request did not ask for keep the points of the days before its checkpoint, for
    // the next request that asks for them.
    const old = resume?.state;
    const state: ScopeState = {
      epoch: "", generation: 0, input, small, from: replayFrom(input).from, checkpoints, days: r.days, incompleteDates: r.incompleteDates, incomePayments: r.incomePayments, prices: r.prices, fx: r.fx,
      growth: parts.growth,
      warm: parts.warm ?? (old?.warm ? old.warm.slice(0, n) : null),
      history: keptHistory ?? (old?.history ? prefixOf(old.history, n) : null),
      historySummary: keptHistory ? input.flags.summary : (old?.historySummary ?? false),
      allocation: keptAllocation ?? (old?.allocation ? mapDimensions((dim) => prefixOf(old.allocation![dim], n)) : null),
      periodReturns: parts.periodReturns ?? (old?.periodReturns ? { ...old.periodReturns, days: Math.min(old.periodReturns.days, n) } : null),
    };
    return { pieces, state };
  }
}

/** A piece of a spliced value: plain text, or points (cut around and at `boundaries`). */
type Piece = string | PointsText;

/**
 * The JSON of `dto` with the value of each `[key, pieces]` of `parts` written in place (each key's
 * value left null in `dto`), as the pieces it may be cut into (`EngineReport.pieces`). The JSON
 * is never joined into one string: the points' text stays the kept strings (sliced at the
 * boundaries), and the worker compresses piece by piece (docs/decisions.md, "Memory at 100k,
 * report phase": a 9.6 M-character string less at the answer's peak).
 */
function splice(dto: Record<string, unknown>, parts: [string, Piece[]][], boundaries: readonly number[]): string[] {
  for (const [key] of parts) dto[key] = `${SLOT}${key}`;
  const text = JSON.stringify(dto);
  const pieces: string[] = [];
  let open: string[] = [];
  const append = (t: string) => { if (t) open.push(t); };
  const cut = () => {
    if (open.length) pieces.push(open.length === 1 ? open[0]! : open.join(""));
    open = [];
  };
  let from = 0;
  for (const [key, values] of parts) {
    const slot = `${JSON.stringify(key)}:${JSON.stringify(`${SLOT}${key}`)}`;
    const at = text.indexOf(slot, from);
    append(text.slice(from, at));
    append(`${JSON.stringify(key)}:`);
    for (const piece of values) {
      if (typeof piece === "string") { append(piece); continue; }
      cut();
      const ends = boundaries.filter((b) => b > 0 && b < piece.ends.length).map((b) => piece.ends[b - 1]!).sort((a, b) => a - b);
      // Each part of the text is cut at the boundaries inside it, and ends a piece.
      let k = 0;
      let offset = 0;
      for (const t of piece.texts) {
        let start = offset;
        const stop = offset + t.length;
        while (k < ends.length && ends[k]! <= start) k++;
        for (; k < ends.length && ends[k]! < stop; k++) {
          append(t.slice(start - offset, ends[k]! - offset));
          cut();
          start = ends[k]!;
        }
        append(start === offset ? t : t.slice(start - offset));
        cut();
        offset = stop;
      }
    }
    from = at + slot.length;
  }
  append(text.slice(from));
  cut();
  return pieces;
}

function mapDimensions(f: (dim: Dimension) => PointsText): Record<Dimension, PointsText> {
  return { type: f("type"), sector: f("sector"), geography: f("geography") };
}

/**
 * What a kept replay holds, in rows: its transactions, closes and rates, and each day's state
 * (counted four times: the figures, the checkpoints' share and the points' text of a day). Its
 * heap grows with these (47 MB for ~170,000 on the dense 20k benchmark ledger), so the sum bounds
 * what the kept replays take.
 */
export function scopeWeight(state: { input: ReportInput; days: { readonly length: number } }): number {
  return inputWeight(state.input) + state.days.length * 4;
}

/** The part of {@link scopeWeight} that comes from the input: its transactions, closes and rates. */
function inputWeight(input: ReportInput): number {
  let rows = txTable(input).length;
  const series = seriesColumns(input);
  for (const q of Object.values(series.quotes)) rows += q.days.length;
  for (const r of Object.values(series.rates)) rows += r.days.length;
  return rows;
}

/** The first `count` points of `kept` (its parts up to them, the last one cut). */
function prefixOf(kept: PointsText, count: number): PointsText {
  const ends = kept.ends.slice(0, count);
  const length = ends.at(-1) ?? 0;
  const texts: string[] = [];
  let offset = 0;
  for (const t of kept.texts) {
    if (offset >= length) break;
    texts.push(offset + t.length <= length ? t : t.slice(0, length - offset));
    offset += t.length;
  }
  return { texts, ends };
}

/**
 * The earliest date whose inputs changed since the state was computed, or null when a change is
 * not dated or the log is not the state's. No change at all: the end date (the last checkpoint).
 */
function resumeDate(state: ScopeState, changes: ReportChanges, end: string): string | null {
  if (state.epoch !== changes.epoch || state.generation > changes.generation) return null;
  let brokers: Set<number> | undefined;
  let assets: Set<number> | undefined;
  // A write on brokers outside the scope (a ledger write names the brokers of its partner legs too:
  // a report reads each row with its partner's date), or prices of assets it never held, changes
  // none of its inputs. A new asset in the scope resumes at the checkpoint before its first row
  // (`incremental`): its prices before it, ignored here, are read whole then.
  const hasBroker = (id: number) => (brokers ??= new Set(state.input.brokers.map((b) => b.id))).has(id);
  const hasAsset = (id: number) => (assets ??= new Set(state.input.assets.map((a) => a.id))).has(id);
  const parts = touchingParts(changes, state.generation, hasBroker, hasAsset);
  if (parts === null) return null;
  let since = end;
  for (const part of parts) {
    if (part.from === null) return null;
    if (part.from < since) since = part.from;
  }
  return since;
}

/**
 * The declared changes noted after `generation` up to `changes.generation` that touch a scope
 * ({@link touches}); null when one of those generations has no note (a manual clear, an undated
 * write: it touches every scope, from the beginning).
 */
function touchingParts(changes: ReportChanges, generation: number, hasBroker: (id: number) => boolean, hasAsset: (id: number) => boolean): NotePart[] | null {
  const byGeneration = new Map(changes.notes.map((n) => [n.generation, n]));
  const parts: NotePart[] = [];
  for (let g = generation + 1; g <= changes.generation; g++) {
    const note = byGeneration.get(g);
    if (note === undefined) return null;
    for (const part of note.parts ?? [{ from: note.from }]) if (touches(part, hasBroker, hasAsset)) parts.push(part);
  }
  return parts;
}

/**
 * Whether a declared change touches a scope: one naming brokers touches the scopes of any of them
 * (a ledger write names the brokers of its partner legs too), one naming assets the scopes holding
 * any of them; one naming neither touches every scope. The one rule for the replays kept here and
 * for the reports kept by the request thread (core/cache/portfolio-caches.ts).
 */
export function touches(part: NotePart, hasBroker: (id: number) => boolean, hasAsset: (id: number) => boolean): boolean {
  if (part.brokers) return part.brokers.some(hasBroker);
  if (part.assets) return part.assets.some(hasAsset);
  return true;
}

/** The brokers and assets of a report's scope: what a declared change must name to touch it ({@link touches}). */
export interface ScopeIds {
  brokers: readonly number[];
  assets: readonly number[];
}

/**
 * Whether no change noted after `generation` up to `changes.generation` touches `scope`: a
 * generation without a note (a manual clear, an undated write) touches every scope.
 */
export function untouchedSince(changes: ReportChanges, generation: number, scope: ScopeIds): boolean {
  return touchingParts(changes, generation, (id) => scope.brokers.includes(id), (id) => scope.assets.includes(id))?.length === 0;
}

/**
 * No report against `changes` or a later state of its log can resume `state`: it was computed
 * against another log, or a write since it was is not dated (notes are only added, so that stays
 * true). A state computed against a newer generation than `changes` (a report that started
 * earlier and finished later) is left for the reports after it.
 */
function neverResumable(state: ScopeState, changes: ReportChanges): boolean {
  if (state.epoch !== changes.epoch) return true;
  return state.generation <= changes.generation && resumeDate(state, changes, "") === null;
}

/** The inputs read whole each time: a change there is not dated, so it recomputes from scratch. */
function smallInputs(input: ReportInput): string {
  return JSON.stringify([input.brokers, input.assets, input.splits, input.fxPairs]);
}

/**
 * Points' JSON built point by point (docs/decisions.md, "Memory, third pass"): each point is
 * written as text when it is made, and a report keeps its points as comma-separated text with the
 * end of each, so an incremental report takes over a prefix without writing it again.
 */
class PointsWriter<P> {
  /** Points joined in runs of {@link POINTS_PER_JOIN}, comma-separated. */
  private readonly runs: string[] = [];
  private pending: string[] = [];
  private readonly lengths: number[] = [];

  constructor(private readonly write: (p: P) => string) {}

  readonly add = (p: P): void => {
    const text = this.write(p);
    this.lengths.push(text.length);
    this.pending.push(text);
    if (this.pending.length === POINTS_PER_JOIN) {
      this.runs.push(this.pending.join(","));
      this.pending = [];
    }
  };

  /** The points of `kept` (a prefix of an earlier run's), then the points added. */
  finish(kept?: PointsText): PointsText {
    const ends = kept ? [...kept.ends] : [];
    let length = ends.at(-1) ?? 0;
    for (const n of this.lengths) {
      length += (length > 0 ? 1 : 0) + n;
      ends.push(length);
    }
    if (this.pending.length > 0) this.runs.push(this.pending.join(","));
    const fresh = this.runs.join(",");
    this.runs.length = 0;
    this.pending = [];
    this.lengths.length = 0;
    const texts = kept ? [...kept.texts] : [];
    if (fresh) texts.push(texts.length > 0 ? `,${fresh}` : fresh);
    return { texts, ends };
  }
}

/**
 * A point's text is made by concatenation, which JavaScriptCore keeps as a tree of ~30 string
 * cells until something reads it whole; joining the points every 64 makes each run one flat string
 * while its trees are still young. Kept until the end instead, a 10-year history's trees were
 * ~400,000 live cells through the replay, marked again by each full collection (docs/decisions.md).
 */
const POINTS_PER_JOIN = 64;

/** The allocation history written day by day, one `PointsWriter` per dimension. */
class AllocationText {
  private readonly writers = { type: new PointsWriter(allocationPointText), sector: new PointsWriter(allocationPointText), geography: new PointsWriter(allocationPointText) };

  constructor(private readonly assets: ReadonlyMap<number, AssetInfo>) {}

  readonly add = (day: DayState): void => {
    const points: Record<Dimension, AllocationPoint> = allocationPoints(day, this.assets);
    for (const dim of DIMENSIONS) this.writers[dim].add(points[dim]);
    day.assetValues = undefined;
  };

  finish(kept?: (dim: Dimension) => PointsText): Record<Dimension, PointsText> {
    return { type: this.writers.type.finish(kept?.("type")), sector: this.writers.sector.finish(kept?.("sector")), geography: this.writers.geography.finish(kept?.("geography")) };
  }
}


