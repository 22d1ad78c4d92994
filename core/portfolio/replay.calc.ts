/**
 * The daily replay (docs/portfolio.md "Daily replay"): every calendar day from the first
 * transaction in scope to the end date applies that day's transactions to the ledger
 * (`replay-ledger.ts`), then, inside the period, values the portfolio at the end of the day.
 */
import { addMonths, dayNumber, daysBetween, eachDay } from "../dates/calendar.ts";
import { Decimal, isAboveZero } from "../money/decimal.ts";
import { FxTable } from "./fx-table.calc.ts";
import { PriceBook } from "./price-book.calc.ts";
import { type DayState, type IncomePayment, type LedgerSnapshot, type Position, ReplayLedger, type Totals, type TransitItem } from "./replay-ledger.ts";
import { type ReportInput, seriesColumns, txTable } from "./report-input.ts";
import { emptyTx } from "./tx-columns.ts";

export { type DayState, Position, ReplayLedger, type Totals, type TransitItem } from "./replay-ledger.ts";

export interface ReplayResult {
  start: string;
  end: string;
  days: DayState[];
  positions: Position[];
  /** broker → currency → share-weighted amount at the end date. */
  cash: Map<number, Map<string, Decimal>>;
  transit: TransitItem[];
  total: Totals;
  period: Totals;
  /** Every income payment up to the end date, in the order replayed. */
  incomePayments: IncomePayment[];
  /** broker → period income and fees/taxes not tied to an asset. */
  unallocated: Map<number, { income: Decimal; feesTaxes: Decimal }>;
  /** broker → cumulative external flows of that broker (internal transfers count at broker level). */
  brokerBaseline: Map<number, Decimal>;
  /** asset → transactions adding quantity without a known cost (MISSING_COST_BASIS). */
  missingCostBasis: Map<number, number>;
  /** asset → date of its first BUY or SELL in scope. */
  firstTrade: Map<number, string>;
  incompleteDates: string[];
  prices: PriceBook;
  fx: FxTable;
}

/**
 * The replay's state at the start of a day (before its transactions): what an incremental
 * report resumes from when every input dated before `date` is unchanged (docs/decisions.md).
 */
export interface Checkpoint {
  date: string;
  /** Days valued before `date` (the prefix of `days` to keep). */
  dayCount: number;
  ledger: LedgerSnapshot;
  fxMissing: [string, string[]][];
  /** Source currencies converted with the user's private rates before `date`. */
  fxPrivate: string[];
}

export interface ReplayOptions {
  /**
   * Resume at this checkpoint; `days`, `incompleteDates`, `prices` and `fx` are the run's that
   * produced it (its trade days and parsed rates before the checkpoint are taken over).
   */
  resume?: {
    checkpoint: Checkpoint; days: readonly DayState[]; incompleteDates: readonly string[]; incomePayments: readonly IncomePayment[];
    prices?: PriceBook; fx?: FxTable;
  };
  /** Collects a checkpoint on every `checkpointDue` day after the first replayed day. */
  checkpoints?: Checkpoint[];
  /**
   * Called with each day valued by this run, as soon as it is (a resumed run's earlier days are
   * not), and the number of rows replayed since the day valued before it (out-of-scope ones too).
   */
  onDay?: (day: DayState, applied: number) => void;
}

/**
 * Where the replay keeps a checkpoint: the first of each of the 12 months before the end date's
 * month and of that month, and 1 January of every earlier year. Edits are mostly recent; one dated
 * earlier resumes at its year's start (a year of replay, well under the incremental target), and
 * a 10-year ledger keeps ~22 snapshots instead of 120 (dense 20k: ~10 MB less live heap in the
 * replay, which JavaScriptCore doubles in RSS: docs/decisions.md, "Memory, second pass").
 */
