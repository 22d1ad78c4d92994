import { Decimal } from "../money/decimal.ts";
import type { Money } from "./batch.types.ts";
import type { CostBasisMode, TransactionType } from "./transaction.entity.ts";

/**
 * A transaction as a batch sees it while working: stored rows are keyed `t<id>`, rows created
 * by the batch `n<create index>` until they get an id. Partners are referenced by key, so a
 * pair can be formed before either leg is written.
 */
export interface LedgerRow {
  amount: string | null;
  assetEventId: number | null;
  assetId: number | null;
  brokerId: number;
  costBasisCurrency: string | null;
  costBasisMode: CostBasisMode | null;
  costBasisOverride: string | null;
  currency: string | null;
  date: string;
  description: string | null;
  id: number | null;
  key: string;
  quantity: string;
  relatedKey: string | null;
  tags: string[] | null;
  type: TransactionType;
}

/** The stored columns a ledger row is read from (raw SQL names). */
export interface StoredRow {
  amount: string | null;
  asset_event_id: number | null;
  asset_id: number | null;
  broker_id: number;
  cost_basis_currency: string | null;
  cost_basis_mode: string | null;
  cost_basis_override: string | null;
  currency: string | null;
  date: string;
  description: string | null;
  id: number;
  quantity: string;
  related_transaction_id: number | null;
  tags: string | null;
  type: string;
}

export const storedKey = (id: number): string => `t${id}`;
export const newKey = (createIndex: number): string => `n${createIndex}`;

export function fromStored(r: StoredRow): LedgerRow {
  return {
    key: storedKey(r.id), id: r.id, brokerId: r.broker_id, assetId: r.asset_id, type: r.type as TransactionType,
    date: r.date, quantity: r.quantity, amount: r.amount, currency: r.currency,
    relatedKey: r.related_transaction_id === null ? null : storedKey(r.related_transaction_id),
    tags: parseTags(r.tags), description: r.description, costBasisOverride: r.cost_basis_override,
    costBasisCurrency: r.cost_basis_currency, costBasisMode: r.cost_basis_mode as CostBasisMode | null,
    assetEventId: r.asset_event_id,
  };
}

export function parseTags(stored: string | null): string[] | null {
  if (!stored) return null;
  try {
    const value = JSON.parse(stored);
    return Array.isArray(value) ? value.map(String) : null;
  } catch {
    return null;
  }
}

export function storeTags(tags: string[] | null): string | null {
  return tags && tags.length > 0 ? JSON.stringify(tags) : null;
}

export function cashOf(row: Pick<LedgerRow, "amount" | "currency">): Money | null {
  return row.amount !== null && row.currency !== null ? { code: row.currency, amount: row.amount } : null;
}

export function costBasisOf(row: Pick<LedgerRow, "costBasisOverride" | "costBasisCurrency">): Money | null {
  return row.costBasisOverride !== null && row.costBasisCurrency !== null
    ? { code: row.costBasisCurrency, amount: row.costBasisOverride }
    : null;
}

/** A zero amount is stored as no cash (`cash` reads null when the amount is 0). */
export function setCash(row: LedgerRow, cash: Money | null): void {
  const none = cash === null || new Decimal(cash.amount).isZero();
  row.amount = none ? null : cash.amount;
  row.currency = none ? null : cash.code;
}

export function setCostBasis(row: LedgerRow, money: Money | null): void {
  row.costBasisOverride = money?.amount ?? null;
  row.costBasisCurrency = money?.code ?? null;
}

export const STORED_COLUMNS = `id, broker_id, asset_id, type, date, quantity, amount, currency, related_transaction_id,
  tags, description, cost_basis_override, cost_basis_currency, cost_basis_mode, asset_event_id`;
