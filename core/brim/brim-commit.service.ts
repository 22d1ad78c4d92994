import { inject, injectable } from "tsyringe";
import type { EntityManager } from "typeorm";
import { AssetService, type NewAsset } from "../assets/asset.service.ts";
import { eventLoopBreather, IMPORT_SLICE_MS, yieldToEventLoop } from "../async/yield-to-event-loop.ts";
import { BrokerAccessService } from "../brokers/broker-access.service.ts";
import { declareChange } from "../db/data-changes.ts";
import { Database } from "../db/database.ts";
import { ConflictError, ValidationError } from "../errors/domain-error.ts";
import { selectIn } from "../transactions/batch-loader.ts";
import { buildOutcome, executeBatch } from "../transactions/batch.service.ts";
import type { BatchInput, CreateInput } from "../transactions/batch.types.ts";
import { BrimFile } from "./brim-file.entity.ts";
import { BrimFileService, lastParsePath } from "./brim-file.service.ts";
import { type CommitDecisions, type CommitPlan, decideRows, factsOf, type ImportIssue, type PlannedRow, type RowDecision } from "./commit-plan.calc.ts";
import type { LedgerFact } from "./duplicates.calc.ts";
import { IMPORT_PLUGINS, type ImportPluginDirectory } from "./import-plugins.ts";
import type { DuplicateLevel, DuplicateReportDoc } from "./parse-result.ts";
import { duplicateReport, LEDGER_GENERATION_SQL, LEDGER_SQL, ledgerParams } from "./pipeline.ts";

export interface CommitRequest {
  decisions: CommitDecisions;
  /** Write nothing; answer what would be written. */
  dryRun: boolean;
  fileId: string;
  /** The `parseToken` of the dry run this commit confirms; another stored parse is refused. */
  parseToken: string | null;
  userId: number;
}

/** A row the import writes (or would write), with its final fields. */
export interface CommittedRow {
  /** The ledger create as written: asset resolved (null for an asset a dry run would create); null when its fields could not be read. */
  create: CreateInput | null;
  planned: PlannedRow;
  transactionId: number | null;
}

export interface CommittedAsset {
  action: "create" | "use";
  /** The existing asset, or the one created (null on a dry run or when it could not be created). */
  assetId: number | null;
  currency: string | null;
  fakeAssetId: number;
  /** The fields of an asset to create. */
  fields: NewAsset | null;
  name: string | null;
  rows: number;
}

/** The answer of a commit or dry run: the same shape either way. */
export interface CommitOutcome {
  assets: CommittedAsset[];
  brokerId: number;
  committed: boolean;
  dryRun: boolean;
  duplicates: { existingIds: number[]; level: DuplicateLevel | "in_file"; row: number; sameAsRows: number[]; skipped: boolean }[];
  fileId: string;
  issues: ImportIssue[];
  parseToken: string;
  rowCount: number;
  rows: CommittedRow[];
  skipped: { reason: "duplicate" | "skipped"; row: number }[];
}

/** Carries a dry run's or a refused commit's answer out of the write while rolling it back. */
class RollbackSentinel extends Error {
  constructor(readonly outcome: CommitOutcome) {
    super("rollback");
  }
}

const parseMissing = (fileId: string) =>
  new ConflictError("PARSE_MISSING", `Import file ${fileId} has no parse to commit: parse it first`, { file_id: fileId });
const parseChanged = (fileId: string) =>
  new ConflictError("PARSE_CHANGED", `Import file ${fileId} was parsed again since this import was reviewed: review the new parse`, { file_id: fileId });
/** How long a dry run's plan waits for the commit that confirms it. */
const PLAN_REUSE_MS = 10 * 60_000;
const time = (d: Date | string | null) => (d === null ? null : new Date(d).getTime());

/** The worker's plan, its rows read a slice per turn of the event loop (50,000 rows are ~17 MB of JSON). */
async function readPlan(head: string, slices: readonly string[]): Promise<CommitPlan> {
  const rows: PlannedRow[] = [];
  for (const slice of slices) {
    for (const row of JSON.parse(slice) as PlannedRow[]) rows.push(row);
    await yieldToEventLoop();
  }
  return { ...(JSON.parse(head) as Omit<CommitPlan, "rows">), rows };
}

/**
 * The rows left out, by row: the user's skips then the duplicates not kept on the same row (as a
 * stable sort of both would give), merged with `breathe()` between entries. Each list is sorted first
 * when it is not yet (the duplicates come in the parse's order, so normally they are).
 */
