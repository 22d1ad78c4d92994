import type { EntityManager } from "typeorm";
import { toDecimalString } from "../money/decimal.ts";
import { lastCostBasisOp } from "./batch-final-checks.ts";
import type { BatchState, OpRef } from "./batch-state.ts";
import type { WacResult } from "./batch.types.ts";
import { storeCostBasis } from "./batch-writer.ts";
import type { LedgerRow } from "./ledger-row.ts";
import { addsQuantity } from "./row-validation.calc.ts";
import { type WacRow, wacPerUnit, wacPool } from "./wac.calc.ts";

const isAuto = (row: LedgerRow) => row.costBasisMode === "auto" || row.costBasisMode === "auto-detail";

interface Target {
  op: OpRef;
  row: LedgerRow;
  sender: LedgerRow;
}

/** Rows this batch created, updated or promoted that take their cost basis from the sender's WAC. */
function targets(state: BatchState): Target[] {
  const out: Target[] = [];
  for (const [key, ops] of state.touchedBy) {
    const op = lastCostBasisOp(ops);
    const row = state.rows.get(key)!;
    if (!op || state.deleted.has(key) || !isAuto(row) || !addsQuantity(row)) continue;
    const sender = row.type === "TRANSFER" && row.relatedKey ? state.rows.get(row.relatedKey)! : row;
    out.push({ op, row, sender });
  }
  return out.sort((x, y) => x.sender.date.localeCompare(y.sender.date) || x.sender.id! - y.sender.id!);
}

/**
 * `cost_basis_mode` auto: after the batch is written, each such row takes the sender's
 * weighted average cost per unit just before the sending row (for a TRANSFER in-leg the out-leg
 * in the other broker; for an ADJUSTMENT the same broker before the row itself), in the asset's
 * currency, and stores it as its `cost_basis_override`. Rows are handled in date order so a
 * chain of auto transfers builds on the values computed before it.
 */
export async function applyAutoCostBasis(tx: EntityManager, state: BatchState): Promise<WacResult[]> {
  const results: WacResult[] = [];
  for (const t of targets(state)) {
    const currency = state.lookups.assets.get(t.row.assetId!)!.currency;
    // The sender's costs are a read of its broker: a partner the caller can no longer see gives nothing away.
    if (!state.lookups.roles.has(t.sender.brokerId)) { reportUnavailable(state, t, false, currency); continue; }
    const history = await tx.query(
      `SELECT type, quantity, amount, currency, cost_basis_override, cost_basis_currency FROM transactions
       WHERE broker_id = ? AND asset_id = ? AND (date < ? OR (date = ? AND id < ?)) ORDER BY date, id`,
      [t.sender.brokerId, t.row.assetId, t.sender.date, t.sender.date, t.sender.id],
    ) as WacRow[];
    const pool = wacPool(history, currency);
    const wac = pool.mixedCurrencies ? null : wacPerUnit(pool);
    if (!wac) { reportUnavailable(state, t, pool.mixedCurrencies, currency); continue; }
    const amount = toDecimalString(wac);
    t.row.costBasisOverride = amount;
    t.row.costBasisCurrency = currency;
    await storeCostBasis(tx, t.row.id!, amount, currency);
    if (t.row.costBasisMode === "auto-detail") {
      results.push({
        ...t.op, transactionId: t.row.id!, senderBrokerId: t.sender.brokerId, assetId: t.row.assetId!, date: t.sender.date,
        quantityHeld: toDecimalString(pool.quantity), totalCost: { code: currency, amount: toDecimalString(pool.totalCost) },
        wacPerUnit: { code: currency, amount },
      });
    }
  }
  return results;
}

function reportUnavailable(state: BatchState, t: Target, mixed: boolean, currency: string): void {
  const params = { broker_id: t.sender.brokerId, asset_id: t.row.assetId, date: t.sender.date, currency };
  state.addIssue(mixed
    ? { ...t.op, code: "wacFxUnavailable", field: "cost_basis_mode", params, error: `The WAC of asset ${t.row.assetId} in broker ${t.sender.brokerId} mixes currencies other than ${currency}; no FX conversion is available` }
    : { ...t.op, code: "costBasisUnavailable", field: "cost_basis_mode", params, error: `Broker ${t.sender.brokerId} holds no units of asset ${t.row.assetId} with a known cost before ${t.sender.date}` });
}
