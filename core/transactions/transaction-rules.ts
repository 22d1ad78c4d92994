import type { AssetEventType } from "../events/asset-event.entity.ts";
import type { TransactionType } from "./transaction.entity.ts";

export type FieldMode = "required" | "optional" | "forbidden";
export type SignRule = "positive" | "negative" | "zero" | "nonzero" | "free";
export type CostBasisRule = "forbidden" | "optional" | "required_qty_pos";
export type PairLayout = "fx" | "transfer_asset" | "transfer_cash";
export type PairField = "asset_id" | "broker_id" | "cash_amount" | "cash_currency" | "quantity";
/** `opposite_sign` is ours: the two FX legs must sell one currency and buy the other (split needs it). */
export type PairRelation = "equal" | "opposite" | "opposite_sign" | "different";

export interface PairConstraint {
  field: PairField;
  relation: PairRelation;
}

/** The per-type rules (docs/transactions.md "The twelve types"): one row per type, the single source of every check. */
export interface TypeRule {
  asset: FieldMode;
  cash: FieldMode;
  cashSign: SignRule;
  /** Whether the row links to a partner row (created with a shared `link_uuid`). */
  paired: boolean;
  pairConstraints: readonly PairConstraint[];
  pairLayout: PairLayout | null;
  quantity: FieldMode;
  quantitySign: SignRule;
  /** How the pair splits: the negative (from) leg and the positive (to) leg. */
  splitInto: { from: TransactionType; to: TransactionType } | null;
}

const standalone = { paired: false, pairConstraints: [], pairLayout: null, splitInto: null } as const;
const cashOnly = { ...standalone, asset: "forbidden", cash: "required", quantity: "forbidden", quantitySign: "zero" } as const;
const income = { ...standalone, cash: "required", quantity: "forbidden", quantitySign: "zero", cashSign: "positive" } as const;
const cost = { ...standalone, asset: "optional", cash: "required", quantity: "forbidden", quantitySign: "zero", cashSign: "negative" } as const;

const TRANSFER_PAIR: PairConstraint[] = [
  { field: "asset_id", relation: "equal" }, { field: "broker_id", relation: "different" }, { field: "quantity", relation: "opposite" },
];
const FX_PAIR: PairConstraint[] = [
  { field: "cash_currency", relation: "different" }, { field: "broker_id", relation: "equal" }, { field: "cash_amount", relation: "opposite_sign" },
];
const CASH_PAIR: PairConstraint[] = [
  { field: "cash_currency", relation: "equal" }, { field: "broker_id", relation: "different" }, { field: "cash_amount", relation: "opposite" },
];

export const TYPE_RULES: Record<TransactionType, TypeRule> = {
  BUY: { ...standalone, asset: "required", cash: "required", quantity: "required", quantitySign: "positive", cashSign: "negative" },
  SELL: { ...standalone, asset: "required", cash: "required", quantity: "required", quantitySign: "negative", cashSign: "positive" },
  DIVIDEND: { ...income, asset: "required" },
  INTEREST: { ...income, asset: "optional" },
  DEPOSIT: { ...cashOnly, cashSign: "positive" },
  WITHDRAWAL: { ...cashOnly, cashSign: "negative" },
  FEE: cost,
  TAX: cost,
  ADJUSTMENT: { ...standalone, asset: "required", cash: "forbidden", quantity: "required", quantitySign: "nonzero", cashSign: "zero" },
  TRANSFER: {
    asset: "required", cash: "forbidden", quantity: "required", quantitySign: "nonzero", cashSign: "zero", paired: true,
    pairConstraints: TRANSFER_PAIR, pairLayout: "transfer_asset", splitInto: { from: "ADJUSTMENT", to: "ADJUSTMENT" },
  },
  FX_CONVERSION: {
    ...cashOnly, cashSign: "nonzero", paired: true, pairConstraints: FX_PAIR, pairLayout: "fx",
    splitInto: { from: "WITHDRAWAL", to: "DEPOSIT" },
  },
  CASH_TRANSFER: {
    ...cashOnly, cashSign: "nonzero", paired: true, pairConstraints: CASH_PAIR, pairLayout: "transfer_cash",
    splitInto: { from: "WITHDRAWAL", to: "DEPOSIT" },
  },
};

/** Types that may replace each other on update (a sign flip); every other type is immutable. */
export const SWAP_GROUPS: TransactionType[][] = [["BUY", "SELL"], ["DEPOSIT", "WITHDRAWAL"], ["DIVIDEND", "INTEREST"], ["TAX", "FEE"]];

export function swapGroup(type: TransactionType): TransactionType[] {
  return SWAP_GROUPS.find((g) => g.includes(type)) ?? [];
}

export function canChangeType(from: TransactionType, to: TransactionType): boolean {
  return from === to || swapGroup(from).includes(to);
}

/**
 * Which transaction types may link to which asset event type. A link keeps the transaction tied
 * to the event; the event's type decides how it is read, also after the type is changed.
 */
export const EVENT_COMPATIBILITY: Record<AssetEventType, TransactionType[]> = {
  DIVIDEND: ["DIVIDEND"],
  INTEREST: ["INTEREST"],
  SPLIT: ["ADJUSTMENT"],
  PRICE_ADJUSTMENT: ["ADJUSTMENT"],
  MATURITY_SETTLEMENT: ["INTEREST"],
};

export function eventTypesFor(type: TransactionType): AssetEventType[] {
  return (Object.keys(EVENT_COMPATIBILITY) as AssetEventType[]).filter((e) => EVENT_COMPATIBILITY[e].includes(type));
}

export function isEventCompatible(type: TransactionType, eventType: AssetEventType): boolean {
  return EVENT_COMPATIBILITY[eventType].includes(type);
}

/** Standalone pairs that promote into a paired type (the reverse of `splitInto`). */
export const PROMOTE_RULES: { from: [TransactionType, TransactionType]; to: TransactionType }[] = [
  { from: ["ADJUSTMENT", "ADJUSTMENT"], to: "TRANSFER" },
  { from: ["WITHDRAWAL", "DEPOSIT"], to: "FX_CONVERSION" },
  { from: ["WITHDRAWAL", "DEPOSIT"], to: "CASH_TRANSFER" },
];

/** Types whose rows can carry inbound quantity and therefore a cost basis. */
export const COST_BASIS_TYPES: TransactionType[] = ["ADJUSTMENT", "TRANSFER"];

export function costBasisRule(type: TransactionType): CostBasisRule {
  return type === "ADJUSTMENT" ? "required_qty_pos" : "forbidden";
}

/** A TRANSFER's legs are [out-leg, in-leg]; only the receiving leg takes a cost basis. */
export function costBasisPair(type: TransactionType): [CostBasisRule, CostBasisRule] | null {
  return type === "TRANSFER" ? ["forbidden", "required_qty_pos"] : null;
}
