import type { CostBasisMode, TransactionType } from "./transaction.entity.ts";
import type { ValidationCode } from "./validation-codes.ts";

/** An amount of money: a decimal string in a three-letter currency. */
export interface Money {
  amount: string;
  code: string;
}

export type Operation = "create" | "update" | "delete" | "split" | "promote";

/** One failed rule: what the row-level checks produce before it becomes an issue. */
export interface RuleError {
  code: ValidationCode;
  field?: string;
  msg: string;
  params?: Record<string, unknown>;
}

/** One problem of a batch. `index` −1 means broker-level (balances). */
export interface BatchIssue {
  code: ValidationCode;
  error: string;
  field?: string;
  index: number;
  operation: Operation;
  params?: Record<string, unknown>;
  refId?: number;
}

export interface CreateInput {
  assetEventId: number | null;
  assetId: number | null;
  brokerId: number | null;
  cash: Money | null;
  costBasisMode: CostBasisMode | null;
  costBasisOverride: Money | null;
  date: string;
  description: string | null;
  linkUuid: string | null;
  quantity: string;
  tags: string[] | null;
  type: TransactionType;
}

/** Absent fields stay as stored; null clears (asset_event_id 0 or null unlinks). */
export interface UpdateInput {
  assetEventId?: number | null;
  cash?: Money | null;
  costBasisMode?: CostBasisMode | null;
  costBasisOverride?: Money | null;
  date?: string;
  description?: string | null;
  id: number;
  quantity?: string;
  tags?: string[] | null;
  type?: TransactionType;
}

export interface SplitInput {
  idA: number;
  idB: number;
}

/** A promote side: a stored row by id, or a create of the same batch by its link_uuid. */
export interface PromoteRef {
  id?: number;
  linkUuid?: string;
}

export interface PromoteInput {
  a: PromoteRef;
  b: PromoteRef;
  /** The paired type the caller expects (transfers/promote); a different outcome is `noPromoteRule`. */
  expectedType?: TransactionType;
  resolved?: {
    costBasisOverride?: Money | null;
    date?: string;
    description?: string | null;
    tags?: string[] | null;
  };
}

/** A row as parsed from the wire: its value, or the reasons it could not be read. */
export type Parsed<T> = { ok: true; value: T } | { errors: RuleError[]; ok: false };

export interface BatchInput {
  creates: Parsed<CreateInput>[];
  deletes: Parsed<number>[];
  promotes: Parsed<PromoteInput>[];
  splits: Parsed<SplitInput>[];
  updates: Parsed<UpdateInput>[];
}

export type ResultStatus = "success" | "simulated" | "failed" | "not_attempted";

export interface BatchResultItem {
  ids: number[];
  index: number;
  linkUuid?: string;
  operation: Operation;
  status: ResultStatus;
}

/** The auto cost basis of one row, returned for `cost_basis_mode: "auto-detail"`. */
export interface WacResult {
  assetId: number;
  date: string;
  index: number;
  operation: Operation;
  quantityHeld: string;
  senderBrokerId: number;
  totalCost: Money | null;
  transactionId: number;
  wacPerUnit: Money | null;
}

export interface BatchOutcome {
  committed: boolean;
  errors: string[];
  issues: BatchIssue[];
  results: BatchResultItem[];
  successCount: number;
  wacResults: WacResult[];
}
