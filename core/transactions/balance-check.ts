import type { EntityManager } from "typeorm";
import { selectIn } from "./batch-loader.ts";
import type { BatchIssue, Operation } from "./batch.types.ts";
import { type BalanceRow, findNegativeBalances } from "./balances.calc.ts";
import { openingAt } from "./ledger-checkpoints.ts";

interface BrokerFlags {
  allow_asset_shorting: number | boolean;
  allow_cash_overdraft: number | boolean;
  id: number;
}

/**
 * Balance validation over time for the brokers a batch touched, on the state it wrote (same
 * transaction). History the batch cannot have changed is not re-validated: the rows dated before
 * the earliest date the batch touched at a broker (`since`) are only summed (exactly, in scaled
 * integers, from the broker's latest checkpoint on: core/transactions/ledger-checkpoints.ts) into
 * opening balances, and the day-by-day check walks the rows from that date on, in (date, id)
 * order. A broker that allows both overdraft and shorting is not read at all (and gets no
 * checkpoint). Issues are broker-level (index −1) and name the first kind of operation of the
 * batch that touched the broker.
 */
export async function checkBalances(tx: EntityManager, touched: Map<number, Operation>, since: Map<number, string> = new Map()): Promise<BatchIssue[]> {
  const brokers = await selectIn<BrokerFlags>(tx, (p) => `SELECT id, allow_cash_overdraft, allow_asset_shorting FROM brokers WHERE id IN (${p})`, [...touched.keys()]);
  const issues: BatchIssue[] = [];
  for (const b of brokers.sort((x, y) => x.id - y.id)) {
    const checks = { cash: !b.allow_cash_overdraft, assets: !b.allow_asset_shorting };
    if (!checks.cash && !checks.assets) continue;
    const from = since.get(b.id) ?? "";
    const opening = from === "" ? undefined : await openingAt(tx, b.id, from);
    // No start date: every row (a day column on PostgreSQL cannot be compared with "").
    const rows = await tx.query(
      `SELECT date, asset_id, quantity, amount, currency FROM transactions WHERE broker_id = ?${from === "" ? "" : " AND date >= ?"} ORDER BY date, id`,
      from === "" ? [b.id] : [b.id, from],
    ) as BalanceRow[];
    for (const v of findNegativeBalances(rows, checks, opening)) issues.push(toIssue(touched.get(b.id)!, b.id, v));
  }
  return issues;
}

function toIssue(operation: Operation, brokerId: number, v: ReturnType<typeof findNegativeBalances>[number]): BatchIssue {
  if (v.kind === "cash") {
    return {
      operation, index: -1, code: "balanceCashNegative", field: "cash",
      error: `Cash balance of broker ${brokerId} in ${v.currency} goes negative (${v.balance}) on ${v.date}`,
      params: { broker_id: brokerId, date: v.date, currency: v.currency, balance: v.balance },
    };
  }
  return {
    operation, index: -1, code: "balanceAssetNegative", field: "quantity",
    error: `Quantity of asset ${v.assetId} in broker ${brokerId} goes negative (${v.balance}) on ${v.date}`,
    params: { broker_id: brokerId, date: v.date, asset_id: v.assetId, balance: v.balance },
  };
}