async function byRow(skips: CommitOutcome["skipped"], duplicates: CommitOutcome["skipped"], breathe: () => Promise<void>): Promise<CommitOutcome["skipped"]> {
  const sorted = (l: CommitOutcome["skipped"]) => (l.every((s, i) => i === 0 || l[i - 1]!.row <= s.row) ? l : l.sort((a, b) => a.row - b.row));
  const a = sorted(skips);
  const b = sorted(duplicates);
  const out: CommitOutcome["skipped"] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    await breathe();
    out.push(j >= b.length || (i < a.length && a[i]!.row <= b[j]!.row) ? a[i++]! : b[j++]!);
  }
  return out;
}

/**
 * One import commit (`POST /brokers/import/files/{id}/commit`), as stages in order (the shape of
 * the transaction batch): load the file and its stored parse (EDITOR on the file's and the
 * target broker; a missing or stale parse refused) → plan off the request thread (edits, skips,
 * field checks, asset decisions, duplicates against a ledger snapshot) → in ONE write: the parse is
 * still the one planned, duplicates re-read when the ledger moved since the snapshot, duplicates
 * and pairs decided, the new assets created (the caller their keeper), the rows through the
 * ledger's batch with every rule. Any issue, an error or a dry run rolls the whole write back: no
 * asset and no row stays behind. A dry run answers exactly what the commit would write.
 */
@injectable()
export class BrimCommitService {
  constructor(
    @inject(Database) private readonly db: Database,
    @inject(BrokerAccessService) private readonly access: BrokerAccessService,
    @inject(BrimFileService) private readonly files: BrimFileService,
    @inject(IMPORT_PLUGINS) private readonly plugins: ImportPluginDirectory,
    @inject(AssetService) private readonly assets: AssetService,
  ) {}

  /**
   * The plan of the last dry run, for the commit that confirms it (same user, file, stored parse and
   * decisions): the worker's half, seconds for 50,000 rows, is not made twice. The write checks the
   * parse and the ledger again either way, so a reused plan commits exactly what a new one would.
   */
  private lastPlan: { at: number; key: string; parseToken: string; plan: CommitPlan } | null = null;

  async commit(dir: string, request: CommitRequest): Promise<CommitOutcome> {
    const { file, plan, parseToken } = await this.load(dir, request);
    try {
      return await this.db.write(async (tx) => {
        const outcome = await this.write(tx, request, file, plan, parseToken);
        const answer = outcome.answer;
        if (!answer.committed) throw new RollbackSentinel(answer);
        // New assets change what the report reads whole (it recomputes then); the rows are dated.
        if (answer.rows.length > 0 || answer.assets.some((a) => a.action === "create")) {
          declareChange(tx, { kind: "ledger", ids: [file.brokerId, ...outcome.touched], from: outcome.changedFrom });
        }
        // SQLite's COMMIT of a large import is one synchronous step of its own: a turn first.
        await yieldToEventLoop();
        return answer;
      });
    } catch (e) {
      if (e instanceof RollbackSentinel) return e.outcome;
      throw e;
    }
  }

  /** The file with write access, its parse present and current, and the plan made from it in the worker pool. */
  private async load(dir: string, request: CommitRequest): Promise<{ file: BrimFile; parseToken: string; plan: CommitPlan }> {
    const file = await this.files.get(request.userId, request.fileId, "EDITOR");
    if (file.status !== "parsed") throw parseMissing(file.id);
    if (this.files.isStale(file)) {
      throw new ConflictError("PARSE_STALE", `The importer that read file ${file.id} has changed since: parse it again and review the new parse`, {
        file_id: file.id, plugin_code: file.parsedPluginCode, parsed_plugin_version: file.parsedPluginVersion,
      });
    }
    if (request.decisions.brokerId !== null) await this.access.require(request.userId, request.decisions.brokerId, "EDITOR");
    const decisions = JSON.stringify(request.decisions);
    const key = [request.userId, file.id, time(file.processedAt), file.parsedPluginVersion, decisions].join("\u0000");
    const reused = this.lastPlan?.key === key && Date.now() - this.lastPlan.at < PLAN_REUSE_MS ? this.lastPlan : null;
    this.lastPlan = null;
    let found: { parseToken: string; plan: CommitPlan };
    if (reused) found = reused;
    else {
      const run = await this.plugins.commitPlan({ parsePath: lastParsePath(dir, file.id), decisions });
      if (!run.ok && "missing" in run) throw parseMissing(file.id);
      if (!run.ok) throw new ValidationError(run.issues);
      found = { parseToken: run.parseToken, plan: await readPlan(run.plan, run.rows) };
    }
    if (request.parseToken !== null && request.parseToken !== found.parseToken) throw parseChanged(file.id);
    // The parse's own broker when the request names none: the same write role as committing transactions.
    if (request.decisions.brokerId === null) await this.access.require(request.userId, found.plan.brokerId, "EDITOR");
    if (request.dryRun) {
      const kept = { key, at: Date.now(), ...found };
      this.lastPlan = kept;
      // A plan of 50,000 rows is tens of MB: not kept for a commit that never comes.
      setTimeout(() => { if (this.lastPlan === kept) this.lastPlan = null; }, PLAN_REUSE_MS).unref();
    }
    return { file, ...found };
  }

