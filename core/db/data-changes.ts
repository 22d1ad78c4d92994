import type { EntityManager } from "typeorm";

/**
 * What stored data a write changed (docs/portfolio.md "Caches", docs/decisions.md "Declared
 * changes"). A write declares it inside its transaction (`declareChange`); `Database.write` stores
 * the declarations in `data_changes` in that same transaction, so a rolled-back write declares
 * nothing and every process sees a committed write's declarations (core/cache/change-feed.ts maps
 * them to the caches to clear).
 * - `ledger`: transactions of the brokers in `ids`;
 * - `prices`: price history of the assets in `ids`;
 * - `fx`: shared or private FX rates;
 * - `events`: asset events (splits, dividends) of the assets in `ids`;
 * - `assets`: asset rows and their provider assignments;
 * - `brokers`, `access`: broker rows and access rows of the brokers in `ids`;
 * - `fx_routes`: FX routes;
 * - `restore`: a backup restored (anything);
 * - `portfolio`, `uploads`: recorded by `Database.write` itself when a write changed a table of that
 *   cache group without declaring anything (undated).
 */
export type DataChangeKind = "ledger" | "prices" | "fx" | "events" | "assets" | "brokers" | "access" | "fx_routes" | "restore" | "portfolio" | "uploads";

export interface DataChange {
  kind: DataChangeKind;
  /** The broker or asset ids the change touched, when the kind has them (informational). */
  ids?: readonly number[];
  /** Every stored input of this kind dated before `from` is unchanged; null or absent: undated (from the beginning). */
  from?: string | null;
}

/** The declarations of each open write transaction. */
const open = new WeakMap<EntityManager, DataChange[]>();

/** `Database.write` opens a transaction's declarations before its work runs. */
export function openDeclarations(tx: EntityManager): DataChange[] {
  const list: DataChange[] = [];
  open.set(tx, list);
  return list;
}

/**
 * Declares, inside the write transaction `tx`, what stored data the write changed (see
 * {@link DataChangeKind}). Declaring is what clears the caches computed from that data, in every
 * process; a write that changes nothing should not declare.
 */
export function declareChange(tx: EntityManager, change: DataChange): void {
  const list = open.get(tx);
  if (!list) throw new Error("declareChange: not inside Database.write");
  list.push(change);
}

/** The declarations merged per kind (ids united, the earliest date; undated wins). */
export function mergeDeclarations(list: readonly DataChange[]): Required<DataChange>[] {
  const byKind = new Map<DataChangeKind, { ids: Set<number>; from: string | null }>();
  for (const change of list) {
    const from = change.from ?? null;
    const entry = byKind.get(change.kind);
    if (!entry) {
      byKind.set(change.kind, { ids: new Set(change.ids ?? []), from });
      continue;
    }
    for (const id of change.ids ?? []) entry.ids.add(id);
    entry.from = entry.from === null || from === null ? null : (from < entry.from ? from : entry.from);
  }
  return [...byKind].map(([kind, { ids, from }]) => ({ kind, ids: [...ids].sort((a, b) => a - b), from }));
}
