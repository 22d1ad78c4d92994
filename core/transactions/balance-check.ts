import type { EntityManager } from "typeorm";
import { selectIn } from "./batch-loader.ts";
import type { BatchIssue, Operation } from "./batch.types.ts";
import { addToSums, type BalanceRow, findNegativeBalances, type OpeningBalances, sumsFromText, sumsToText, toOpening } from "./balances.calc.ts";

interface BrokerFlags {
  allow_asset_shorting: number | boolean;
  allow_cash_overdraft: number | boolean;
  id: number;
}

/**
 * Balance validation over time for the brokers a batch touched, on the state it wrote (same
 * transaction). History the batch cannot have changed is not re-validated: the rows dated before
 * the earliest date the batch touched at a broker (`since`) are only summed (exactly, in scaled
 * integers, from the latest checkpoint on: {@link openingAt}) into opening balances, and the
 * day-by-day check walks the rows from that date on, in
 * (date, id) order. A broker that allows both overdraft and shorting is not read at all. Issues
 * are broker-level (index −1) and name the first kind of operation of the batch that touched the
 * broker.
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

/** Checkpoints kept per broker (the newest); older ones go when a new one is written. */
const CHECKPOINTS_KEPT = 16;
const BOTH = { cash: true, assets: true };

/**
 * A broker's balances before `from`: the latest checkpoint dated on or before it (the exact sums
 * of the rows before its date, table `ledger_checkpoints`, migration 1795000009000) plus the rows
 * from there to `from`, summed exactly. Both kinds are summed whatever the broker's flags, so a
 * checkpoint serves after a flag changes. The result is stored as the checkpoint at `from`: the
 * batch wrote nothing before `from`, and a later write before a checkpoint's date deletes it (a
 * trigger in the writer's transaction), so a checkpoint always equals a sum of the stored rows.
 * A date-ordered series of commits thus sums about one batch's rows each instead of the history.
 */
async function openingAt(tx: EntityManager, brokerId: number, from: string): Promise<OpeningBalances> {
  const [checkpoint] = await tx.query(
    `SELECT upto_date, sums FROM ledger_checkpoints WHERE broker_id = ? AND upto_date <= ? ORDER BY upto_date DESC LIMIT 1`, [brokerId, from],
  ) as { sums: string; upto_date: string }[];
  const since = checkpoint ? String(checkpoint.upto_date).slice(0, 10) : null;
  const sums = checkpoint ? sumsFromText(checkpoint.sums) : { cash: new Map(), qty: new Map() };
  if (since !== from) {
    const rows = await tx.query(
      `SELECT asset_id, quantity, amount, currency FROM transactions WHERE broker_id = ?${since === null ? "" : " AND date >= ?"} AND date < ?`,
      since === null ? [brokerId, from] : [brokerId, since, from],
    ) as BalanceRow[];
    addToSums(rows, BOTH, sums);
    await tx.query(
      `INSERT INTO ledger_checkpoints (broker_id, upto_date, sums) VALUES (?, ?, ?) ON CONFLICT (broker_id, upto_date) DO UPDATE SET sums = excluded.sums`,
      [brokerId, from, sumsToText(sums)],
    );
    await tx.query(
      `DELETE FROM ledger_checkpoints WHERE broker_id = ? AND upto_date < (SELECT min(upto_date) FROM
        (SELECT upto_date FROM ledger_checkpoints WHERE broker_id = ? ORDER BY upto_date DESC LIMIT ${CHECKPOINTS_KEPT}) AS newest)`,
      [brokerId, brokerId],
    );
  }
  return toOpening(sums);
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
