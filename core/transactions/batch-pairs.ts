import { Decimal } from "../money/decimal.ts";
import { resolveStored } from "./batch-edits.ts";
import type { BatchState, OpRef } from "./batch-state.ts";
import type { Parsed, PromoteInput, PromoteRef, SplitInput } from "./batch.types.ts";
import { type LedgerRow, setCostBasis } from "./ledger-row.ts";
import { checkPair, promoteTarget, splitTypes } from "./pair-validation.calc.ts";
import { checkRow } from "./row-validation.calc.ts";
import type { TransactionType } from "./transaction.entity.ts";
import { TYPE_RULES } from "./transaction-rules.ts";

/** Splits: the two legs of one pair become standalone rows (TRANSFER → 2×ADJUSTMENT, cash pairs → WITHDRAWAL + DEPOSIT). */
export function applySplits(state: BatchState, splits: Parsed<SplitInput>[]): void {
  splits.forEach((parsed, index) => {
    const op: OpRef = { operation: "split", index };
    if (!parsed.ok) return void (state.rule(parsed.errors, op), state.result(op, []));
    const a = resolveStored(state, parsed.value.idA, op);
    const b = resolveStored(state, parsed.value.idB, op);
    if (!a || !b) return state.result(op, []);
    state.result(op, [a.key, b.key]);
    const types = splitTypes(a, b);
    if (!types) {
      return void state.addIssue({ ...op, refId: a.id!, code: "typeCannotSplit", error: `A ${a.type} is not a pair and cannot be split`, params: { type: a.type } });
    }
    if (a.key === b.key || a.relatedKey !== b.key || b.relatedKey !== a.key) {
      return void state.addIssue({ ...op, refId: a.id!, code: "splitIdsMismatch", error: `Transactions ${a.id} and ${b.id} are not the two legs of one pair`, params: { id_a: a.id, id_b: b.id } });
    }
    for (const [row, type] of [[a, types[0]], [b, types[1]]] as const) {
      state.rows.set(row.key, { ...row, type, relatedKey: null });
      state.dirty.add(row.key);
      state.touch(row.key, op);
    }
  });
}

/** Promotes: two standalone rows (stored, or creates of this batch by link_uuid) become one pair. */
export function applyPromotes(state: BatchState, promotes: Parsed<PromoteInput>[]): void {
  promotes.forEach((parsed, index) => {
    const op: OpRef = { operation: "promote", index };
    if (!parsed.ok) return void (state.rule(parsed.errors, op), state.result(op, []));
    const a = resolveRef(state, parsed.value.a, op);
    const b = resolveRef(state, parsed.value.b, op);
    if (!a || !b) return state.result(op, []);
    state.result(op, [a.key, b.key]);
    const target = pairTarget(state, op, a, b, parsed.value.expectedType);
    if (!target) return;
    const [na, nb] = promoted(a, b, target, parsed.value.resolved);
    const errors = [...checkRow(state.facts(na)), ...checkRow(state.facts(nb)), ...checkPair(na, nb)];
    if (state.rule(errors, op)) return;
    for (const row of [na, nb]) {
      state.rows.set(row.key, row);
      if (row.id !== null) state.dirty.add(row.key);
      state.touch(row.key, op);
    }
    for (const ref of [parsed.value.a, parsed.value.b]) if (ref.linkUuid) state.consumedUuids.add(ref.linkUuid);
  });
}

function resolveRef(state: BatchState, ref: PromoteRef, op: OpRef): LedgerRow | undefined {
  if (ref.id !== undefined) return resolveStored(state, ref.id, op, "promoteRefNotFound");
  const keys = state.linkKeys.get(ref.linkUuid!) ?? [];
  if (keys.length === 1) return state.rows.get(keys[0]!);
  state.addIssue({
    ...op, code: "promoteRefNotFound", error: `link_uuid '${ref.linkUuid}' matches ${keys.length} valid creates of this batch (expected 1)`,
    params: { link_uuid: ref.linkUuid, count: keys.length },
  });
  return undefined;
}

function pairTarget(state: BatchState, op: OpRef, a: LedgerRow, b: LedgerRow, expected?: TransactionType): TransactionType | null {
  for (const row of [a, b]) {
    if (row.relatedKey !== null || TYPE_RULES[row.type].paired) {
      state.addIssue({ ...op, ...(row.id !== null ? { refId: row.id } : {}), code: "alreadyPaired", error: `${row.id ?? "The new row"} is already one leg of a pair`, params: { id: row.id } });
      return null;
    }
  }
  const found = a.key === b.key ? null : promoteTarget(a, b);
  const target = expected && found !== expected ? null : found;
  if (!target) {
    const goal = expected ? ` into ${expected}` : "";
    state.addIssue({ ...op, code: "noPromoteRule", error: `${a.type} and ${b.type} cannot be promoted${goal}`, params: { type_a: a.type, type_b: b.type, ...(expected ? { expected } : {}) } });
  }
  return target;
}

/**
 * The two rows as a pair. Resolved description, tags and date go to both legs; a resolved cost
 * basis goes to the receiving leg of a TRANSFER (to both otherwise, where the rules refuse it).
 */
function promoted(a: LedgerRow, b: LedgerRow, type: TransactionType, resolved: PromoteInput["resolved"]): [LedgerRow, LedgerRow] {
  const na: LedgerRow = { ...a, type, relatedKey: b.key };
  const nb: LedgerRow = { ...b, type, relatedKey: a.key };
  if (!resolved) return [na, nb];
  for (const row of [na, nb]) {
    if (resolved.description !== undefined) row.description = resolved.description;
    if (resolved.tags !== undefined) row.tags = resolved.tags;
    if (resolved.date !== undefined) row.date = resolved.date;
  }
  if (resolved.costBasisOverride !== undefined) {
    const receivers = [na, nb].filter((r) => new Decimal(r.quantity).gt(0));
    for (const row of receivers.length ? receivers : [na, nb]) setCostBasis(row, resolved.costBasisOverride);
  }
  return [na, nb];
}
