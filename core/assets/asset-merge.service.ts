import { inject, injectable } from "tsyringe";
import { type EntityManager, In } from "typeorm";
import { Database } from "../db/database.ts";
import { declareChange } from "../db/data-changes.ts";
import { ConflictError, InputError, ValidationError } from "../errors/domain-error.ts";
import { AssetEvent } from "../events/asset-event.entity.ts";
import { PriceHistory } from "../prices/price-history.entity.ts";
import { Transaction } from "../transactions/transaction.entity.ts";
import { Asset } from "./asset.entity.ts";
import { assetNotFound } from "./asset-query.service.ts";
import { parseIdentifierOther } from "./asset.service.ts";
import { ProviderAssignment } from "./provider-assignment.entity.ts";

export interface MergeRequest {
  dryRun: boolean;
  /** Wire identifier column → the value the target keeps when source and target disagree. */
  identifierPrimaries?: Record<string, string>;
  sourceAssetId: number;
  targetAssetId: number;
}

/** What a merge moves and drops (the `preview` of `POST /assets/merge`). */
export interface MergePreview {
  events: number;
  eventsDiscarded: number;
  /** Wire names of the target's identifier columns that gain a value. */
  identifiersAdded: string[];
  prices: number;
  pricesDiscarded: number;
  providerAssignmentDropped: boolean;
  providerAssignmentMoved: boolean;
  transactions: number;
  transactionsRelinked: number;
}

export interface MergeResult {
  dryRun: boolean;
  message: string;
  preview: MergePreview;
  sourceAssetId: number;
  targetAssetId: number;
}

/** The six single-value identifier columns, by wire name. */
export const IDENTIFIER_COLUMNS = {
  identifier_isin: "identifierIsin", identifier_ticker: "identifierTicker", identifier_cusip: "identifierCusip",
  identifier_sedol: "identifierSedol", identifier_figi: "identifierFigi", identifier_uuid: "identifierUuid",
} as const;
type WireColumn = keyof typeof IDENTIFIER_COLUMNS;

interface MergePlan {
  /** Source events to delete, each with the target event its transactions move to (null: unlinked). */
  discarded: { id: number; relinkTo: number | null }[];
  dropAssignmentId: number | null;
  identifierUpdate: Partial<Asset>;
  moveAssignmentId: number | null;
  movedEventIds: number[];
  preview: MergePreview;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * Folds a source asset into a target of the same currency, then deletes the source. Source
 * transactions move to the target. Prices move on days the target has none. Events move unless
 * the target has one of the same date and type (the target's wins and linked transactions are
 * relinked to it). The source's assignment moves when the target has none and is dropped with
 * its prices and events otherwise. Identifiers the target lacks are copied; when both hold
 * different values the target keeps its own (or the one `identifier_primaries` names) and the
 * other joins `identifier_other`. A dry run plans the same and writes nothing.
 */
@injectable()
export class AssetMergeService {
  constructor(
    @inject(Database) private readonly db: Database,
  ) {}

