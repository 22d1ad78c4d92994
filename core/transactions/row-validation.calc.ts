import type { AssetEventType } from "../events/asset-event.entity.ts";
import { Decimal } from "../money/decimal.ts";
import type { BatchIssue, Operation, RuleError } from "./batch.types.ts";
import type { LedgerRow } from "./ledger-row.ts";
import { COST_BASIS_TYPES, eventTypesFor, isEventCompatible, type SignRule, TYPE_RULES } from "./transaction-rules.ts";

export type RowShape = Pick<LedgerRow,
  "amount" | "assetEventId" | "assetId" | "costBasisMode" | "costBasisOverride" | "quantity" | "type">;

/** What the per-row checks need to know beyond the row itself. */
export interface RowFacts {
  /** Whether `assetId` names an existing asset (ignored when the row has none). */
  assetKnown: boolean;
  /** The linked event, null when `assetEventId` names none; ignored without `assetEventId`. */
  event: { assetId: number; type: AssetEventType } | null;
  linkUuid: string | null;
  /** Creates of paired types must carry a link_uuid. */
  requireLink: boolean;
  row: RowShape;
}

const err = (code: RuleError["code"], msg: string, field?: string, params?: Record<string, unknown>): RuleError =>
  ({ code, msg, ...(field ? { field } : {}), ...(params ? { params } : {}) });

/** Every per-row rule (docs/transactions.md "The twelve types") for one row; an empty list means the row is valid. */
export function checkRow(f: RowFacts): RuleError[] {
  return [...checkAsset(f), ...checkCash(f.row), ...checkQuantity(f.row), ...checkLink(f), ...checkEvent(f), ...checkCostBasisFields(f.row)];
}

function checkAsset({ row, assetKnown }: RowFacts): RuleError[] {
  const mode = TYPE_RULES[row.type].asset;
  if (row.assetId === null) return mode === "required" ? [err("assetRequired", `${row.type} needs asset_id`, "asset_id")] : [];
  if (mode === "forbidden") return [err("assetForbidden", `${row.type} takes no asset_id`, "asset_id")];
  return assetKnown ? [] : [err("assetIdInvalid", `Asset ${row.assetId} not found`, "asset_id", { asset_id: row.assetId })];
}

function checkCash(row: RowShape): RuleError[] {
  const rule = TYPE_RULES[row.type];
  const amount = row.amount === null ? null : new Decimal(row.amount);
  const has = amount !== null && !amount.isZero();
  if (rule.cash === "forbidden") return has ? [err("cashForbidden", `${row.type} moves no cash`, "cash")] : [];
  if (!has) {
    return row.type === "FX_CONVERSION"
      ? [err("fxConversionCashRequired", "FX_CONVERSION needs a non-zero cash amount", "cash")]
      : [err("cashRequired", `${row.type} needs a non-zero cash amount`, "cash")];
  }
  if (rule.cashSign === "positive" && amount!.lt(0)) return [err("cashSignPositive", `${row.type} cash must be positive`, "cash.amount")];
  if (rule.cashSign === "negative" && !amount!.lt(0)) return [err("cashSignNegative", `${row.type} cash must be negative`, "cash.amount")];
  return [];
}

const QTY_CODE: Record<Exclude<SignRule, "free">, { code: RuleError["code"]; ok: (q: Decimal) => boolean; text: string }> = {
  positive: { code: "qtyPositive", ok: (q) => q.gt(0), text: "positive" },
  negative: { code: "qtyNegative", ok: (q) => q.lt(0), text: "negative" },
  zero: { code: "qtyZero", ok: (q) => q.isZero(), text: "zero" },
  nonzero: { code: "qtyNonzero", ok: (q) => !q.isZero(), text: "non-zero" },
};

function checkQuantity(row: RowShape): RuleError[] {
  const q = new Decimal(row.quantity);
  if (row.type === "FX_CONVERSION") return q.isZero() ? [] : [err("fxConversionQtyZero", "FX_CONVERSION moves no quantity", "quantity")];
  const sign = TYPE_RULES[row.type].quantitySign;
  if (sign === "free") return [];
  const rule = QTY_CODE[sign];
  return rule.ok(q) ? [] : [err(rule.code, `${row.type} quantity must be ${rule.text}`, "quantity")];
}

function checkLink({ row, linkUuid, requireLink }: RowFacts): RuleError[] {
  if (!requireLink || !TYPE_RULES[row.type].paired || linkUuid) return [];
  return [err("linkUuidRequired", `${row.type} is created in pairs sharing a link_uuid`, "link_uuid")];
}

function checkEvent({ row, event }: RowFacts): RuleError[] {
  if (row.assetEventId === null) return [];
  const field = "asset_event_id";
  if (eventTypesFor(row.type).length === 0) {
    return [err("eventTypeIncompatible", `${row.type} cannot be linked to an asset event`, field, { type: row.type })];
  }
  if (row.assetId === null) return [err("eventRequiresAsset", "asset_event_id needs asset_id", field)];
  if (event === null || event.assetId !== row.assetId) {
    return [err("assetEventIdInvalid", `Asset event ${row.assetEventId} is not an event of asset ${row.assetId}`, field, { asset_event_id: row.assetEventId })];
  }
  if (!isEventCompatible(row.type, event.type)) {
    return [err("eventTypeIncompatible", `A ${event.type} event cannot be linked to ${row.type}`, field, { type: row.type, event_type: event.type })];
  }
  return [];
}

/** True when the row adds quantity of an asset through TRANSFER or ADJUSTMENT (an inbound cost basis applies). */
export function addsQuantity(row: Pick<RowShape, "quantity" | "type">): boolean {
  return COST_BASIS_TYPES.includes(row.type) && new Decimal(row.quantity).gt(0);
}

function checkCostBasisFields(row: RowShape): RuleError[] {
  if (row.costBasisOverride === null && row.costBasisMode === null) return [];
  if (addsQuantity(row)) return [];
  return [err("costBasisModeIncompatible", `${row.type} with quantity ${row.quantity} takes no cost basis`, "cost_basis_override")];
}

/**
 * `costBasisRequired`: a TRANSFER or ADJUSTMENT adding quantity, not linked to a SPLIT
 * event, in manual mode (mode absent or "manual") without `cost_basis_override`.
 */
export function missesCostBasis(row: RowShape, eventType: AssetEventType | null): boolean {
  if (!addsQuantity(row) || eventType === "SPLIT") return false;
  if (row.costBasisMode === "auto" || row.costBasisMode === "auto-detail") return false;
  return row.costBasisOverride === null;
}

/** One issue per row: a single rule error as itself, several packed as `multipleBusinessRuleErrors`. */
export function packRuleErrors(errors: RuleError[], operation: Operation, index: number, refId?: number): BatchIssue | null {
  if (errors.length === 0) return null;
  const base = { operation, index, ...(refId !== undefined ? { refId } : {}) };
  if (errors.length === 1) {
    const [e] = errors as [RuleError];
    return { ...base, code: e.code, error: e.msg, ...(e.field ? { field: e.field } : {}), ...(e.params ? { params: e.params } : {}) };
  }
  return {
    ...base,
    code: "multipleBusinessRuleErrors",
    error: errors.map((e) => e.msg).join("; "),
    params: { errors: errors.map((e) => ({ code: e.code, msg: e.msg, params: e.params ?? null, field: e.field ?? null })) },
  };
}