export function checkpointDue(end: string): (date: string) => boolean {
  const monthlyFrom = addMonths(`${end.slice(0, 8)}01`, -12);
  return (date) => date.endsWith("-01") && (date >= monthlyFrom || date.endsWith("-01-01"));
}

/** The first replayed day: the first transaction in scope, or the start when earlier. */
export function replayFrom(input: ReportInput): { from: string; start: string } {
  const txs = txTable(input);
  const first = (txs.length > 0 ? txs.date(0) : null) ?? input.start ?? input.end;
  const start = input.start ?? first;
  return { from: start < first ? start : first, start };
}

/** How many days a replay of `input` values (its `days`): from the start to the end. */
export function replayDays(input: ReportInput): number {
  const { start } = replayFrom(input);
  return start > input.end ? 0 : daysBetween(start, input.end) + 1;
}

export function replay(input: ReportInput, options: ReplayOptions = {}): ReplayResult {
  const resume = options.resume;
  const reuse = resume?.prices && { book: resume.prices, before: resume.checkpoint.date };
  const series = seriesColumns(input);
  const txs = txTable(input);
  const prices = new PriceBook(input.assets, series.quotes, input.splits, txs, reuse);
  const fx = new FxTable(input.target, input.fxPairs, series.rates, resume?.fx && { table: resume.fx, before: resume.checkpoint.date });
  // One object the ledger reads each transaction through, refilled per row.
  const cursor = emptyTx();
  const { from, start } = replayFrom(input);
  const end = input.end;
  const ledger = new ReplayLedger(input, start, prices, fx);
  let days: DayState[] = [];

  let i = 0;
  let resumeAt = from;
  if (resume) {
    const cp = resume.checkpoint;
    ledger.restore(cp.ledger, resume.incompleteDates, resume.incomePayments);
    fx.restoreMissing(cp.fxMissing);
    fx.restorePrivate(cp.fxPrivate);
    days = resume.days.slice(0, cp.dayCount);
    i = txs.firstFrom(dayNumber(cp.date));
    resumeAt = cp.date;
  }
  const checkpoints = options.checkpoints;
  const due = checkpointDue(end);
  let applied = 0;
  for (const date of eachDay(resumeAt, end)) {
    if (checkpoints && date !== from && due(date) && (!resume || date !== resumeAt)) {
      checkpoints.push({ date, dayCount: days.length, ledger: ledger.snapshot(), fxMissing: fx.missingSnapshot(), fxPrivate: fx.privateSnapshot() });
    }
    ledger.beginDay();
    let j = i;
    if (j < txs.length) {
      const day = dayNumber(date);
      while (j < txs.length && txs.day(j) === day) j++;
    }
    if (j > i) {
      // Same-day additions before reductions (the WAC rule), otherwise by id.
      const today: { k: number; units: Decimal; adds: boolean }[] = [];
      for (let k = i; k < j; k++) {
        const units = txs.quantityDecimal(k);
        today.push({ k, units, adds: isAboveZero(units) });
      }
      applied += j - i;
      if (today.length > 1) today.sort((a, b) => Number(b.adds) - Number(a.adds) || txs.id(a.k) - txs.id(b.k));
      for (const { k, units } of today) if (ledger.inScope(txs.brokerId(k))) ledger.apply(txs.read(k, cursor), units, txs.amountDecimal(k));
      i = j;
    }
    if (date === start) ledger.markStart();
    if (date >= start) {
      const day = ledger.value(date);
      days.push(day);
      options.onDay?.(day, applied);
      applied = 0;
    }
  }

  return {
    start, end, days, positions: ledger.allPositions(), cash: ledger.cash, transit: [...ledger.transit.values()], total: ledger.total,
    period: ledger.period, brokerBaseline: ledger.brokerBaseline, unallocated: ledger.unallocated, incomePayments: ledger.incomePayments, missingCostBasis: ledger.missingCostBasis,
    firstTrade: ledger.firstTrade, incompleteDates: ledger.incompleteDates, prices, fx,
  };
}
