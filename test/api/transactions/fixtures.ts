import { expect } from "bun:test";
import type { ApiClient } from "../../helpers/client.ts";
import { queryDb, seedAsset } from "../../helpers/seed.ts";

export type Row = Record<string, unknown>;
export interface Batch {
  creates?: unknown[];
  deletes?: unknown[];
  promotes?: unknown[];
  splits?: unknown[];
  updates?: unknown[];
}

export interface Issue {
  code: string | null;
  error: string;
  field: string | null;
  index: number;
  operation: string;
  params: Record<string, any> | null;
  ref_id: number | null;
}

export interface BatchBody {
  committed: boolean;
  errors: string[];
  issues: Issue[];
  results: { ids: number[]; index: number; link_uuid: string | null; operation: string; status: string }[];
  success_count: number;
  wac_results?: Record<string, any>[];
}

/** A broker through the API (the caller becomes OWNER), opened early so initial balances predate test rows. */
export async function createBroker(c: ApiClient, name: string, extra: Row = {}): Promise<number> {
  const res = await c.post("/brokers", [{ name, opened_at: "2020-01-01", ...extra }]);
  expect(res.status).toBe(200);
  const body = await res.json();
  expect(body.results[0].success).toBe(true);
  return body.results[0].broker_id;
}

/** A broker that never refuses a balance, for tests about other rules. */
export const looseBroker = (c: ApiClient, name: string) =>
  createBroker(c, name, { allow_cash_overdraft: true, allow_asset_shorting: true });

export async function share(owner: ApiClient, brokerId: number, userId: number, role: "OWNER" | "EDITOR" | "VIEWER"): Promise<void> {
  const res = await owner.post(`/brokers/${brokerId}/access`, { user_id: userId, role, ...(role === "OWNER" ? { share_percentage: "0" } : {}) });
  expect(res.status).toBe(201);
}

let assetCount = 0;
export const createAsset = (dataDir: string, currency = "EUR") => seedAsset(dataDir, { name: `Asset ${++assetCount}`, currency });

async function batch(c: ApiClient, path: string, body: Batch): Promise<BatchBody> {
  const res = await c.post(`/transactions/${path}`, body);
  expect(res.status).toBe(200);
  return res.json();
}

export const commit = (c: ApiClient, body: Batch) => batch(c, "commit", body);
export const validate = (c: ApiClient, body: Batch) => batch(c, "validate", body);

/** Commits and expects success; returns the ids of each create, in order. */
export async function commitOk(c: ApiClient, body: Batch): Promise<number[]> {
  const out = await commit(c, body);
  expect(out.issues).toEqual([]);
  expect(out.committed).toBe(true);
  return out.results.filter((r) => r.operation === "create").map((r) => r.ids[0]!);
}

/** Issue codes, optionally of one operation and index; packed rule errors are unpacked. */
export function codes(out: BatchBody, operation?: string, index?: number): string[] {
  return out.issues
    .filter((i) => (operation === undefined || i.operation === operation) && (index === undefined || i.index === index))
    .flatMap((i) => (i.code === "multipleBusinessRuleErrors" ? (i.params!.errors as { code: string }[]).map((e) => e.code) : [i.code!]));
}

export async function list(c: ApiClient, query = ""): Promise<Row[]> {
  const res = await c.get(`/transactions${query ? `?${query}` : ""}`);
  expect(res.status).toBe(200);
  return res.json();
}

export async function getTx(c: ApiClient, id: number): Promise<Row | undefined> {
  return (await list(c, `ids=${id}`))[0];
}

export const countRows = (dataDir: string) => queryDb<{ n: number }>(dataDir, "SELECT COUNT(*) AS n FROM transactions")[0]!.n;

export const eur = (amount: string) => ({ code: "EUR", amount });
export const usd = (amount: string) => ({ code: "USD", amount });

export const buy = (broker_id: number, asset_id: number, quantity: string, amount: string, date = "2024-01-02"): Row =>
  ({ broker_id, asset_id, type: "BUY", date, quantity, cash: eur(amount) });
export const deposit = (broker_id: number, amount: string, date = "2024-01-01", code = "EUR"): Row =>
  ({ broker_id, type: "DEPOSIT", date, cash: { code, amount } });
export const withdrawal = (broker_id: number, amount: string, date = "2024-01-01", code = "EUR"): Row =>
  ({ broker_id, type: "WITHDRAWAL", date, cash: { code, amount } });

/** The two legs of an asset TRANSFER from → to, the receiver with a per-unit cost basis unless `inExtra` says otherwise. */
export function transferPair(from: number, to: number, asset_id: number, quantity: string, uuid: string, inExtra: Row = { cost_basis_override: eur("10") }): Row[] {
  return [
    { broker_id: from, asset_id, type: "TRANSFER", date: "2024-02-01", quantity: `-${quantity}`, link_uuid: uuid },
    { broker_id: to, asset_id, type: "TRANSFER", date: "2024-02-01", quantity, link_uuid: uuid, ...inExtra },
  ];
}
