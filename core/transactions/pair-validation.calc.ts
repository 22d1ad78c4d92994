import { Decimal } from "../money/decimal.ts";
import type { RuleError } from "./batch.types.ts";
import type { LedgerRow } from "./ledger-row.ts";
import type { TransactionType } from "./transaction.entity.ts";
import { type PairConstraint, PROMOTE_RULES, TYPE_RULES } from "./transaction-rules.ts";

export type PairLeg = Pick<LedgerRow, "amount" | "assetId" | "brokerId" | "currency" | "quantity" | "type">;

const dec = (s: string | null) => new Decimal(s ?? "0");

type Check = (a: PairLeg, b: PairLeg) => RuleError | null;

/** Each (field, relation) of TYPE_RULES' pair constraints, with the code it fails with. */
const CHECKS: Record<string, Check> = {
  "asset_id:equal": (a, b) => a.assetId === b.assetId ? null
    : { code: "pairAssetMismatch", msg: "Both TRANSFER legs must move the same asset", field: "asset_id" },
  "broker_id:different": (a, b) => a.brokerId !== b.brokerId ? null
    : { code: "pairSameBroker", msg: `Both ${a.type} legs are in the same broker; choose another one for the receiving leg`, field: "broker_id", params: { broker_id: a.brokerId } },
  "broker_id:equal": (a, b) => a.brokerId === b.brokerId ? null
    : { code: "pairBrokerMismatch", msg: "Both FX_CONVERSION legs must be in the same broker", field: "broker_id" },
  "quantity:opposite": (a, b) => dec(a.quantity).plus(dec(b.quantity)).isZero() ? null
    : { code: "pairQuantityNotOpposite", msg: "TRANSFER legs must have opposite quantities", field: "quantity" },
  "cash_currency:different": (a, b) => a.currency !== b.currency ? null
    : { code: "pairSameCurrency", msg: "FX_CONVERSION legs must have different currencies", field: "cash.code" },
  "cash_currency:equal": (a, b) => a.currency === b.currency ? null
    : { code: "pairCurrencyMismatch", msg: "CASH_TRANSFER legs must have the same currency", field: "cash.code" },
  "cash_amount:opposite": (a, b) => dec(a.amount).plus(dec(b.amount)).isZero() ? null
    : { code: "pairAmountNotOpposite", msg: "CASH_TRANSFER legs must have opposite amounts", field: "cash.amount" },
  "cash_amount:opposite_sign": (a, b) => dec(a.amount).lt(0) !== dec(b.amount).lt(0) ? null
    : { code: "pairSignNotOpposite", msg: "One FX_CONVERSION leg must be negative and the other positive", field: "cash.amount" },
};

const checkOf = (c: PairConstraint): Check => CHECKS[`${c.field}:${c.relation}`]!;

/** The pair rules (docs/transactions.md "Pairs") for two legs; an empty list means they form a valid pair. */
export function checkPair(a: PairLeg, b: PairLeg): RuleError[] {
  if (a.type !== b.type) {
    return [{ code: "pairTypeMismatch", msg: `Both legs of a pair must have the same type (${a.type} and ${b.type})`, field: "type", params: { type_a: a.type, type_b: b.type } }];
  }
  return TYPE_RULES[a.type].pairConstraints.map((c) => checkOf(c)(a, b)).filter((e): e is RuleError => e !== null);
}

/**
 * The paired type two standalone rows promote into (the reverse of a split), or null.
 * WITHDRAWAL + DEPOSIT becomes CASH_TRANSFER in one currency and FX_CONVERSION across two.
 */
export function promoteTarget(a: PairLeg, b: PairLeg): TransactionType | null {
  const candidates = PROMOTE_RULES.filter(({ from: [x, y] }) => (a.type === x && b.type === y) || (a.type === y && b.type === x));
  if (candidates.length === 0) return null;
  if (candidates.length === 1) return candidates[0]!.to;
  return a.currency === b.currency ? "CASH_TRANSFER" : "FX_CONVERSION";
}

/** Which leg of a pair is the sending (negative) one: quantity for TRANSFER, cash otherwise. */
export function isOutLeg(leg: PairLeg): boolean {
  return leg.type === "TRANSFER" || leg.type === "ADJUSTMENT" ? dec(leg.quantity).lt(0) : dec(leg.amount).lt(0);
}

/** The standalone types of a split pair, as [type of a, type of b], or null when the type cannot split. */
export function splitTypes(a: PairLeg, b: PairLeg): [TransactionType, TransactionType] | null {
  const into = TYPE_RULES[a.type].splitInto;
  if (!into) return null;
  const aOut = isOutLeg(a) || (!isOutLeg(b) && a.brokerId <= b.brokerId);
  return aOut ? [into.from, into.to] : [into.to, into.from];
}
