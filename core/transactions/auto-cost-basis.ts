import type { EntityManager } from "typeorm";
import { eventLoopBreather, IMPORT_SLICE_MS } from "../async/yield-to-event-loop.ts";
import { toDecimalString } from "../money/decimal.ts";
import { lastCostBasisOp } from "./batch-final-checks.ts";
import type { BatchState, OpRef } from "./batch-state.ts";
import type { WacResult } from "./batch.types.ts";
import { storeCostBasis } from "./batch-writer.ts";
import type { LedgerRow } from "./ledger-row.ts";
import { addsQuantity } from "./row-validation.calc.ts";
import { type Checkpoint, latestCheckpoint } from "./ledger-checkpoints.ts";
import { type WacPool, WacReplay, type WacRow, wacPerUnit } from "./wac.calc.ts";

const isAuto = (row: LedgerRow) => row.costBasisMode === "auto" || row.costBasisMode === "auto-detail";

interface Target {
  op: OpRef;
  row: LedgerRow;
  sender: LedgerRow;
}

/** Rows this batch created, updated or promoted that take their cost basis from the sender's WAC. */
async function targets(state: BatchState): Promise<Target[]> {
  const out: Target[] = [];
  // Every row of the batch, on the request thread: a turn for other requests every few ms.
  const breathe = eventLoopBreather(IMPORT_SLICE_MS);
  for (const [key, ops] of state.touchedBy) {
    await breathe();
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
  const checkpoints = new Map<string, Checkpoint | null>();
  for (const t of await targets(state)) {
    const currency = state.lookups.assets.get(t.row.assetId!)!.currency;
    // The sender's costs are a read of its broker: a partner the caller can no longer see gives nothing away.
    if (!state.lookups.roles.has(t.sender.brokerId)) { reportUnavailable(state, t, false, currency); continue; }
    const pool = await poolBefore(tx, t.sender, t.row.assetId!, currency, checkpoints);
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

/**
 * The sender broker's pool of the asset just before the sending row: from the latest ledger
 * checkpoint on or before its date (core/transactions/ledger-checkpoints.ts) when it kept that
 * asset's pool in this currency, over the asset's rows since; else over all the asset's rows there.
 * Checkpoints are looked up each time (an earlier target's stored cost basis deletes the ones after
 * it) and parsed once per batch.
 */
async function poolBefore(tx: EntityManager, sender: LedgerRow, assetId: number, currency: string, parsed: Map<string, Checkpoint | null>): Promise<WacPool> {
  const [found] = await tx.query(
    `SELECT upto_date FROM ledger_checkpoints WHERE broker_id = ? AND upto_date <= ? ORDER BY upto_date DESC LIMIT 1`, [sender.brokerId, sender.date],
  ) as { upto_date: string }[];
  let checkpoint: Checkpoint | null = null;
  if (found) {
    const key = `${sender.brokerId}:${String(found.upto_date).slice(0, 10)}`;
    if (!parsed.has(key)) parsed.set(key, await latestCheckpoint(tx, sender.brokerId, sender.date));
    checkpoint = parsed.get(key)!;
  }
  const start = checkpoint?.pools.get(assetId);
  const from = checkpoint && (start === undefined || start.currency === currency) ? checkpoint.upto : null;
  const history = await tx.query(
    `SELECT type, quantity, amount, currency, cost_basis_override, cost_basis_currency FROM transactions
     WHERE broker_id = ? AND asset_id = ?${from === null ? "" : " AND date >= ?"} AND (date < ? OR (date = ? AND id < ?)) ORDER BY date, id`,
    [sender.brokerId, assetId, ...(from === null ? [] : [from]), sender.date, sender.date, sender.id],
  ) as WacRow[];
  const replay = new WacReplay(currency, from === null ? undefined : start);
  for (const r of history) replay.apply(r);
  return replay.result();
}

function reportUnavailable(state: BatchState, t: Target, mixed: boolean, currency: string): void {
  const broker = state.brokerLabel(t.sender.brokerId);
  const asset = state.assetLabel(t.row.assetId!);
  const params = { ...broker.params, ...asset.params, date: t.sender.date, currency };
  state.addIssue(mixed
    ? { ...t.op, code: "wacFxUnavailable", field: "cost_basis_mode", params, error: `The WAC of ${asset.name} in ${broker.name} mixes currencies other than ${currency}; no FX conversion is available` }
    : { ...t.op, code: "costBasisUnavailable", field: "cost_basis_mode", params, error: `${broker.name[0]!.toUpperCase()}${broker.name.slice(1)} holds no units of ${asset.name} with a known cost before ${t.sender.date}` });
}
