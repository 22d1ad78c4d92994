import type { EntityManager } from "typeorm";
import { selectIn } from "./batch-loader.ts";
import type { BatchIssue, Operation } from "./batch.types.ts";
import { type BalanceRow, findNegativeBalances, type OpeningBalances } from "./balances.calc.ts";
import { Decimal } from "../money/decimal.ts";
import { openingAt } from "./ledger-checkpoints.ts";

/** A broker as the balance check reads it. */
export interface BrokerFlags {
  allow_asset_shorting: number | boolean;
  allow_cash_overdraft: number | boolean;
  id: number;
  name: string;
}

/** The brokers of `ids` with their names and flags: the batch's read (batch-loader.ts) and this check's. */
export function selectBrokerFlags(tx: EntityManager, ids: number[]): Promise<BrokerFlags[]> {
  return selectIn<BrokerFlags>(tx, (p) => `SELECT id, name, allow_cash_overdraft, allow_asset_shorting FROM brokers WHERE id IN (${p})`, ids);
}

/**
 * Balance validation over time for the brokers a batch touched, on the state it wrote (same
 * transaction). History the batch cannot have changed is not re-validated: the rows dated before
 * the earliest date the batch touched at a broker (`since`) are only summed (exactly, in scaled
 * integers, from the broker's latest checkpoint on: core/transactions/ledger-checkpoints.ts) into
 * opening balances, and the day-by-day check walks the rows from that date on, in (date, id)
 * order. A broker that allows both overdraft and shorting is not read at all (and gets no
 * checkpoint). `known`: brokers the batch read before in the same transaction, with their flags
 * (only the others are read here). Issues are broker-level (index −1) and name the first kind of
 * operation of the batch that touched the broker.
 */
export async function checkBalances(
  tx: EntityManager, touched: Map<number, Operation>, since: Map<number, string> = new Map(), known?: ReadonlyMap<number, BrokerFlags>,
): Promise<BatchIssue[]> {
  // The batch read its brokers already (same transaction: the same flags); any other is read here.
  const ids = [...touched.keys()];
  const missing = ids.filter((id) => !known?.has(id));
  const brokers = [
    ...ids.flatMap((id) => known?.get(id) ?? []),
    ...missing.length === 0 ? [] : await selectBrokerFlags(tx, missing),
  ];
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
    const found = findNegativeBalances(rows, checks, opening);
    const assetIds = [...new Set(found.flatMap((v) => (v.kind === "cash" ? [] : [v.assetId])))];
    const names = new Map((assetIds.length === 0 ? [] : await selectIn<{ id: number; name: string }>(
      tx, (p) => `SELECT id, name FROM assets WHERE id IN (${p})`, assetIds,
    )).map((a) => [a.id, a.name]));
    for (const v of found) issues.push(toIssue(touched.get(b.id)!, b, v, names, v.kind === "cash" ? otherCashOn(rows, opening, v.date, v.currency) : []));
  }
  return issues;
}

/** The broker's other currencies with a positive balance at the end of `date` (opening plus the rows up to it). */
function otherCashOn(rows: BalanceRow[], opening: OpeningBalances | undefined, date: string, currency: string): string[] {
  const sums = new Map<string, Decimal>(opening?.cash ?? []);
  for (const r of rows) {
    if (r.date > date) break;
    if (r.currency && r.amount && r.currency !== currency) sums.set(r.currency, (sums.get(r.currency) ?? new Decimal(0)).plus(r.amount));
  }
  return [...sums].filter(([code, v]) => code !== currency && v.gt(0)).map(([code]) => code).sort();
}

/**
 * The issue of a balance that goes negative, worded so the user can act on it: the broker and asset
 * by name, the day, and the usual fixes (a deposit or purchase on or before that day, an earlier
 * opening date for the broker's opening deposit, or a buy paid from cash in another currency with
 * its conversion). `params` carry the ids and names for clients that word it themselves.
 */
function toIssue(
  operation: Operation, broker: BrokerFlags, v: ReturnType<typeof findNegativeBalances>[number], assetNames: Map<number, string>, otherCash: string[],
): BatchIssue {
  if (v.kind === "cash") {
    // When the broker holds other currencies that day, the conversion fix names them.
    const convert = otherCash.length
      ? `or pay from the broker's ${otherCash.join(" or ")} cash with a currency conversion (FX_CONVERSION) on or before ${v.date}`
      : `or pay from cash in another currency with a currency conversion`;
    return {
      operation, index: -1, code: "balanceCashNegative", field: "cash",
      error: `The ${v.currency} cash of broker "${broker.name}" would go negative (${v.balance} ${v.currency}) on ${v.date}. `
        + `Record a deposit in ${v.currency} on or before ${v.date} (or date the broker's opening deposit earlier), ${convert}`,
      params: { broker_id: broker.id, broker_name: broker.name, date: v.date, currency: v.currency, balance: v.balance, ...(otherCash.length ? { other_cash_currencies: otherCash } : {}) },
    };
  }
  const asset = assetNames.get(v.assetId) ?? `asset ${v.assetId}`;
  return {
    operation, index: -1, code: "balanceAssetNegative", field: "quantity",
    error: `The quantity of "${asset}" at broker "${broker.name}" would go negative (${v.balance}) on ${v.date}. `
      + `Record the purchase (or the transfer in) on or before ${v.date}, or allow short positions for this broker`,
    params: { broker_id: broker.id, broker_name: broker.name, date: v.date, asset_id: v.assetId, asset_name: asset, balance: v.balance },
  };
}
