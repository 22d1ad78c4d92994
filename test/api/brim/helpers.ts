import { expect } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ApiClient } from "../../helpers/client.ts";
import { OFFLINE_PLUGIN_CONFIG } from "../../helpers/offline-plugins.ts";

const FIXTURES = join(import.meta.dir, "..", "..", "fixtures", "brim");

export const sample = (broker: string, name: string): Uint8Array<ArrayBuffer> => new Uint8Array(readFileSync(join(FIXTURES, broker, name)));

/** Uploads `bytes` as `name` into broker `brokerId` (multipart `file`). */
export function upload(c: ApiClient, brokerId: number | null, name: string, bytes: Uint8Array<ArrayBuffer> | string, extra: Record<string, string> = {}): Promise<Response> {
  const form = new FormData();
  form.append("file", new File([bytes], name, { type: "application/octet-stream" }));
  for (const [k, v] of Object.entries(extra)) form.append(k, v);
  return c.request("POST", `/brokers/import/upload${brokerId === null ? "" : `?broker_id=${brokerId}`}`, form);
}

/** Uploads and returns the file record (201 expected). */
export async function uploaded(c: ApiClient, brokerId: number, name: string, bytes: Uint8Array<ArrayBuffer> | string): Promise<any> {
  const res = await upload(c, brokerId, name, bytes);
  expect(res.status).toBe(201);
  return res.json();
}

/** Parses a stored file with detection (`plugin_code: "auto"`; 200 expected) and answers the parse result. */
export async function parsed(c: ApiClient, fileId: string, broker: number, options?: Record<string, unknown>): Promise<any> {
  const res = await c.post(`/brokers/import/files/${fileId}/parse`, { plugin_code: "auto", broker_id: broker, ...(options ? { options } : {}) });
  expect(res.status).toBe(200);
  return res.json();
}

/**
 * What a user does before committing a parse by hand: creates the assets it could not match (named,
 * priced and identified from the file), parses again, and answers that parse with its rows on the
 * real asset ids (`real`: fake id → asset id).
 */
export async function withAssets(c: ApiClient, fileId: string, broker: number, first: any, options?: Record<string, unknown>) {
  let preview = first;
  const missing = preview.asset_mappings.filter((m: any) => m.candidates.length === 0);
  if (missing.length > 0) {
    const currencyOf = (fake: number) => preview.transactions.find((t: any) => t.asset_id === fake && t.cash)?.cash.code ?? "EUR";
    const res = await (await c.post("/assets", missing.map((m: any) => ({
      name: m.extracted_name ?? m.extracted_symbol ?? m.extracted_isin, currency: currencyOf(m.fake_asset_id),
      ...(m.extracted_isin ? { identifier_isin: m.extracted_isin } : {}), ...(m.extracted_symbol ? { identifier_ticker: m.extracted_symbol } : {}),
    })))).json();
    expect(res.success_count).toBe(missing.length);
    preview = await parsed(c, fileId, broker, options);
  }
  const real = new Map<number, number>(preview.asset_mappings.map((m: any) => [m.fake_asset_id, m.selected_asset_id ?? m.candidates[0].asset_id]));
  const creates = preview.transactions.map((t: any) => (t.asset_id === undefined ? t : { ...t, asset_id: real.get(t.asset_id) }));
  return { preview, creates, real };
}

export async function createBroker(c: ApiClient, name: string): Promise<number> {
  const res = await c.post("/brokers", [{ name }]);
  const body = await res.json();
  expect(body.results[0].success).toBe(true);
  return body.results[0].broker_id;
}

/** Env of a server with a never-ending import plugin (hidden) whose parse limit is 500 ms. */
export function slowPluginEnv(): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), "pt-brim-"));
  const plugins = join(dir, "plugins");
  mkdirSync(join(plugins, "slow-importer"), { recursive: true });
  writeFileSync(join(plugins, "slow-importer", "index.ts"), `import { definePlugin } from "@portfolio-tracker/sdk";
export default definePlugin({
  id: "slow_importer", kind: "import-plugin", name: "Slow importer", version: "1.0.0", hidden: true,
  description: "Never finishes a parse (tests the parse time limit)",
  create: () => ({ accepts: () => 0, parse: async () => { for (;;) {} } }),
});
`);
  const config = join(dir, "plugins.json");
  writeFileSync(config, JSON.stringify({ ...OFFLINE_PLUGIN_CONFIG, slow_importer: { timeoutMs: 500 } }));
  return { PLUGINS_DIR: plugins, PLUGINS_CONFIG: config };
}