  /** The write's stages; run again from the start when PostgreSQL retries the transaction, so nothing here changes `plan`. */
  private async write(tx: EntityManager, request: CommitRequest, file: BrimFile, plan: CommitPlan, parseToken: string): Promise<{ answer: CommitOutcome; changedFrom: string | null; touched: number[] }> {
    const stored = await tx.findOneBy(BrimFile, { id: file.id });
    if (!stored || stored.status !== "parsed" || time(stored.processedAt) !== time(file.processedAt)) throw parseChanged(file.id);

    const report = await this.currentDuplicates(tx, plan);
    const { decisions, issues: pairIssues } = await decideRows(plan, report);
    const written: RowDecision[] = [];
    const writtenRows = new Set<number>();
    const usedAssets = new Set<number>();
    const breathe = eventLoopBreather(IMPORT_SLICE_MS);
    for (const d of decisions) {
      await breathe();
      if (!d.write) continue;
      written.push(d);
      writtenRows.add(d.planned.row);
      if (d.planned.fakeAssetId !== null) usedAssets.add(d.planned.fakeAssetId);
    }
    // Problems of rows left out (a duplicate not kept) and of assets only they use are moot.
    const issues: ImportIssue[] = [
      ...plan.issues.filter((i) => i.row === null ? i.fakeAssetId === null || usedAssets.has(i.fakeAssetId) : writtenRows.has(i.row)),
      ...pairIssues,
    ];
    const assets = await this.createAssets(tx, plan, usedAssets, written, request.userId, issues);
    await yieldToEventLoop();

    const blocked = new Set(issues.flatMap((i) => (i.row === null ? [] : [i.row])));
    const realAsset = new Map(assets.flatMap((a) => (a.assetId === null ? [] : [[a.fakeAssetId, a.assetId] as const])));
    const failedAssets = new Set(assets.filter((a) => a.assetId === null && a.action === "create").map((a) => a.fakeAssetId));
    const batchRows: { committed: CommittedRow; create: CreateInput; decision: RowDecision }[] = [];
    const creates: BatchInput["creates"] = [];
    const rows: CommittedRow[] = [];
    for (const decision of written) {
      await breathe();
      const p = decision.planned;
      const assetId = p.newAsset ? realAsset.get(p.fakeAssetId!) ?? null : p.assetId;
      const create = p.create ? { ...p.create, assetId } : null;
      const refused = create === null || blocked.has(p.row) || (p.newAsset && failedAssets.has(p.fakeAssetId!));
      const committed: CommittedRow = { planned: p, create, transactionId: null };
      if (!refused) {
        batchRows.push({ committed, create: create!, decision });
        creates.push({ ok: true, value: create! });
      }
      rows.push(committed);
    }
    const input: BatchInput = { creates, updates: [], deletes: [], splits: [], promotes: [] };
    const { state, wac } = await executeBatch(tx, this.access, request.userId, input, { write: issues.length === 0 });
    // The steps after the batch walk all rows once each (~0.1 s for 50,000 on a loaded machine): a
    // turn for other requests between them, so no two of them hold the loop back to back.
    await yieldToEventLoop();
    for (const i of state.issues) {
      issues.push({
        row: i.index >= 0 ? batchRows[i.index]!.decision.planned.row : null, fakeAssetId: null, code: i.code, message: i.error,
        field: i.field ?? null, params: i.params ?? null,
      });
    }
    const commit = !request.dryRun && issues.length === 0;
    const outcome = await buildOutcome(state, commit, wac);
    await yieldToEventLoop();
    if (outcome.committed) {
      batchRows.forEach((r, k) => { r.committed.transactionId = outcome.results[k]!.ids[0] ?? null; });
    } else {
      // Nothing of a dry run or a refused commit stays: new assets have no id to show.
      for (const a of assets) if (a.action === "create") a.assetId = null;
      for (const r of rows) {
        await breathe();
        if (r.planned.newAsset && r.create) r.create = { ...r.create, assetId: null };
      }
    }
    // A re-import makes every row a duplicate: both lists are as long as the rows, so they are built in turns too.
    const duplicates: CommitOutcome["duplicates"] = [];
    const left: CommitOutcome["skipped"] = [];
    for (const d of decisions) {
      await breathe();
      if (!d.write) left.push({ row: d.planned.row, reason: "duplicate" });
      if (d.duplicate) {
        duplicates.push({
          row: d.planned.row, level: d.duplicate.level, existingIds: d.duplicate.existingIds, sameAsRows: d.duplicate.sameAsRows, skipped: d.duplicate.skipped,
        });
      }
    }
    const answer: CommitOutcome = {
      dryRun: request.dryRun, committed: outcome.committed, fileId: file.id, brokerId: plan.brokerId, parseToken, rowCount: plan.rowCount,
      rows, assets, issues, duplicates,
      skipped: await byRow(plan.skipped.map((row) => ({ row, reason: "skipped" as const })), left, breathe),
    };
    await yieldToEventLoop();
    const changedFrom = outcome.committed ? await state.earliestChange() : null;
    // Every broker whose report inputs it changed (a linked leg may be another broker's): reports of the others stay kept.
    const touched = outcome.committed ? await state.reportBrokers() : [];
    await yieldToEventLoop();
    return { answer, changedFrom, touched };
  }

