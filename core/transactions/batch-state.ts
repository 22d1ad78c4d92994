import { eventLoopBreather, IMPORT_SLICE_MS } from "../async/yield-to-event-loop.ts";
import type { BrokerRole } from "../brokers/broker-access.entity.ts";
import { roleAtLeast } from "../brokers/broker-access.service.ts";
import type { AssetEventType } from "../events/asset-event.entity.ts";
import type { BrokerFlags } from "./balance-check.ts";
import type { BatchIssue, Operation, RuleError } from "./batch.types.ts";
import type { LedgerRow } from "./ledger-row.ts";
import { packRuleErrors, type RowFacts } from "./row-validation.calc.ts";

/** What the batch looked up once before working: the caller's roles, assets and events. */
export interface BatchLookups {
  assets: Map<number, { currency: string; name?: string }>;
  events: Map<number, { assetId: number; type: AssetEventType }>;
  roles: Map<number, BrokerRole>;
  /**
   * The brokers in `roles`: their names, so issues name them (`params.broker_name`) instead of
   * giving an id, and the flags the balance check reads (one read of them per batch).
   */
  brokers?: Map<number, BrokerFlags>;
}

export interface OpRef {
  index: number;
  operation: Operation;
}

export interface ResultDraft extends OpRef {
  keys: string[];
  linkUuid?: string;
}

/**
 * The working set of one batch: every row it read or made, in its current state, plus the
 * issues and per-operation results so far. Stages change rows here; nothing touches the
 * database until every stage has run without an issue.
 */
export class BatchState {
  readonly rows = new Map<string, LedgerRow>();
  readonly deleted = new Set<string>();
  /** Stored rows whose columns changed. */
  readonly dirty = new Set<string>();
  /** Keys of rows created by this batch, in create order (added with `addCreated`). */
  readonly created: string[] = [];
  /** The same keys as a set (keys are unique, so equal sizes mean current). */
  private createdKeys = new Set<string>();
  readonly touchedBy = new Map<string, OpRef[]>();
  /** Broker and date of each stored row as loaded, before this batch changed it. */
  readonly stored = new Map<string, { brokerId: number; date: string }>();
  readonly issues: BatchIssue[] = [];
  readonly results: ResultDraft[] = [];
  /** link_uuid → keys of valid creates carrying it; `linkCounts` counts every parsed create. */
  readonly linkKeys = new Map<string, string[]>();
  readonly linkCounts = new Map<string, { count: number; indexes: number[]; paired: boolean }>();
  readonly consumedUuids = new Set<string>();
  /** Stored paired rows changed by updates, to re-check against their partner at the end. */
  readonly pairRechecks: { key: string; op: OpRef }[] = [];

  constructor(readonly lookups: BatchLookups) {}

  /** A stored row as this batch now sees it, or undefined when unknown, invisible or deleted. */
  visible(key: string): LedgerRow | undefined {
    const row = this.rows.get(key);
    if (!row || this.deleted.has(key) || !this.lookups.roles.has(row.brokerId)) return undefined;
    return row;
  }

  /** The broker's name for messages (its id when unknown), and the params that carry it. */
  brokerLabel(brokerId: number): { name: string; params: { broker_id: number; broker_name?: string } } {
    const name = this.lookups.brokers?.get(brokerId)?.name;
    return { name: name === undefined ? `broker ${brokerId}` : `broker "${name}"`, params: { broker_id: brokerId, ...(name === undefined ? {} : { broker_name: name }) } };
  }

  /** The asset's name for messages (its id when unknown), and the params that carry it. */
  assetLabel(assetId: number): { name: string; params: { asset_id: number; asset_name?: string } } {
    const name = this.lookups.assets.get(assetId)?.name;
    return { name: name === undefined ? `asset ${assetId}` : `"${name}"`, params: { asset_id: assetId, ...(name === undefined ? {} : { asset_name: name }) } };
  }

  canWrite(brokerId: number): boolean {
    const role = this.lookups.roles.get(brokerId);
    return role !== undefined && roleAtLeast(role, "EDITOR");
  }

  /** A row created by this batch: kept in order and in the set `written` asks. */
  addCreated(key: string): void {
    this.created.push(key);
    this.createdKeys.add(key);
  }

  /**
   * A row this batch deletes, changes or creates. The walks below ask it once per row: a set of the
   * created keys made per walk (in one piece, on the request thread) cost more than the walk itself
   * on a 50,000-row import. A key pushed to `created` directly is picked up here.
   */
  private written(key: string): boolean {
    if (this.createdKeys.size !== this.created.length) this.createdKeys = new Set(this.created);
    return this.deleted.has(key) || this.dirty.has(key) || this.createdKeys.has(key);
  }

