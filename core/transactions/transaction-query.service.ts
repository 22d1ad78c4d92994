import { inject, injectable } from "tsyringe";
import { BrokerAccessService, brokerNotFound } from "../brokers/broker-access.service.ts";
import { Database } from "../db/database.ts";
import { fromSqliteDatetime } from "../db/sqlite-date.ts";
import { Decimal } from "../money/decimal.ts";
import type { Money } from "./batch.types.ts";
import { parseTags } from "./ledger-row.ts";
import { type AmountBand, amountBand, type AmountBounds, bandSql, inBounds } from "./amount-filter.calc.ts";
import type { CostBasisMode, TransactionType } from "./transaction.entity.ts";

export interface TransactionQuery {
  amountAbsMax?: string;
  amountAbsMin?: string;
  assetId?: number;
  brokerId?: number;
  /** Narrows the caller's visible brokers to these (an MCP token's brokers); a broker outside them is not found. */
  withinBrokerIds?: readonly number[];
  currency?: string;
  dateEnd?: string;
  dateStart?: string;
  excludeIds?: number[];
  /** When given, other filters are ignored and rows come back in this order. */
  ids?: number[];
  limit: number;
  offset: number;
  onlyUnlinked?: boolean;
  tags?: string[];
  types?: TransactionType[];
}

/** A transaction as read by its users. */
export interface TransactionRecord {
  assetEventId: number | null;
  assetId: number | null;
  brokerId: number;
  cash: Money | null;
  costBasisMode: CostBasisMode | null;
  costBasisOverride: Money | null;
  createdAt: string;
  date: string;
  description: string | null;
  id: number;
  partnerBrokerId: number | null;
  quantity: string;
  relatedTransactionId: number | null;
  tags: string[] | null;
  type: TransactionType;
  updatedAt: string;
}

const COLUMN_NAMES = [
  "id", "broker_id", "asset_id", "type", "date", "quantity", "amount", "currency", "related_transaction_id", "tags", "description",
  "cost_basis_override", "cost_basis_currency", "cost_basis_mode", "asset_event_id", "created_at", "updated_at",
] as const;
const columnsOf = (alias: string) => COLUMN_NAMES.map((c) => `${alias}.${c}`).join(", ");
const COLUMNS = columnsOf("t");

/**
 * One page, newest first. The partner join runs on the page only: joined before the sort, SQLite
 * would look up a partner for every matching row of the ledger (50,000 rows: 130 ms against 4).
 * Its columns are named, not `x.*`: PostgreSQL keeps its plan (host/db/postgres.ts).
 */
const pageSql = (where: string) => `SELECT ${columnsOf("x")}, p.broker_id AS partner_broker_id FROM (
  SELECT ${COLUMNS} FROM transactions t WHERE ${where} ORDER BY t.date DESC, t.id DESC LIMIT ? OFFSET ?
) x LEFT JOIN transactions p ON p.id = x.related_transaction_id ORDER BY x.date DESC, x.id DESC`;

const ABS_AMOUNT = "ABS(CAST(t.amount AS REAL))";
const marks = (n: number) => Array.from({ length: n }, () => "?").join(",");

/**
 * `GET /transactions`: only over brokers where the caller has an access row (no superuser
 * bypass). A `broker_id` they cannot see is 404, exactly like a missing one; `ids` of rows in
 * such brokers are simply absent.
 */
@injectable()
export class TransactionQueryService {
  constructor(
    @inject(Database) private readonly db: Database,
    @inject(BrokerAccessService) private readonly access: BrokerAccessService,
  ) {}

  async list(userId: number, q: TransactionQuery): Promise<TransactionRecord[]> {
    const within = q.withinBrokerIds ? new Set(q.withinBrokerIds) : null;
    const visible = [...(await this.access.roles(userId, "VIEWER")).keys()].filter((id) => !within || within.has(id));
    const seen = new Set(visible);
    if (q.ids) return visible.length ? this.byIds(visible, q.ids, seen) : [];
    if (q.brokerId !== undefined && !seen.has(q.brokerId)) throw brokerNotFound(q.brokerId);
    if (visible.length === 0) return [];
    const { where, params } = filters(visible, q);
    const bounds: AmountBounds = { min: q.amountAbsMin, max: q.amountAbsMax };
    const band = amountBand(bounds);
    if (band) {
      const wide = bandSql(ABS_AMOUNT, band, false);
      where.push("t.amount IS NOT NULL");
      if (wide.sql) where.push(wide.sql);
      params.push(...wide.params);
      const excluded = await this.outsideBounds(where, params, band, bounds);
      if (excluded.length) { where.push(`t.id NOT IN (${marks(excluded.length)})`); params.push(...excluded); }
    }
    const rows = await this.db.reads.query(pageSql(where.join(" AND ")), [...params, q.limit, q.offset]);
    return rows.map((r: any) => toRecord(r, seen));
  }

