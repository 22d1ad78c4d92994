import { eventLoopBreather, IMPORT_SLICE_MS } from "../async/yield-to-event-loop.ts";
import type { BatchState, OpRef } from "./batch-state.ts";
import { checkPair } from "./pair-validation.calc.ts";
import { missesCostBasis } from "./row-validation.calc.ts";

const COST_BASIS_OPS = new Set(["create", "update", "promote"]);

/**
 * Checks on the batch's final state: updated legs still form a valid pair with their partner,
 * and `costBasisRequired` for every row a create, update or promote produced (reported on
 * the last of those operations). Split rows keep the cost basis their pair had.
 */
export async function finalChecks(state: BatchState): Promise<void> {
  for (const { key, op } of state.pairRechecks) {
    const row = state.rows.get(key)!;
    const partner = row.relatedKey ? state.rows.get(row.relatedKey) : undefined;
    if (!partner || state.deleted.has(key) || row.relatedKey === null) continue;
    state.rule(checkPair(row, partner), op, row.id ?? undefined);
  }
  // Every row of the batch: a turn for other requests every few ms (an import of 50,000 rows).
  const breathe = eventLoopBreather(IMPORT_SLICE_MS);
  for (const [key, ops] of state.touchedBy) {
    await breathe();
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

/** Walked from the end without copying: it runs once per row of a batch, 50,000 times for a large import. */
export function lastCostBasisOp(ops: OpRef[]): OpRef | undefined {
  for (let i = ops.length - 1; i >= 0; i--) if (COST_BASIS_OPS.has(ops[i]!.operation)) return ops[i];
  return undefined;
}
