import { Database } from "bun:sqlite";
import { join } from "node:path";

/**
 * Direct SQLite seeding for rows that have no API yet (assets until the assets area lands).
 * Uses its own connection; the server sees the committed rows (WAL).
 */
function open(dataDir: string): Database {
  const db = new Database(join(dataDir, "portfolio.sqlite"));
  db.exec("PRAGMA busy_timeout = 5000");
  return db;
}

export function seedAsset(dataDir: string, asset: { name: string; currency: string; active?: boolean }): number {
  const db = open(dataDir);
  try {
    const row = db.query(`INSERT INTO assets (name, currency, active) VALUES (?, ?, ?) RETURNING id`)
      .get(asset.name, asset.currency, asset.active === false ? 0 : 1) as { id: number };
    return row.id;
  } finally {
    db.close();
  }
}

export function seedAssetEvent(dataDir: string, e: { assetId: number; date: string; type: string; value: string; currency: string; providerAssignmentId?: number | null }): number {
  const db = open(dataDir);
  try {
    const row = db.query(`INSERT INTO asset_events (asset_id, date, type, value, currency, provider_assignment_id) VALUES (?, ?, ?, ?, ?, ?) RETURNING id`)
      .get(e.assetId, e.date, e.type, e.value, e.currency, e.providerAssignmentId ?? null) as { id: number };
    return row.id;
  } finally {
    db.close();
  }
}

/** Runs a read query against the server's database file (for asserting what is stored). */
export function queryDb<T>(dataDir: string, sql: string, ...params: any[]): T[] {
  const db = open(dataDir);
  try {
    return db.query(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

/** Inserts ledger rows directly (for tests of readers that must not depend on the batch API). */
export function seedTransactions(dataDir: string, rows: {
  brokerId: number; type: string; date: string; quantity?: string; amount?: string | null; currency?: string | null;
  assetId?: number | null; costBasisOverride?: string | null; costBasisCurrency?: string | null;
}[]): void {
  const db = open(dataDir);
  try {
    const insert = db.query(`INSERT INTO transactions (broker_id, type, date, quantity, amount, currency, asset_id, cost_basis_override, cost_basis_currency)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    db.transaction(() => {
      for (const r of rows) {
        insert.run(r.brokerId, r.type, r.date, r.quantity ?? "0", r.amount ?? null, r.currency ?? null, r.assetId ?? null,
          r.costBasisOverride ?? null, r.costBasisCurrency ?? null);
      }
    })();
  } finally {
    db.close();
  }
}
