import { inject, injectable } from "tsyringe";
import type { EntityManager } from "typeorm";
import { BrokerAccessService } from "../brokers/broker-access.service.ts";
import { Database } from "../db/database.ts";
import { declareChange } from "../db/data-changes.ts";
import { applyAutoCostBasis } from "./auto-cost-basis.ts";
import { checkBalances } from "./balance-check.ts";
import { applyCreates, resolveCreateLinks } from "./batch-creates.ts";
import { applyDeletes, applyUpdates } from "./batch-edits.ts";
import { finalChecks } from "./batch-final-checks.ts";
import { loadBatch } from "./batch-loader.ts";
import { applyPromotes, applySplits } from "./batch-pairs.ts";
import type { BatchState } from "./batch-state.ts";
import type { BatchInput, BatchOutcome, BatchResultItem, WacResult } from "./batch.types.ts";
import { writeBatch } from "./batch-writer.ts";
import { eventLoopBreather, IMPORT_SLICE_MS, yieldToEventLoop } from "../async/yield-to-event-loop.ts";

/** Thrown inside the write to roll it back while carrying the answer out. */
class RollbackSentinel extends Error {
  constructor(readonly outcome: BatchOutcome) {
    super("rollback");
  }
}

/**
 * The mixed transaction batch (docs/transactions.md "The batch"): deletes → updates → creates → splits →
 * promotes, all or nothing, in one serialised write. `validate` always rolls back; `commit`
 * keeps the work only when no issue was found.
 */
/** Work of the caller done in the batch's own transaction (a draft marked committed with its rows). */
export interface BatchHooks {
  before?(tx: EntityManager): Promise<void>;
  committed?(tx: EntityManager, outcome: BatchOutcome): Promise<void>;
}

@injectable()
export class TransactionBatchService {
  constructor(
    @inject(Database) private readonly db: Database,
    @inject(BrokerAccessService) private readonly access: BrokerAccessService,
  ) {}

  /**
   * `hooks` run inside the batch's own write, so what they store commits or rolls back with the
   * ledger rows: `before` may refuse the batch (throw), `committed` records that it was kept.
   */
  async run(userId: number, input: BatchInput, mode: "validate" | "commit", hooks: BatchHooks = {}): Promise<BatchOutcome> {
    try {
      return await this.db.write(async (tx) => {
        await hooks.before?.(tx);
        const { state, wac } = await executeBatch(tx, this.access, userId, input);
        const outcome = await buildOutcome(state, mode === "commit", wac);
        if (!outcome.committed) throw new RollbackSentinel(outcome);
        // A promote goes through here too. The earliest date covers rows before and after and their partner legs.
        if (outcome.results.length > 0) declareChange(tx, { kind: "ledger", ids: await state.reportBrokers(), from: await state.earliestChange() });
        await hooks.committed?.(tx, outcome);
        return outcome;
      });
    } catch (e) {
      if (e instanceof RollbackSentinel) return e.outcome;
      throw e;
    }
  }
}

/**
 * One batch inside a write the caller holds (and commits or rolls back): the caller's roles and
 * the rows it names are read, the stages run, and only when they found nothing and `write` is
 * true the rows are written, auto cost bases computed and balances checked. An import passes
 * `write: false` when it already refused some of its rows: balances computed without them would
 * mislead. Other writes of the caller (the import's new assets) are visible to the batch.
 */
export async function executeBatch(
  tx: EntityManager, access: BrokerAccessService, userId: number, input: BatchInput, options: { write?: boolean } = {},
): Promise<{ state: BatchState; wac: WacResult[] }> {
  // bun:sqlite is synchronous: between the stages of a large batch other requests get a turn
  // (writes still queue behind this one; reads use the reader connection).
  const state = await loadBatch(tx, access, userId, input);
  await yieldToEventLoop();
  await runStages(state, input);
  let wac: WacResult[] = [];
  if (state.issues.length === 0 && options.write !== false) {
    await yieldToEventLoop();
    await writeBatch(tx, state);
    await yieldToEventLoop();
    wac = await applyAutoCostBasis(tx, state);
    await yieldToEventLoop();
    if (state.issues.length === 0) state.issues.push(...await checkBalances(tx, await state.touchedBrokers(), await state.touchedSince(), state.lookups.brokers));
  }
  return { state, wac };
}

/** The in-memory part of a batch; balance and auto cost basis need the written rows. */
export async function runStages(state: BatchState, input: BatchInput): Promise<void> {
  applyDeletes(state, input.deletes);
  applyUpdates(state, input.updates);
  await applyCreates(state, input.creates);
  applySplits(state, input.splits);
  applyPromotes(state, input.promotes);
  resolveCreateLinks(state);
  await finalChecks(state);
}

/**
 * Results per operation in order of application. Without issues every result is `success`
 * (commit) or `simulated` (validate, ids provisional); with issues the operations that have one
 * are `failed`, the rest `not_attempted` (commit) or `simulated` (validate), and only ids of
 * stored rows are given.
 */
export async function buildOutcome(state: BatchState, commit: boolean, wacResults: WacResult[]): Promise<BatchOutcome> {
  const ok = state.issues.length === 0;
  const failed = new Set(state.issues.map((i) => `${i.operation}:${i.index}`));
  // One plain loop with a turn for other requests every few ms: an import's 50,000 rows, on the request thread.
  const breathe = eventLoopBreather(IMPORT_SLICE_MS);
  const results: BatchResultItem[] = new Array(state.results.length);
  let successCount = 0;
  for (let n = 0; n < state.results.length; n++) {
    await breathe();
    const r = state.results[n]!;
    const ids: number[] = [];
    for (const k of r.keys) if (ok || k.startsWith("t")) ids.push(state.rows.get(k)!.id!);
    const status = ok ? (commit ? "success" : "simulated") : failed.has(`${r.operation}:${r.index}`) ? "failed" : commit ? "not_attempted" : "simulated";
    if (status === "success" || status === "simulated") successCount++;
    results[n] = r.linkUuid
      ? { operation: r.operation, index: r.index, ids, linkUuid: r.linkUuid, status }
      : { operation: r.operation, index: r.index, ids, status };
  }
  return {
    committed: ok && commit,
    results,
    successCount,
    errors: [],
    issues: state.issues,
    wacResults: ok ? wacResults : [],
  };
}
