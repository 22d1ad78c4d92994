import type { BatchState, OpRef } from "./batch-state.ts";
import type { Parsed, RuleError, UpdateInput } from "./batch.types.ts";
import { type LedgerRow, setCash, setCostBasis, storedKey } from "./ledger-row.ts";
import { checkRow } from "./row-validation.calc.ts";
import { canChangeType, swapGroup } from "./transaction-rules.ts";

/**
 * A stored row the caller may write, or undefined after recording why not. A row that does not
 * exist, was deleted earlier in the batch, or sits in a broker without an access row for the
 * caller reads the same (`notFound`); a VIEWER gets `accessDenied`.
 */
export function resolveStored(state: BatchState, id: number, op: OpRef, notFound: "txNotFound" | "promoteRefNotFound" = "txNotFound"): LedgerRow | undefined {
  const row = state.visible(storedKey(id));
  if (!row) {
    state.addIssue({ ...op, refId: id, code: notFound, error: `Transaction ${id} not found`, params: { id } });
    return undefined;
  }
  if (!state.canWrite(row.brokerId)) {
    const broker = state.brokerLabel(row.brokerId);
    state.addIssue({ ...op, refId: id, code: "accessDenied", error: `EDITOR or OWNER access to ${broker.name} is required`, params: broker.params });
    return undefined;
  }
  return row;
}

/**
 * Deletes. One leg of a pair goes only together with its partner in the same batch
 * (`pairDeleteIncomplete` otherwise, as the reference does); split the pair first to keep a leg.
 */
export function applyDeletes(state: BatchState, deletes: Parsed<number>[]): void {
  const ids = new Set(deletes.flatMap((d) => (d.ok ? [d.value] : [])));
  deletes.forEach((parsed, index) => {
    const op: OpRef = { operation: "delete", index };
    if (!parsed.ok) return void (state.rule(parsed.errors, op), state.result(op, []));
    const row = resolveStored(state, parsed.value, op);
    if (!row) return state.result(op, []);
    const partner = row.relatedKey ? state.rows.get(row.relatedKey) : undefined;
    if (partner && !ids.has(partner.id!)) {
      state.addIssue({
        ...op, refId: row.id!, code: "pairDeleteIncomplete",
        error: `Transaction ${row.id} is paired with ${partner.id}: delete both, or split the pair first`,
        params: { id: row.id, partner_id: partner.id },
      });
      return state.result(op, [row.key]);
    }
    state.deleted.add(row.key);
    state.result(op, [row.key]);
  });
}

/** Updates: merged over the stored row, then checked as a whole against the type's rules. */
export function applyUpdates(state: BatchState, updates: Parsed<UpdateInput>[]): void {
  updates.forEach((parsed, index) => {
    const op: OpRef = { operation: "update", index };
    if (!parsed.ok) return void (state.rule(parsed.errors, op), state.result(op, []));
    const row = resolveStored(state, parsed.value.id, op);
    if (!row) return state.result(op, []);
    state.result(op, [row.key]);
    const next = mergeUpdate(row, parsed.value);
    const errors = [...typeChangeErrors(row, next), ...checkRow(state.facts(next))];
    if (state.rule(errors, op, row.id!)) return;
    state.rows.set(row.key, next);
    state.dirty.add(row.key);
    state.touch(row.key, op);
    if (next.relatedKey) state.pairRechecks.push({ key: row.key, op });
  });
}

function typeChangeErrors(before: LedgerRow, after: LedgerRow): RuleError[] {
  if (canChangeType(before.type, after.type)) return [];
  const allowed = swapGroup(before.type);
  return [{
    code: "typeSwapForbidden", field: "type", params: { from: before.type, to: after.type, allowed },
    msg: `The type of a ${before.type} cannot become ${after.type}` + (allowed.length ? ` (allowed: ${allowed.join(", ")})` : ""),
  }];
}

export function mergeUpdate(row: LedgerRow, u: UpdateInput): LedgerRow {
  const next: LedgerRow = { ...row };
  if (u.type !== undefined) next.type = u.type;
  if (u.date !== undefined) next.date = u.date;
  if (u.quantity !== undefined) next.quantity = u.quantity;
  if (u.cash !== undefined) setCash(next, u.cash);
  if (u.tags !== undefined) next.tags = u.tags;
  if (u.description !== undefined) next.description = u.description;
  if (u.costBasisOverride !== undefined) setCostBasis(next, u.costBasisOverride);
  if (u.costBasisMode !== undefined) next.costBasisMode = u.costBasisMode;
  if (u.assetEventId !== undefined) next.assetEventId = u.assetEventId === 0 ? null : u.assetEventId;
  return next;
}
