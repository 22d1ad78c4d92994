import type { BatchState, OpRef } from "./batch-state.ts";
import { checkPair } from "./pair-validation.calc.ts";
import { missesCostBasis } from "./row-validation.calc.ts";

const COST_BASIS_OPS = new Set(["create", "update", "promote"]);

/**
 * Checks on the batch's final state: updated legs still form a valid pair with their partner,
 * and `costBasisRequired` for every row a create, update or promote produced (reported on
 * the last of those operations). Split rows keep the cost basis their pair had.
 */
export function finalChecks(state: BatchState): void {
  for (const { key, op } of state.pairRechecks) {
    const row = state.rows.get(key)!;
    const partner = row.relatedKey ? state.rows.get(row.relatedKey) : undefined;
    if (!partner || state.deleted.has(key) || row.relatedKey === null) continue;
    state.rule(checkPair(row, partner), op, row.id ?? undefined);
  }
  for (const [key, ops] of state.touchedBy) {
    const last = lastCostBasisOp(ops);
    const row = state.rows.get(key)!;
    if (!last || state.deleted.has(key) || !missesCostBasis(row, state.eventType(row))) continue;
    state.addIssue({
      ...last, ...(row.id !== null ? { refId: row.id } : {}), code: "costBasisRequired", field: "cost_basis_override",
      error: `${row.type} adding quantity ${row.quantity} needs cost_basis_override (per unit) or cost_basis_mode "auto"`,
      params: { type: row.type, quantity: row.quantity },
    });
  }
}

export function lastCostBasisOp(ops: OpRef[]): OpRef | undefined {
  return ops.filter((o) => COST_BASIS_OPS.has(o.operation)).at(-1);
}