  /** The worker's report while the ledger has not moved since its snapshot; else read again here, inside the write. */
  private async currentDuplicates(tx: EntityManager, plan: CommitPlan): Promise<DuplicateReportDoc> {
    const [row] = (await tx.query(LEDGER_GENERATION_SQL)) as { generation: unknown }[];
    if (String(row?.generation ?? "") === plan.generation) return plan.duplicates;
    const choices = new Map<number, number | null>();
    for (const a of plan.assets) choices.set(a.fakeAssetId, a.action === "use" ? a.assetId : null);
    const selected = [...new Set(plan.rows.flatMap((r) => (r.fakeAssetId === null ? [] : [r.fakeAssetId])))]
      .map((fake) => ({ fake_asset_id: fake, selected_asset_id: choices.get(fake) ?? null }));
    return duplicateReport(plan.rows.map(factsOf), selected,
      async (from, to) => (await tx.query(LEDGER_SQL, ledgerParams(plan.brokerId, from, to))) as LedgerFact[]);
  }

  /** The assets the written rows take from the report: existing ones read, new ones created in this write (failures become issues). */
  private async createAssets(
    tx: EntityManager, plan: CommitPlan, used: Set<number>, written: RowDecision[], userId: number, issues: ImportIssue[],
  ): Promise<CommittedAsset[]> {
    const rowsOf = new Map<number, number>();
    const breathe = eventLoopBreather(IMPORT_SLICE_MS);
    for (const d of written) {
      await breathe();
      if (d.planned.fakeAssetId !== null) rowsOf.set(d.planned.fakeAssetId, (rowsOf.get(d.planned.fakeAssetId) ?? 0) + 1);
    }
    const planned = plan.assets.filter((a) => used.has(a.fakeAssetId));
    const existing = new Map((await selectIn<{ id: number; name: string; currency: string }>(
      tx, (p) => `SELECT id, name, currency FROM assets WHERE id IN (${p})`, planned.flatMap((a) => (a.action === "use" ? [a.assetId] : [])),
    )).map((a) => [a.id, a]));
    const toCreate = planned.flatMap((a) => (a.action === "create" && a.fields ? [a] : []));
    // One at a time, other requests served in between (bun:sqlite answers synchronously; one
    // TypeORM insert is a few ms of the request thread, five in a row held it 10–25 ms).
    const created = await this.assets.createIn(tx, toCreate.map((a) => a.fields!), userId, yieldToEventLoop);
    const createdOf = new Map(toCreate.map((a, k) => [a.fakeAssetId, created[k]!]));
    return planned.map((a): CommittedAsset => {
      const rows = rowsOf.get(a.fakeAssetId) ?? 0;
      if (a.action === "use") {
        const found = existing.get(a.assetId);
        return { action: "use", fakeAssetId: a.fakeAssetId, assetId: a.assetId, name: found?.name ?? null, currency: found?.currency ?? null, fields: null, rows };
      }
      const base = { action: "create" as const, fakeAssetId: a.fakeAssetId, fields: a.fields, name: a.fields?.name ?? null, currency: a.fields?.currency ?? null, rows };
      if (a.issue) {
        issues.push({ row: null, fakeAssetId: a.fakeAssetId, ...a.issue });
        return { ...base, assetId: null };
      }
      const out = createdOf.get(a.fakeAssetId)!;
      if (out.success) return { ...base, assetId: out.assetId };
      issues.push({
        row: null, fakeAssetId: a.fakeAssetId, code: "assetNameTaken", message: out.message, field: "name", params: { name: out.name },
      });
      return { ...base, assetId: null };
    });
  }
}
