import { execDb, queryRows } from "./test-db.ts";

/**
 * Direct seeding for rows that have no API yet (assets until the assets area lands), through
 * test/helpers/test-db.ts (SQLite, or the data dir's PostgreSQL under `npm run test:postgres`).
 */
export function seedAsset(dataDir: string, asset: { name: string; currency: string; active?: boolean }): number {
  const [row] = queryRows<{ id: number }>(dataDir, `INSERT INTO assets (name, currency, active) VALUES (?, ?, ?) RETURNING id`,
    [asset.name, asset.currency, asset.active === false ? 0 : 1]);
  return row!.id;
}

export function seedAssetEvent(dataDir: string, e: { assetId: number; date: string; type: string; value: string; currency: string; providerAssignmentId?: number | null }): number {
  const [row] = queryRows<{ id: number }>(dataDir,
    `INSERT INTO asset_events (asset_id, date, type, value, currency, provider_assignment_id) VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
    [e.assetId, e.date, e.type, e.value, e.currency, e.providerAssignmentId ?? null]);
  return row!.id;
}

/** Runs a read query against the server's database (for asserting what is stored). */
export function queryDb<T>(dataDir: string, sql: string, ...params: any[]): T[] {
  return queryRows<T>(dataDir, sql, params);
}

/** Inserts ledger rows directly (for tests of readers that must not depend on the batch API). */
export function seedTransactions(dataDir: string, rows: {
  brokerId: number; type: string; date: string; quantity?: string; amount?: string | null; currency?: string | null;
  assetId?: number | null; costBasisOverride?: string | null; costBasisCurrency?: string | null;
}[]): void {
  const sql = `INSERT INTO transactions (broker_id, type, date, quantity, amount, currency, asset_id, cost_basis_override, cost_basis_currency)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`;
  execDb(dataDir, rows.map((r) => ({ sql, params: [r.brokerId, r.type, r.date, r.quantity ?? "0", r.amount ?? null, r.currency ?? null,
    r.assetId ?? null, r.costBasisOverride ?? null, r.costBasisCurrency ?? null] })));
}