  touch(key: string, op: OpRef): void {
    const list = this.touchedBy.get(key);
    if (list) list.push(op);
    else this.touchedBy.set(key, [op]);
  }

  addIssue(issue: BatchIssue | null): boolean {
    if (issue) this.issues.push(issue);
    return issue !== null;
  }

  rule(errors: RuleError[], op: OpRef, refId?: number): boolean {
    return this.addIssue(packRuleErrors(errors, op.operation, op.index, refId));
  }

  /** Records an operation's result; whether it failed is read from the issues at the end. */
  result(op: OpRef, keys: string[], linkUuid?: string | null): void {
    this.results.push({ ...op, keys, ...(linkUuid ? { linkUuid } : {}) });
  }

  /** The facts the per-row checks need about a row's asset and event. */
  facts(row: LedgerRow, linkUuid: string | null = null, requireLink = false): RowFacts {
    const event = row.assetEventId === null ? null : this.lookups.events.get(row.assetEventId) ?? null;
    return { row, assetKnown: row.assetId !== null && this.lookups.assets.has(row.assetId), event, linkUuid, requireLink };
  }

  eventType(row: LedgerRow): AssetEventType | null {
    return row.assetEventId === null ? null : this.lookups.events.get(row.assetEventId)?.type ?? null;
  }

  /**
   * Per touched broker, the earliest date whose balances this batch can change: the date of every
   * row it writes, and the stored date of every stored row it changes or deletes (before and after
   * a move). Balances before that date are unchanged. Like the other walks over every row below,
   * it gives other requests a turn every few ms (an import's 50,000 rows, on the request thread).
   */
  async touchedSince(): Promise<Map<number, string>> {
    const out = new Map<number, string>();
    const note = (brokerId: number, date: string) => {
      const d = out.get(brokerId);
      if (d === undefined || date < d) out.set(brokerId, date);
    };
    const breathe = eventLoopBreather(IMPORT_SLICE_MS);
    for (const [key, row] of this.rows) {
      await breathe();
      if (!this.written(key)) continue;
      note(row.brokerId, row.date);
      const before = this.stored.get(key);
      if (before) note(before.brokerId, before.date);
    }
    return out;
  }

  /**
   * The earliest date a report's inputs change at (docs/decisions.md, "Incremental report"): the dates of every
   * row written (before and after a move) and of their partner legs (a report reads each row
   * with its partner's broker and date). Null when a partner is not known here.
   */
  async earliestChange(): Promise<string | null> {
    let min: string | null = null;
    const note = (d: string) => { if (min === null || d < min) min = d; };
    const breathe = eventLoopBreather(IMPORT_SLICE_MS);
    for (const [key, row] of this.rows) {
      await breathe();
      if (!this.written(key)) continue;
      note(row.date);
      const before = this.stored.get(key);
      if (before) note(before.date);
      if (row.relatedKey !== null) {
        const partner = this.rows.get(row.relatedKey);
        if (!partner) return null;
        note(partner.date);
        const partnerBefore = this.stored.get(row.relatedKey);
        if (partnerBefore) note(partnerBefore.date);
      }
    }
    return min;
  }

  /**
   * The brokers whose report inputs this batch changed (docs/portfolio.md "Caches"): the brokers of
   * every row written (before and after a move) and of their partner legs, before and after (a
   * report reads each row with its partner's broker and date). A report of other brokers is untouched.
   */
  async reportBrokers(): Promise<number[]> {
    const out = new Set<number>();
    const note = (key: string | null) => {
      if (key === null) return;
      const row = this.rows.get(key);
      if (row) out.add(row.brokerId);
      const before = this.stored.get(key);
      if (before) out.add(before.brokerId);
    };
    const breathe = eventLoopBreather(IMPORT_SLICE_MS);
    for (const [key, row] of this.rows) {
      await breathe();
      if (!this.written(key)) continue;
      note(key);
      note(row.relatedKey);
    }
    return [...out].sort((x, y) => x - y);
  }

  /** Brokers whose rows this batch deletes, changes or creates, each with the first operation that did. */
  async touchedBrokers(): Promise<Map<number, Operation>> {
    const out = new Map<number, Operation>();
    const breathe = eventLoopBreather(IMPORT_SLICE_MS);
    for (const r of this.results) {
      await breathe();
      for (const key of r.keys) {
        const row = this.rows.get(key);
        if (row && !out.has(row.brokerId) && this.written(key)) out.set(row.brokerId, r.operation);
      }
    }
    return out;
  }
}
