import { NotFoundError } from "../errors/domain-error.ts";
import type { FxPairKey } from "../fx/pair.ts";
import { normalisePair } from "../fx/pair.ts";
import type { BackupScope } from "./document.ts";
import type { SnapshotReader } from "./snapshot-reader.ts";

/** Which section groups a scope pulls in; transactions cannot be restored without their brokers and assets. */
const SCOPE_GROUPS: Record<BackupScope, readonly ExportGroup[]> = {
  all: ["assets", "brokers", "settings", "transactions"],
  assets: ["assets"],
  brokers: ["brokers"],
  settings: ["settings"],
  transactions: ["assets", "brokers", "transactions"],
};

export type ExportGroup = "assets" | "brokers" | "settings" | "transactions";

export interface ExportRequest {
  brokerIds: number[] | null;
  includePriceHistory: boolean;
  scope: BackupScope[];
  userId: number;
}

/**
 * What one JSON export reads, resolved on the export's snapshot: the caller's brokers in scope
 * (access rows only; a requested broker without one is 404, as everywhere), the assets their
 * transactions reference, and the FX pairs a report over them may convert through.
 */
export interface ExportPlan {
  assetIds: number[];
  brokerIds: number[];
  groups: Set<ExportGroup>;
  includePrices: boolean;
  pairs: FxPairKey[];
  userId: number;
}

export const placeholders = (n: number) => Array.from({ length: n }, () => "?").join(", ");

export async function resolveExportPlan(reader: SnapshotReader, req: ExportRequest): Promise<ExportPlan> {
  const visible = (await reader.all<{ broker_id: number }>(`SELECT broker_id FROM broker_access WHERE user_id = ? ORDER BY broker_id`, [req.userId]))
    .map((r) => r.broker_id);
  let brokerIds = visible;
  if (req.brokerIds) {
    const set = new Set(visible);
    const missing = req.brokerIds.find((id) => !set.has(id));
    if (missing !== undefined) throw new NotFoundError("BROKER_NOT_FOUND", `Broker ${missing} not found`, { broker_id: missing });
    brokerIds = [...new Set(req.brokerIds)].sort((a, b) => a - b);
  }
  const inBrokers = `broker_id IN (${placeholders(brokerIds.length)})`;
  const assetIds = brokerIds.length === 0 ? [] : (await reader.all<{ asset_id: number }>(
    `SELECT DISTINCT asset_id FROM transactions WHERE ${inBrokers} AND asset_id IS NOT NULL ORDER BY asset_id`, brokerIds,
  )).map((r) => r.asset_id);
  return {
    assetIds,
    brokerIds,
    groups: new Set(req.scope.flatMap((s) => SCOPE_GROUPS[s])),
    includePrices: req.includePriceHistory,
    pairs: await usedPairs(reader, req.userId, brokerIds, assetIds),
    userId: req.userId,
  };
}

/**
 * Pairs between the currencies in play (cash and cost-basis currencies of the transactions, the
 * assets' currencies, the caller's base currency): their configured routes, every pair those
 * routes chain through, and every pair with stored rates between two of those currencies.
 */
async function usedPairs(reader: SnapshotReader, userId: number, brokerIds: number[], assetIds: number[]): Promise<FxPairKey[]> {
  const codes = new Set<string>();
  const add = (rows: { c: string | null }[]) => rows.forEach((r) => { if (r.c) codes.add(r.c); });
  if (brokerIds.length) {
    const where = `broker_id IN (${placeholders(brokerIds.length)})`;
    add(await reader.all(`SELECT DISTINCT currency AS c FROM transactions WHERE ${where}`, brokerIds));
    add(await reader.all(`SELECT DISTINCT cost_basis_currency AS c FROM transactions WHERE ${where}`, brokerIds));
  }
  if (assetIds.length) add(await reader.all(`SELECT DISTINCT currency AS c FROM assets WHERE id IN (${placeholders(assetIds.length)})`, assetIds));
  add(await reader.all(`SELECT base_currency AS c FROM user_settings WHERE user_id = ?`, [userId]));
  const pairs = new Map<string, FxPairKey>();
  const keep = (a: string, b: string) => {
    const p = normalisePair(a, b);
    if (p) pairs.set(`${p.base}-${p.quote}`, { base: p.base, quote: p.quote });
  };
  for (const route of await reader.all<{ base: string; quote: string; chain_steps: string }>(`SELECT base, quote, chain_steps FROM fx_routes`)) {
    if (!codes.has(route.base) || !codes.has(route.quote)) continue;
    keep(route.base, route.quote);
    for (const step of JSON.parse(route.chain_steps) as { from: string; to: string }[]) keep(step.from, step.to);
  }
  for (const p of await reader.all<{ base: string; quote: string }>(`SELECT DISTINCT base, quote FROM fx_rates`)) {
    if (codes.has(p.base) && codes.has(p.quote)) keep(p.base, p.quote);
  }
  return [...pairs.values()].sort((a, b) => `${a.base}${a.quote}`.localeCompare(`${b.base}${b.quote}`));
}