  private async byIds(visible: number[], ids: number[], seen: Set<number>): Promise<TransactionRecord[]> {
    const unique = [...new Set(ids)];
    const rows = await this.db.reads.query(
      `SELECT ${COLUMNS}, p.broker_id AS partner_broker_id FROM transactions t LEFT JOIN transactions p ON p.id = t.related_transaction_id
       WHERE t.id IN (${marks(unique.length)}) AND t.broker_id IN (${marks(visible.length)})`, [...unique, ...visible],
    );
    const byId = new Map<number, TransactionRecord>(rows.map((r: any) => [r.id, toRecord(r, seen)]));
    return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
  }

  /**
   * Amount bounds are exact: SQL narrows by a float comparison widened by a relative margin,
   * and only rows inside that margin (a few, at most) are compared exactly here with Decimal.
   */
  private async outsideBounds(where: string[], params: unknown[], band: AmountBand, bounds: AmountBounds): Promise<number[]> {
    const margin = bandSql(ABS_AMOUNT, band, true);
    const near = await this.db.reads.query(
      `SELECT t.id, t.amount FROM transactions t WHERE ${where.join(" AND ")} AND ${margin.sql}`, [...params, ...margin.params],
    );
    return near.filter((r: { amount: string | null }) => !inBounds(r.amount, bounds)).map((r: { id: number }) => r.id);
  }
}

function filters(visible: number[], q: TransactionQuery): { params: unknown[]; where: string[] } {
  const where = [`t.broker_id IN (${marks(visible.length)})`];
  const params: unknown[] = [...visible];
  const add = (sql: string, ...values: unknown[]) => { where.push(sql); params.push(...values); };
  if (q.brokerId !== undefined) add("t.broker_id = ?", q.brokerId);
  if (q.assetId !== undefined) add("t.asset_id = ?", q.assetId);
  if (q.types?.length) add(`t.type IN (${marks(q.types.length)})`, ...q.types);
  if (q.dateStart) add("t.date >= ?", q.dateStart);
  if (q.dateEnd) add("t.date <= ?", q.dateEnd);
  if (q.currency) add("t.currency = ?", q.currency);
  if (q.tags?.length) add(`EXISTS (SELECT 1 FROM json_each(t.tags) j WHERE j.value IN (${marks(q.tags.length)}))`, ...q.tags);
  // `+` keeps SQLite off the related index, which matches nearly every row for IS NULL.
  if (q.onlyUnlinked) add("+t.related_transaction_id IS NULL");
  if (q.excludeIds?.length) add(`t.id NOT IN (${marks(q.excludeIds.length)})`, ...q.excludeIds);
  return { where, params };
}

const isoTime = (s: string) => fromSqliteDatetime(s).toISOString();

function toRecord(r: any, visible: Set<number>): TransactionRecord {
  const money = (amount: string | null, code: string | null) =>
    amount !== null && code !== null && !new Decimal(amount).isZero() ? { code, amount } : null;
  return {
    id: r.id, brokerId: r.broker_id, assetId: r.asset_id, type: r.type, date: r.date, quantity: r.quantity,
    cash: money(r.amount, r.currency), relatedTransactionId: r.related_transaction_id,
    partnerBrokerId: r.partner_broker_id !== null && visible.has(r.partner_broker_id) ? r.partner_broker_id : null,
    tags: parseTags(r.tags), description: r.description,
    costBasisOverride: r.cost_basis_override !== null && r.cost_basis_currency !== null ? { code: r.cost_basis_currency, amount: r.cost_basis_override } : null,
    costBasisMode: r.cost_basis_mode, assetEventId: r.asset_event_id,
    createdAt: isoTime(String(r.created_at)), updatedAt: isoTime(String(r.updated_at)),
  };
}
