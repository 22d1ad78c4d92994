import type { EntityManager } from "typeorm";
import { selectIn } from "./batch-loader.ts";
import { addToSums, type BalanceRow, ExactSum, type OpeningBalances, type OpeningSums, toOpening } from "./balances.calc.ts";
import { WacReplay, type WacRow, type WacState } from "./wac.calc.ts";

/**
 * Ledger checkpoints (table `ledger_checkpoints`, migration 1795000009000; docs/decisions.md,
 * "Ledger commits: checkpoints"): for one broker and a day, the exact state of its rows dated before
 * that day, so a commit reads only the rows since the latest checkpoint instead of the whole
 * history: the cash per currency and quantity per asset (exact sums, for the balance check) and
 * the weighted-average-cost pool per asset (for the auto cost basis). Triggers delete, in the
 * writer's transaction, every checkpoint of a broker dated after a row written there (before and
 * after an update), whoever writes; so a checkpoint that exists always equals a replay of the
 * stored rows it covers.
 */

/** Checkpoints kept per broker (the newest); older ones go when a new one is written. */
const KEPT = 16;
const BOTH = { cash: true, assets: true };

interface Stored {
  cash: Record<string, string>;
  pools: Record<string, WacState>;
  qty: Record<string, string>;
}

export interface Checkpoint {
  pools: Map<number, WacState>;
  sums: OpeningSums;
  /** The checkpoint covers the rows dated before this day. */
  upto: string;
}

type CheckpointRow = WacRow & BalanceRow & { asset_id: number | null };

/** The latest checkpoint of a broker dated on or before `date`, or null. */
export async function latestCheckpoint(tx: EntityManager, brokerId: number, date: string): Promise<Checkpoint | null> {
  const [row] = await tx.query(
    `SELECT upto_date, sums FROM ledger_checkpoints WHERE broker_id = ? AND upto_date <= ? ORDER BY upto_date DESC LIMIT 1`, [brokerId, date],
  ) as { sums: string; upto_date: string }[];
  if (!row) return null;
  const stored = JSON.parse(row.sums) as Stored;
  const sum = (t: string) => { const s = new ExactSum(); s.add(t); return s; };
  return {
    upto: String(row.upto_date).slice(0, 10),
    sums: {
      cash: new Map(Object.entries(stored.cash).map(([k, t]) => [k, sum(t)])),
      qty: new Map(Object.entries(stored.qty).map(([k, t]) => [Number(k), sum(t)])),
    },
    pools: new Map(Object.entries(stored.pools).map(([k, state]) => [Number(k), state])),
  };
}

/**
 * A broker's balances before `from` (cash per currency, quantity per asset, both kinds whatever
 * the broker's flags): the latest checkpoint on or before it, continued over the rows from there
 * to `from` in (date, id) order; the result is stored as the checkpoint at `from`. The caller's
 * batch wrote nothing before `from`. A checkpoint whose cost pools ran in another currency than
 * an asset's current one is not continued: the broker's rows are replayed from the start.
 */
export async function openingAt(tx: EntityManager, brokerId: number, from: string): Promise<OpeningBalances> {
  let checkpoint = await latestCheckpoint(tx, brokerId, from);
  if (checkpoint?.upto === from) return toOpening(checkpoint.sums);
  const read = (since: string | null) => tx.query(
    `SELECT asset_id, type, quantity, amount, currency, cost_basis_override, cost_basis_currency FROM transactions
     WHERE broker_id = ?${since === null ? "" : " AND date >= ?"} AND date < ? ORDER BY date, id`,
    since === null ? [brokerId, from] : [brokerId, since, from],
  ) as Promise<CheckpointRow[]>;
  let rows = await read(checkpoint?.upto ?? null);
  const assetIds = new Set<number>([...checkpoint?.pools.keys() ?? [], ...rows.flatMap((r) => (r.asset_id === null ? [] : [r.asset_id]))]);
  const currencies = new Map((await selectIn<{ id: number; currency: string }>(
    tx, (p) => `SELECT id, currency FROM assets WHERE id IN (${p})`, [...assetIds],
  )).map((a) => [a.id, a.currency]));
  if (checkpoint && [...checkpoint.pools].some(([id, s]) => currencies.get(id) !== s.currency)) {
    checkpoint = null;
    rows = await read(null);
  }
  const sums = addToSums(rows, BOTH, checkpoint?.sums ?? { cash: new Map(), qty: new Map() });
  const replays = new Map<number, WacReplay>();
  for (const [id, state] of checkpoint?.pools ?? []) replays.set(id, new WacReplay(state.currency, state));
  for (const r of rows) {
    if (r.asset_id === null) continue;
    let replay = replays.get(r.asset_id);
    if (!replay) replays.set(r.asset_id, replay = new WacReplay(currencies.get(r.asset_id) ?? ""));
    replay.apply(r);
  }
  const text = <K>(m: Map<K, ExactSum>) => Object.fromEntries([...m].map(([k, s]) => [String(k), s.toText()]));
  const stored: Stored = {
    cash: text(sums.cash), qty: text(sums.qty), pools: Object.fromEntries([...replays].map(([id, r]) => [String(id), r.state()])),
  };
  await tx.query(
    `INSERT INTO ledger_checkpoints (broker_id, upto_date, sums) VALUES (?, ?, ?) ON CONFLICT (broker_id, upto_date) DO UPDATE SET sums = excluded.sums`,
    [brokerId, from, JSON.stringify(stored)],
  );
  await tx.query(
    `DELETE FROM ledger_checkpoints WHERE broker_id = ? AND upto_date < (SELECT min(upto_date) FROM
      (SELECT upto_date FROM ledger_checkpoints WHERE broker_id = ? ORDER BY upto_date DESC LIMIT ${KEPT}) AS newest)`,
    [brokerId, brokerId],
  );
  return toOpening(sums);
}
