import type { ApiClient } from "../../helpers/client.ts";

/**
 * Everything a user reads of a portfolio, for field-by-field comparison of two servers: the
 * report (summary, history, allocation history, breakdown, positions contribution), the lots
 * analysis of every asset, and every list endpoint. Only `generated_at` is dropped.
 */
export type Snapshot = Record<string, unknown>;

const LOTS = ["LOT_SUMMARY", "GANTT_TOPOLOGY", "CUSTODY_HISTORY", "EVENT_HISTORY", "VALUE_HISTORY", "RETURN_HISTORY", "PRICE_HISTORY",
  "BROKER_WAC_HISTORY", "CUMULATIVE_WAC_HISTORY", "PERFORMANCE_HISTORY", "INCOME_EVENTS"];
const RANGE = { start: "2024-01-01", end: "2024-04-20" };

async function json(res: Promise<Response>): Promise<any> {
  const r = await res;
  if (r.status !== 200) throw new Error(`${r.url}: ${r.status} ${await r.text()}`);
  return r.json();
}

function dropVolatile(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropVolatile);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).filter(([k]) => k !== "generated_at").map(([k, v]) => [k, dropVolatile(v)]));
  }
  return value;
}

export async function snapshotOf(c: ApiClient): Promise<Snapshot> {
  const brokers = await json(c.get("/brokers"));
  const assets = await json(c.get("/assets/all"));
  const assetIds = (assets as any[]).map((a) => a.id).sort((a, b) => a - b);
  const idsQuery = assetIds.map((id) => `asset_ids=${id}`).join("&");
  const out: Snapshot = {
    report: await json(c.post("/portfolio/report", {
      target_currency: "EUR", date_range: RANGE, include_summary: true, include_history: true, include_allocation_history: true,
      include_breakdown: true, include_positions_contribution: true,
    })),
    report_usd: await json(c.post("/portfolio/report", { target_currency: "USD", date_range: RANGE, include_allocation_history: false })),
    brokers,
    transactions: await json(c.get("/transactions?limit=10000")),
    assets,
    assets_by_id: await json(c.get(`/assets?${idsQuery}`)),
    assignments: await json(c.get(`/assets/provider/assignments?${idsQuery}`)),
    prices: await json(c.post("/assets/prices/query", assetIds.map((asset_id) => ({ asset_id, date_range: RANGE, include_events: true })))),
    events: await json(c.post("/assets/events/query", assetIds.map((asset_id) => ({ asset_id, date_range: RANGE })))),
    fx_routes: await json(c.get("/fx/providers/routes")),
    user_settings: await json(c.get("/settings/user")),
  };
  for (const b of brokers.items) out[`broker_summary_${b.name}`] = await json(c.get(`/brokers/${b.id}/summary`));
  for (const id of assetIds) {
    out[`lots_${id}`] = await json(c.post("/portfolio/lots/analysis", { asset_id: id, date_range: RANGE, target_currency: "EUR", requested_analyses: LOTS }));
  }
  for (const id of assetIds) out[`prices_csv_${id}`] = (await (await c.get(`/backup/asset/${id}/prices`)).text()).split("\r\n");
  for (const id of assetIds) out[`events_csv_${id}`] = (await (await c.get(`/backup/asset/${id}/events`)).text()).split("\r\n");
  return dropVolatile(out) as Snapshot;
}