  async merge(request: MergeRequest): Promise<MergeResult> {
    if (request.sourceAssetId === request.targetAssetId) {
      throw new InputError("MERGE_SAME_ASSET", "Source and target must be different assets");
    }
    const run = async (tx: EntityManager) => {
      const { source, target } = await loadPair(tx, request);
      const plan = await planMerge(tx, source, target, request.identifierPrimaries ?? {});
      if (!request.dryRun) {
        await applyMerge(tx, source, target, plan);
        // Transactions, prices and events move between assets: undated.
        declareChange(tx, { kind: "assets", ids: [source.id, target.id] });
      }
      return plan.preview;
    };
    const preview = request.dryRun ? await run(this.db.reads) : await this.db.write(run);
    const { sourceAssetId, targetAssetId, dryRun } = request;
    const message = dryRun
      ? `Merging asset ${sourceAssetId} into ${targetAssetId} would move ${preview.transactions} transaction(s)`
      : `Asset ${sourceAssetId} merged into ${targetAssetId} and deleted`;
    return { sourceAssetId, targetAssetId, dryRun, preview, message };
  }
}

async function loadPair(tx: EntityManager, r: MergeRequest): Promise<{ source: Asset; target: Asset }> {
  const source = await tx.findOneBy(Asset, { id: r.sourceAssetId });
  if (!source) throw assetNotFound(r.sourceAssetId);
  const target = await tx.findOneBy(Asset, { id: r.targetAssetId });
  if (!target) throw assetNotFound(r.targetAssetId);
  if (source.currency !== target.currency) {
    throw new ConflictError("MERGE_CURRENCY_MISMATCH", `Cannot merge an asset in ${source.currency} into one in ${target.currency}`);
  }
  return { source, target };
}

async function planMerge(tx: EntityManager, source: Asset, target: Asset, primaries: Record<string, string>): Promise<MergePlan> {
  const [sourceAssignment, targetAssignment] = await Promise.all([
    tx.findOneBy(ProviderAssignment, { assetId: source.id }), tx.findOneBy(ProviderAssignment, { assetId: target.id }),
  ]);
  const dropAssignmentId = sourceAssignment && targetAssignment ? sourceAssignment.id : null;
  const moveAssignmentId = sourceAssignment && !targetAssignment ? sourceAssignment.id : null;
  const events = await planEvents(tx, source.id, target.id, dropAssignmentId);
  const prices = await planPrices(tx, source.id, target.id, dropAssignmentId);
  const { update, added } = planIdentifiers(source, target, primaries);
  return {
    ...events, dropAssignmentId, moveAssignmentId, identifierUpdate: update,
    preview: {
      transactions: await tx.countBy(Transaction, { assetId: source.id }),
      transactionsRelinked: events.relinked,
      prices: prices.moved, pricesDiscarded: prices.discarded,
      events: events.movedEventIds.length, eventsDiscarded: events.discarded.length,
      providerAssignmentMoved: moveAssignmentId !== null, providerAssignmentDropped: dropAssignmentId !== null,
      identifiersAdded: added,
    },
  };
}

async function planEvents(tx: EntityManager, sourceId: number, targetId: number, dropAssignmentId: number | null) {
  const [sourceEvents, targetEvents] = await Promise.all([
    tx.find(AssetEvent, { where: { assetId: sourceId }, order: { id: "ASC" } }),
    tx.find(AssetEvent, { where: { assetId: targetId }, order: { id: "ASC" } }),
  ]);
  const targetByKey = new Map<string, AssetEvent[]>();
  for (const e of targetEvents) targetByKey.set(`${e.date}|${e.type}`, [...(targetByKey.get(`${e.date}|${e.type}`) ?? []), e]);
  const movedEventIds: number[] = [];
  const discarded: { id: number; relinkTo: number | null }[] = [];
  for (const e of sourceEvents) {
    const matches = targetByKey.get(`${e.date}|${e.type}`) ?? [];
    const dropped = dropAssignmentId !== null && e.providerAssignmentId === dropAssignmentId;
    if (matches.length === 0 && !dropped) {
      movedEventIds.push(e.id);
      continue;
    }
    const manual = e.providerAssignmentId === null;
    const survivor = matches.find((m) => (m.providerAssignmentId === null) === manual) ?? matches[0];
    discarded.push({ id: e.id, relinkTo: survivor?.id ?? null });
  }
  const relinkIds = discarded.filter((d) => d.relinkTo !== null).map((d) => d.id);
  const relinked = relinkIds.length ? await tx.countBy(Transaction, { assetEventId: In(relinkIds) }) : 0;
  return { movedEventIds, discarded, relinked };
}

async function planPrices(tx: EntityManager, sourceId: number, targetId: number, dropAssignmentId: number | null) {
  // Plain SQL both databases speak: CASE for the count of a condition, the dropped assignment as its own clause.
  const kept = dropAssignmentId === null ? "" : " AND (provider_assignment_id IS NULL OR provider_assignment_id <> ?)";
  const [row] = await tx.query(
    `SELECT COUNT(*) AS total,
       COALESCE(SUM(CASE WHEN date NOT IN (SELECT date FROM price_history WHERE asset_id = ?)${kept} THEN 1 ELSE 0 END), 0) AS moved
     FROM price_history WHERE asset_id = ?`,
    dropAssignmentId === null ? [targetId, sourceId] : [targetId, dropAssignmentId, sourceId],
  ) as { moved: number; total: number }[];
  return { moved: Number(row!.moved), discarded: Number(row!.total) - Number(row!.moved) };
}

function planIdentifiers(source: Asset, target: Asset, primaries: Record<string, string>): { added: string[]; update: Partial<Asset> } {
  const update: Partial<Asset> = {};
  const added = new Set<string>();
  const others = parseIdentifierOther(target.identifierOther) ?? [];
  const addOther = (value: string) => {
    if (others.some((o) => same(o, value))) return;
    others.push(value);
    added.add("identifier_other");
  };
  for (const [wire, column] of Object.entries(IDENTIFIER_COLUMNS) as [WireColumn, (typeof IDENTIFIER_COLUMNS)[WireColumn]][]) {
    const s = source[column];
    const t = target[column];
    const primary = primaries[wire];
    if (primary !== undefined && ![s, t].some((v) => v !== null && same(v, primary))) {
      throw new ValidationError([{ loc: ["body", "identifier_primaries", wire], msg: "must be the source's or the target's value", type: "value_error" }]);
    }
    if (s === null || (t !== null && same(s, t))) continue;
    if (t === null) {
      update[column] = s;
      added.add(wire);
    } else if (primary !== undefined && same(primary, s)) {
      update[column] = s;
      addOther(t);
    } else {
      addOther(s);
    }
  }
  for (const o of parseIdentifierOther(source.identifierOther) ?? []) addOther(o);
  if (added.has("identifier_other")) update.identifierOther = JSON.stringify(others);
  return { added: [...added].sort(), update };
}

async function applyMerge(tx: EntityManager, source: Asset, target: Asset, plan: MergePlan): Promise<void> {
  for (const { id, relinkTo } of plan.discarded) {
    await tx.update(Transaction, { assetEventId: id }, { assetEventId: relinkTo });
  }
  if (plan.discarded.length) await tx.delete(AssetEvent, { id: In(plan.discarded.map((d) => d.id)) });
  if (plan.movedEventIds.length) await tx.update(AssetEvent, { id: In(plan.movedEventIds) }, { assetId: target.id });
  const kept = plan.dropAssignmentId === null ? "" : " AND (provider_assignment_id IS NULL OR provider_assignment_id <> ?)";
  await tx.query(
    `UPDATE price_history SET asset_id = ? WHERE asset_id = ?${kept}
       AND date NOT IN (SELECT date FROM price_history WHERE asset_id = ?)`,
    plan.dropAssignmentId === null ? [target.id, source.id, target.id] : [target.id, source.id, plan.dropAssignmentId, target.id],
  );
  if (plan.moveAssignmentId !== null) await tx.update(ProviderAssignment, { id: plan.moveAssignmentId }, { assetId: target.id });
  await tx.update(Transaction, { assetId: source.id }, { assetId: target.id });
  if (Object.keys(plan.identifierUpdate).length) await tx.update(Asset, { id: target.id }, plan.identifierUpdate);
  await tx.delete(Asset, { id: source.id });
}
