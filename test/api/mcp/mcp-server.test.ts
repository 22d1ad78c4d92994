import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "bun:test";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { type ApiClient, expectError } from "../../helpers/client.ts";
import { seedAsset } from "../../helpers/seed.ts";
import { useApi } from "../../helpers/server.ts";
import { buy, commitOk, createBroker, deposit } from "../transactions/fixtures.ts";

const api = useApi({ users: ["alice", "bob"] });
let alice: ApiClient;
let secrets: Record<"full" | "relative" | "aggregate" | "plain", string>;
let brokerId: number;
let otherBroker: number;
let assetId: number;

/** The canary: an amount no other figure of the ledger can produce by chance, and the amounts derived from it. */
const CANARY = "98765.4321";
const BUY_COST = "1234.5678";
const CASH_LEFT = "97530.8643";
const UNIT_PRICE = "123.45678";
/** Cash plus the holding at its last trade price (the other broker's 5 USD has no EUR rate: a data-quality issue). */
const NET_WORTH = CANARY;
/** Every rendering of those amounts a redaction leak could take (plain, rounded, grouped, integer part). */
const LEAKS = [CANARY, "98765.43", "98765", "98,765", "98 765", "98.765,", BUY_COST, "1234.57", "1,234", CASH_LEFT, "97530.86", "97530", "97,530", UNIT_PRICE, "123.4568"];

async function token(grade: "full" | "relative" | "aggregate" | null, name = `t-${grade}-${Math.random()}`, broker_ids?: number[]) {
  const res = await alice.post("/auth/tokens", { name, scope: "read", ...(grade ? { mcp: { grade, ...(broker_ids ? { broker_ids } : {}) } } : {}) });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: number; token: string; mcp: unknown };
}

const endpoint = () => new URL(`${api.base}/mcp`);

async function connect(secret: string, era: "modern" | "legacy" = "modern") {
  const client = new Client({ name: "test", version: "1" }, era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {});
  const transport = new StreamableHTTPClientTransport(endpoint(), { requestInit: { headers: { authorization: `Bearer ${secret}` } } });
  await client.connect(transport);
  return client;
}

const rawPost = (headers: Record<string, string>, body: unknown = { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }) =>
  fetch(`${api.base}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25", ...headers },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  alice = api.as.alice!;
  brokerId = await createBroker(alice, "Canary broker");
  otherBroker = await createBroker(alice, "Other broker");
  const asset = seedAsset(api.dataDir, { name: "Canary Corp", currency: "EUR" });
  assetId = asset;
  // A stored close at the trade price: the holding's value is unchanged, and asset_prices has a planted price level to hide.
  expect((await alice.post("/assets/prices", [{ asset_id: asset, prices: [{ date: "2024-01-02", close: UNIT_PRICE }] }])).status).toBe(200);
  await commitOk(alice, { creates: [deposit(brokerId, CANARY), buy(brokerId, asset, "10", `-${BUY_COST}`), deposit(otherBroker, "5", "2024-01-03", "USD")] });
  secrets = {
    full: (await token("full")).token, relative: (await token("relative")).token, aggregate: (await token("aggregate")).token,
    plain: (await token(null)).token,
  };
}, 60_000);

describe("MCP tokens", () => {
  test("a token created with an MCP grade lists its scope and is refused by the REST API (403 TOKEN_MCP_ONLY)", async () => {
    const t = await token("relative", "mcp-listed");
    expect(t.mcp).toEqual({ grade: "relative", broker_ids: null });
    const res = await fetch(`${api.base}/brokers`, { headers: { authorization: `Bearer ${t.token}` } });
    await expectError(res, 403, "TOKEN_MCP_ONLY");
  });

  test("only a full MCP token may be read-write, and none can be narrowed to a broker its owner does not see", async () => {
    await expectError(await alice.post("/auth/tokens", { name: "rw", scope: "read-write", mcp: { grade: "relative" } }), 400, "TOKEN_MCP_READ_ONLY");
    await expectError(await alice.post("/auth/tokens", { name: "rw-admin", scope: "read-write", admin: true, mcp: { grade: "full" } }), 400, "TOKEN_MCP_READ_ONLY");
    await expectError(await alice.post("/auth/tokens", { name: "far", scope: "read", mcp: { grade: "full", broker_ids: [987654] } }), 404, "BROKER_NOT_FOUND");
    await expectError(await alice.post("/auth/tokens", { name: "bad", scope: "read", mcp: { grade: "secret" } }), 422);
  });
});

describe("MCP endpoint guards", () => {
  test("a request without a token is 401 with a Bearer challenge; a non-MCP token is 403 TOKEN_NOT_MCP", async () => {
    const none = await rawPost({});
    expect(none.headers.get("www-authenticate")).toContain("Bearer");
    await expectError(none, 401, "NOT_AUTHENTICATED");
    await expectError(await rawPost({ authorization: `Bearer ${secrets.plain}` }), 403, "TOKEN_NOT_MCP");
  });

  test("a foreign Origin or Host is refused (403 MCP_ORIGIN_REFUSED) even with a valid token", async () => {
    await expectError(await rawPost({ authorization: `Bearer ${secrets.full}`, origin: "https://evil.example" }), 403, "MCP_ORIGIN_REFUSED");
    await expectError(await rawPost({ authorization: `Bearer ${secrets.full}`, host: "evil.example" }), 403, "MCP_ORIGIN_REFUSED");
    const local = await rawPost({ authorization: `Bearer ${secrets.full}`, origin: "http://localhost:5173" });
    expect(local.status).toBe(200);
  });

  test("a token revoked mid-session stops working on its next call", async () => {
    const t = await token("full", "revoked-mid-session");
    const client = await connect(t.token);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    expect((await alice.delete(`/auth/tokens/${t.id}`)).status).toBe(200);
    await expect(client.listTools()).rejects.toThrow();
    await client.close();
  });
});

describe("MCP tools per grade", () => {
  test("tools/list shows only what the grade may call, each with an output schema", async () => {
    const names = async (g: keyof typeof secrets) => {
      const c = await connect(secrets[g]);
      const { tools } = await c.listTools();
      await c.close();
      for (const t of tools) expect(t.outputSchema).toBeDefined();
      return tools.map((t) => t.name).sort();
    };
    expect(await names("full")).toEqual(["ai_export_dataset", "asset_prices", "asset_search", "draft_transactions", "fx_rates", "holdings", "income",
      "lots_and_realised_gains", "pac_allocator", "portfolio_history", "portfolio_rebalancer", "portfolio_summary", "risk_analytics", "signals", "stress_scenarios",
      "stress_test", "transactions"]);
    expect(await names("relative")).toEqual(["ai_export_dataset", "asset_prices", "asset_search", "fx_rates", "holdings", "income", "lots_and_realised_gains",
      "portfolio_history", "portfolio_summary", "risk_analytics", "signals", "stress_scenarios", "stress_test", "transactions"]);
    expect(await names("aggregate")).toEqual(["fx_rates", "income", "lots_and_realised_gains", "portfolio_history", "portfolio_summary", "risk_analytics",
      "stress_scenarios", "stress_test"]);
  });

  test("the AI-export catalogue is a resource at every grade (it holds no user data)", async () => {
    const c = await connect(secrets.aggregate);
    const { resources } = await c.listResources();
    expect(resources.map((r) => r.uri)).toEqual(["portfolio-tracker://ai-export/catalog", DATA_QUALITY]);
    const read = await c.readResource({ uri: "portfolio-tracker://ai-export/catalog" });
    expect(JSON.parse((read.contents[0] as { text: string }).text).catalog_version).toBeNumber();
    await c.close();
  });

  test("the 2025-11-25 revision is served too (stateless fallback)", async () => {
    const c = await connect(secrets.full, "legacy");
    expect(c.getNegotiatedProtocolVersion()).toBe("2025-11-25");
    const r = await c.callTool({ name: "portfolio_summary", arguments: {} });
    expect((r.structuredContent as any).net_worth).toBe(NET_WORTH);
    await c.close();
  });

  test("full: amounts, quantities, names, the return methods and the data-quality status", async () => {
    const c = await connect(secrets.full);
    const summary = (await c.callTool({ name: "portfolio_summary", arguments: {} })).structuredContent as any;
    expect(summary.net_worth).toBe(NET_WORTH);
    expect(summary.returns.twr.method).toContain("time-weighted");
    expect(summary.returns.mwr.method).toContain("money-weighted");
    expect(summary.data_quality.status).toBe("partial");
    expect(summary.data_quality.issues).toContainEqual(expect.objectContaining({ affected_fx_pairs: ["EUR-USD"] }));
    const holdings = (await c.callTool({ name: "holdings", arguments: {} })).structuredContent as any;
    expect(holdings.holdings).toEqual([expect.objectContaining({ asset_name: "Canary Corp", quantity: "10" })]);
    expect(holdings.method).toBeString();
    const txs = (await c.callTool({ name: "transactions", arguments: { broker_id: brokerId, limit: 1 } })).structuredContent as any;
    expect(txs.transactions).toHaveLength(1);
    expect(txs.next_offset).toBe(1);
    const next = (await c.callTool({ name: "transactions", arguments: { broker_id: brokerId, limit: 1, offset: 1 } })).structuredContent as any;
    expect(next.transactions[0].cash.amount).toBe(CANARY);
    expect(next.next_offset).toBeNull();
    const fx = (await c.callTool({ name: "fx_rates", arguments: { base: "EUR", quote: "USD", date_start: "2024-01-01", date_end: "2024-01-31" } })).structuredContent as any;
    expect(fx).toEqual(expect.objectContaining({ base: "EUR", quote: "USD", rates: [], method: expect.any(String), data_quality: expect.any(Object) }));
    await c.close();
  });

  test("relative: weights and returns, no quantities and no amounts; aggregate: no holding names either", async () => {
    const rel = await connect(secrets.relative);
    const holdings = (await rel.callTool({ name: "holdings", arguments: {} })).structuredContent as any;
    expect(holdings.holdings[0]).toEqual(expect.objectContaining({ asset_name: "Canary Corp" }));
    expect(holdings.holdings[0].quantity).toBeUndefined();
    expect(holdings.holdings[0].current_value).toBeUndefined();
    const summary = (await rel.callTool({ name: "portfolio_summary", arguments: {} })).structuredContent as any;
    expect(summary.net_worth).toBeUndefined();
    expect(summary.data_quality.status).toBe("partial");
    await rel.close();
    const agg = await connect(secrets.aggregate);
    const aggSummary = (await agg.callTool({ name: "portfolio_summary", arguments: {} })).structuredContent as any;
    expect(JSON.stringify(aggSummary)).not.toContain("Canary Corp");
    expect(aggSummary.data_quality.status).toBe("partial");
    expect(aggSummary.data_quality.issues[0].affected_asset_names).toBeUndefined();
    const refused = await agg.callTool({ name: "holdings", arguments: {} }).catch((e: Error) => ({ error: e.message }));
    expect(JSON.stringify(refused)).toMatch(/not found|unknown|holdings/i);
    await agg.close();
  });

  test("a narrowed token sees only its brokers' transactions", async () => {
    const t = await token("full", "narrowed", [otherBroker]);
    const c = await connect(t.token);
    const txs = (await c.callTool({ name: "transactions", arguments: {} })).structuredContent as any;
    expect(txs.transactions.map((x: any) => x.broker_id)).toEqual([otherBroker]);
    const outside = await c.callTool({ name: "transactions", arguments: { broker_id: brokerId } });
    expect(outside.isError).toBe(true);
    await c.close();
  });

  /** The JSON-RPC message of a response (the 2025 fallback answers as a one-event SSE stream). */
  async function message(res: Response): Promise<any> {
    const text = await res.text();
    return JSON.parse(text.startsWith("event:") ? text.split("\n").find((l) => l.startsWith("data: "))!.slice(6) : text);
  }

  test("wrong argument types are tool errors naming the fields (the revision's input-validation rule), an unknown tool a JSON-RPC error; never an HTTP 500", async () => {
    const call = (params: unknown) => rawPost({ authorization: `Bearer ${secrets.full}` }, { jsonrpc: "2.0", id: 7, method: "tools/call", params });
    const wrong = await call({ name: "transactions", arguments: { limit: "many", broker_id: "x" } });
    expect(wrong.status).toBe(200);
    const bad = await message(wrong);
    expect(bad.result.isError).toBe(true);
    expect(bad.result.content[0].text).toContain("broker_id");
    const unknown = await message(await call({ name: "no_such_tool", arguments: {} }));
    expect(unknown.error.code).toBe(-32602);
    const malformed = await call("not an object");
    expect(malformed.status).toBeLessThan(500);
    const c = await connect(secrets.full);
    const modern = await c.callTool({ name: "fx_rates", arguments: { base: 12, quote: null } });
    expect(modern.isError).toBe(true);
    await c.close();
  });
});

const DATA_QUALITY = "portfolio-tracker://portfolio/data-quality";
const datasetUri = (id: string, version: number) => `portfolio-tracker://ai-export/datasets/${id}/${version}?date_start=2024-01-01&date_end=2024-12-31`;
const TEMPLATES = ["", "broker_id,", "asset_id,", "base_currency,quote_currency,"]
  .map((q) => `portfolio-tracker://ai-export/datasets/{dataset_id}/{version}{?${q}date_start,date_end}`);
/** Each public dataset beyond the portfolio's, with the selection it is asked with (the canary's broker, asset and EUR/USD). */
const selectedDatasets = (): [string, Record<string, unknown>][] => [
  ["broker.overview_and_history", { broker_id: brokerId }], ["broker.asset_history", { broker_id: brokerId }],
  ["asset.position_and_history", { asset_id: assetId }], ["asset.market_history", { asset_id: assetId }],
  ["fx.market_and_exposure", { base_currency: "EUR", quote_currency: "USD" }], ["fx.market_history", { base_currency: "EUR", quote_currency: "USD" }],
];
const selectedUri = (id: string, sel: Record<string, unknown>) =>
  `portfolio-tracker://ai-export/datasets/${id}/1?${Object.entries(sel).map(([k, v]) => `${k}=${String(v)}&`).join("")}date_start=2024-01-01&date_end=2024-12-31`;
const YEAR = { date_start: "2024-01-01", date_end: "2024-12-31" };
const readJson = async (c: Client, uri: string) => JSON.parse(((await c.readResource({ uri })).contents[0] as { text: string }).text);

describe("MCP resources", () => {
  test("the data-quality report is a resource at every grade: full names the assets and pairs, aggregate only the pairs", async () => {
    const full = await connect(secrets.full);
    const report = await readJson(full, DATA_QUALITY);
    await full.close();
    expect(report.status).toBe("partial");
    expect(report.issues).toContainEqual(expect.objectContaining({ code: expect.any(String), affected_fx_pairs: ["EUR-USD"] }));
    expect(report.missing_fx_pairs.map((p: any) => p.pair)).toEqual(["USD/EUR"]);
    const agg = await connect(secrets.aggregate);
    const aggReport = await readJson(agg, DATA_QUALITY);
    await agg.close();
    expect(aggReport.status).toBe("partial");
    expect(aggReport.missing_fx_pairs.map((p: any) => p.pair)).toEqual(["USD/EUR"]);
    expect(JSON.stringify(aggReport)).not.toContain("Canary Corp");
    expect(aggReport.missing_price_assets).toBeUndefined();
    for (const issue of aggReport.issues) expect(issue.affected_asset_ids).toBeUndefined();
  });

  test("a narrowed token's data-quality report covers only its brokers", async () => {
    const c = await connect((await token("full", "narrowed-dq", [brokerId])).token);
    const report = await readJson(c, DATA_QUALITY);
    await c.close();
    // The USD deposit sits on the other broker: its missing EUR-USD rate is not this token's concern.
    expect(JSON.stringify(report)).not.toContain("USD");
  });

  test("the AI-export datasets are resource templates at full and relative (versioned URIs), not at aggregate", async () => {
    const templates = async (g: keyof typeof secrets) => {
      const c = await connect(secrets[g]);
      const { resourceTemplates } = await c.listResourceTemplates();
      const { resources } = await c.listResources();
      await c.close();
      return { templates: resourceTemplates.map((t) => t.uriTemplate), resources: resources.map((r) => r.uri) };
    };
    const full = await templates("full");
    expect(full.templates).toEqual(TEMPLATES);
    expect(full.resources).toEqual(expect.arrayContaining([
      expect.stringMatching(/^portfolio-tracker:\/\/ai-export\/datasets\/portfolio\.overview_and_history\/\d+\?date_start=\d{4}-\d\d-\d\d&date_end=/),
      expect.stringMatching(/^portfolio-tracker:\/\/ai-export\/datasets\/portfolio\.asset_history\/\d+\?/),
    ]));
    expect((await templates("relative")).templates).toEqual(TEMPLATES);
    const agg = await templates("aggregate");
    expect(agg.templates).toEqual([]);
    expect(agg.resources.some((u) => u.includes("/datasets/"))).toBe(false);
    const c = await connect(secrets.aggregate);
    await expect(c.readResource({ uri: datasetUri("portfolio.overview_and_history", 1) })).rejects.toThrow();
    await c.close();
  });

  test("reading a dataset resource answers the tool's data; relative has it masked, and an older version is refused", async () => {
    const full = await connect(secrets.full);
    const [listed] = (await full.listResources()).resources.filter((r) => r.uri.includes("overview_and_history"));
    const version = Number(listed!.uri.split("/")[5]!.split("?")[0]);
    const data = await readJson(full, datasetUri("portfolio.overview_and_history", version));
    const tool = (await full.callTool({ name: "ai_export_dataset", arguments: { dataset_id: "portfolio.overview_and_history", date_start: "2024-01-01", date_end: "2024-12-31" } })).structuredContent;
    expect(data).toEqual(tool);
    expect(data.amounts_masked).toBe(false);
    await expect(full.readResource({ uri: datasetUri("portfolio.overview_and_history", version + 1) })).rejects.toThrow(/VERSION_MISMATCH/);
    await expect(full.readResource({ uri: datasetUri("portfolio.fifo", 1) })).rejects.toThrow(/UNSUPPORTED_SELECTION/);
    await full.close();
    const rel = await connect(secrets.relative);
    const masked = await readJson(rel, datasetUri("portfolio.overview_and_history", version));
    await rel.close();
    expect(masked).toMatchObject({ dataset_id: "portfolio.overview_and_history", amounts_masked: true });
  });
});

describe("MCP AI-export datasets beyond the portfolio's", () => {
  const dataset = async (c: Client, id: string, sel: Record<string, unknown>) => c.callTool({ name: "ai_export_dataset", arguments: { dataset_id: id, ...sel, ...YEAR } });

  test("full: every broker, asset and FX dataset is served with its selection, amounts included", async () => {
    const c = await connect(secrets.full);
    const out: Record<string, any> = {};
    for (const [id, sel] of selectedDatasets()) {
      const res = await dataset(c, id, sel);
      expect(res.isError).toBeFalsy();
      out[id] = res.structuredContent;
      expect(out[id]).toMatchObject({ dataset_id: id, dataset_version: 1, amounts_masked: false, currency: "EUR" });
    }
    await c.close();
    expect(Object.keys(out["broker.overview_and_history"].data)).toEqual(["broker.summary", "portfolio.holdings", "portfolio.history"]);
    expect(out["broker.overview_and_history"].data["broker.summary"].net_worth).toEqual({ code: "EUR", amount: NET_WORTH });
    expect(out["broker.asset_history"].data["portfolio.holdings"].map((h: any) => h.asset)).toEqual(["Canary Corp"]);
    expect(out["asset.position_and_history"].data["asset.lots"].lots[0].original_cost).toEqual({ code: "EUR", amount: BUY_COST });
    expect(out["asset.market_history"].data["asset.market_history"][0].prices[0].close).toEqual({ code: "EUR", amount: UNIT_PRICE });
    expect(out["fx.market_and_exposure"].data["fx.exposure"].currencies).toContainEqual(expect.objectContaining({ currency: "EUR", cash: { code: "EUR", amount: CASH_LEFT } }));
    expect(out["fx.market_history"].data["fx.market_history"].pair).toBe("EUR/USD");
  });

  test("relative: the same datasets masked (no amount, no unit count), their percentages and names kept", async () => {
    const c = await connect(secrets.relative);
    const out: Record<string, any> = {};
    for (const [id, sel] of selectedDatasets()) {
      const res = await dataset(c, id, sel);
      expect(res.isError).toBeFalsy();
      out[id] = res.structuredContent;
      expect(out[id]).toMatchObject({ dataset_id: id, amounts_masked: true });
    }
    await c.close();
    const text = JSON.stringify(out);
    for (const leak of LEAKS) expect(text).not.toContain(leak);
    expect(out["broker.overview_and_history"].data["broker.summary"].net_worth).toBeUndefined();
    expect(out["broker.asset_history"].data["portfolio.holdings"][0]).toMatchObject({ asset: "Canary Corp", weight_percent: expect.any(String) });
    expect(out["broker.asset_history"].data["portfolio.holdings"][0].quantity).toBeUndefined();
    expect(out["asset.market_history"].data["asset.market_history"][0].prices[0]).toEqual({ date: "2024-01-02", change_percent: expect.any(String) });
    // Unit counts under names of their own go through the export's own mask, not only the grade filter.
    const lot = out["asset.position_and_history"].data["asset.lots"].lots[0];
    expect(lot).toMatchObject({ direction: expect.any(String), opening_date: "2024-01-02" });
    expect(lot.original_quantity).toBeUndefined();
    expect(lot.open_quantity).toBeUndefined();
    expect(out["fx.market_and_exposure"].data["fx.exposure"].currencies.find((r: any) => r.currency === "EUR")).toEqual({ currency: "EUR", asset_share_percent: expect.any(String) });
  });

  test("a dataset's selection arguments are exactly its domain's: a missing or foreign one is a validation error", async () => {
    const c = await connect(secrets.full);
    const missing = await dataset(c, "broker.overview_and_history", {});
    const foreign = await dataset(c, "portfolio.overview_and_history", { asset_id: assetId });
    const badPair = await dataset(c, "fx.market_history", { base_currency: "eur", quote_currency: "USD" });
    await c.close();
    for (const r of [missing, foreign, badPair]) expect(r.isError).toBe(true);
    expect(JSON.stringify(missing.content)).toContain("VALIDATION_ERROR");
    expect(JSON.stringify(foreign.content)).toContain("VALIDATION_ERROR");
    expect(JSON.stringify(badPair.content)).toContain("base_currency");
  });

  test("a narrowed token is refused another broker's dataset and a position outside its brokers exactly as if they did not exist", async () => {
    for (const grade of ["full", "relative"] as const) {
      const c = await connect((await token(grade, `narrowed-ds-${grade}`, [otherBroker])).token);
      const text = async (id: string, sel: Record<string, unknown>) => {
        const res = await dataset(c, id, sel);
        expect(res.isError).toBe(true);
        return (res.content as { text: string }[])[0]!.text;
      };
      const other = await text("broker.overview_and_history", { broker_id: brokerId });
      expect(other).toStartWith("BROKER_NOT_FOUND");
      // The refusal of a broker the owner has is the one of a broker nobody has, but for the id it names.
      expect(other.replace(String(brokerId), "?")).toBe((await text("broker.overview_and_history", { broker_id: 987654 })).replace("987654", "?"));
      const position = await text("asset.position_and_history", { asset_id: assetId });
      expect(position).toStartWith("ASSET_NOT_FOUND");
      expect(position.replace(String(assetId), "?")).toBe((await text("asset.position_and_history", { asset_id: 987654 })).replace("987654", "?"));
      expect(JSON.stringify(position)).not.toContain("Canary");
      // Market history is not the token's business to hide: any asset of the catalogue.
      const market = await dataset(c, "asset.market_history", { asset_id: assetId });
      expect(market.isError).toBeFalsy();
      const own = (await dataset(c, "broker.overview_and_history", { broker_id: otherBroker })).structuredContent as any;
      expect(own.data["portfolio.holdings"]).toEqual([]);
      const { resources } = await c.listResources();
      expect(resources.filter((r) => r.uri.includes("broker_id=")).map((r) => new URL(r.uri.replace("portfolio-tracker:", "http:")).searchParams.get("broker_id")))
        .toEqual([String(otherBroker), String(otherBroker)]);
      await expect(c.readResource({ uri: selectedUri("broker.asset_history", { broker_id: brokerId }) })).rejects.toThrow(/BROKER_NOT_FOUND/);
      await c.close();
    }
  });

  test("the broker, asset and FX templates answer the tool's data; the list names each broker's datasets", async () => {
    const c = await connect(secrets.full);
    const { resources } = await c.listResources();
    for (const b of [brokerId, otherBroker]) {
      expect(resources.map((r) => r.uri)).toEqual(expect.arrayContaining([
        expect.stringMatching(new RegExp(`datasets/broker\\.overview_and_history/1\\?broker_id=${b}&date_start=`)),
        expect.stringMatching(new RegExp(`datasets/broker\\.asset_history/1\\?broker_id=${b}&date_start=`)),
      ]));
    }
    for (const [id, sel] of selectedDatasets()) {
      const tool = (await dataset(c, id, sel)).structuredContent;
      expect(await readJson(c, selectedUri(id, sel))).toEqual(tool);
    }
    // A broker dataset read through the portfolio template lacks its broker: refused, not answered for every broker.
    await expect(c.readResource({ uri: datasetUri("broker.overview_and_history", 1) })).rejects.toThrow(/VALIDATION_ERROR/);
    await expect(c.readResource({ uri: selectedUri("broker.fifo", { broker_id: brokerId }) })).rejects.toThrow(/UNSUPPORTED_SELECTION/);
    await c.close();
  });
});

describe("MCP audit", () => {
  test("every tool call is audited with its user, token, tool, grade and outcome, never its arguments", async () => {
    const t = await token("relative", "audited");
    const c = await connect(t.token);
    await c.callTool({ name: "holdings", arguments: {} });
    await c.callTool({ name: "transactions", arguments: { broker_id: 987654 } });
    await c.close();
    const lines = readFileSync(join(api.dataDir, "logs", "audit.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l))
      .filter((e) => e.action === "mcp.tool_call" && e.token_id === t.id);
    expect(lines).toEqual([
      expect.objectContaining({ admin_username: "alice", tool: "holdings", grade: "relative", outcome: "ok" }),
      expect.objectContaining({ tool: "transactions", outcome: "BROKER_NOT_FOUND" }),
    ]);
    expect(JSON.stringify(lines)).not.toContain("987654");
  });

  test("GET /mcp/audit answers the caller's own MCP rows, newest first, a page at a time; another user sees none of them", async () => {
    const t = await token("full", "audit-page");
    const c = await connect(t.token);
    await c.callTool({ name: "portfolio_summary", arguments: {} });
    await c.readResource({ uri: DATA_QUALITY });
    await c.callTool({ name: "transactions", arguments: { broker_id: 987654 } });
    await c.close();
    const first = await alice.get("/mcp/audit?limit=2");
    expect(first.status).toBe(200);
    const page = await first.json();
    expect(page.items).toEqual([
      { time: expect.any(String), kind: "tool", name: "transactions", token_id: t.id, grade: "full", outcome: "BROKER_NOT_FOUND" },
      { time: expect.any(String), kind: "resource", name: "data-quality", token_id: t.id, grade: "full", outcome: "ok" },
    ]);
    expect(page.next_offset).toBe(2);
    const second = await (await alice.get("/mcp/audit?limit=1&offset=2")).json();
    expect(second.items[0]).toMatchObject({ kind: "tool", name: "portfolio_summary", token_id: t.id, outcome: "ok" });
    expect(Date.parse(second.items[0].time)).toBeLessThanOrEqual(Date.parse(page.items[1].time));
    const bob = await api.as.bob!.get("/mcp/audit");
    expect(await bob.json()).toEqual({ items: [], next_offset: null });
    await expectError(await alice.get("/mcp/audit?limit=0"), 422);
    const mcpToken = await fetch(`${api.base}/mcp/audit`, { headers: { authorization: `Bearer ${t.token}` } });
    await expectError(mcpToken, 403, "TOKEN_MCP_ONLY");
  });
});

describe("canary: no amount leaks below the full grade", () => {
  for (const grade of ["relative", "aggregate"] as const) {
    test(`${grade}: no rendering of the canary or of amounts derived from it in listings, results or errors`, async () => {
      const c = await connect(secrets[grade]);
      const seen: unknown[] = [await c.listTools()];
      const calls: [string, Record<string, unknown>][] = [
        ["portfolio_summary", {}], ["holdings", {}], ["transactions", {}], ["transactions", { broker_id: brokerId, limit: 200 }],
        ["transactions", { broker_id: 987654 }], ["transactions", { amount_abs_min: CANARY }],
        ["fx_rates", { base: "EUR", quote: "USD", date_start: "2024-01-01", date_end: "2024-12-31" }], ["fx_rates", { base: "EUR" }],
        ["lots_and_realised_gains", {}], ["income", {}],
        ["risk_analytics", { date_start: "2024-01-01", analytics: [{ analytic_code: "historical_var" }] }],
        ["signals", { asset_id: 1, date_start: "2024-01-01", date_end: "2024-12-31", signals: [{ signal_code: "RSI" }] }],
        ["portfolio_history", { interval: "day", limit: 500 }], ["portfolio_history", { date_start: "2024-01-01", date_end: "2024-12-31", interval: "week" }],
        ["asset_search", { query: "Canary" }], ["asset_prices", { asset_id: assetId, date_start: "2024-01-01", date_end: "2024-12-31" }],
        ["stress_scenarios", {}], ["stress_test", { scenario_id: "equity_crash", date_start: "2024-01-01" }],
        ["pac_allocator", { budget: { code: "EUR", amount: CANARY }, positions: [{ key: String(assetId), target_weight: "1" }], whole_units: false }],
        ["portfolio_rebalancer", { cash: { code: "EUR", amount: CANARY }, positions: [{ key: String(assetId), target_weight: "1" }], mode: "buy_only", whole_units: false }],
        ...["portfolio.overview_and_history", "portfolio.asset_history"].map((id): [string, Record<string, unknown>] => ["ai_export_dataset", { dataset_id: id, ...YEAR }]),
        ...selectedDatasets().flatMap(([id, sel]): [string, Record<string, unknown>][] => [
          ["ai_export_dataset", { dataset_id: id, ...sel, ...YEAR }], ["ai_export_dataset", { dataset_id: id, ...sel, detail_level: "full", ...YEAR }]]),
        ["ai_export_dataset", { dataset_id: "broker.fifo", broker_id: brokerId, ...YEAR }],
      ];
      const full = await connect(secrets.full);
      const prices = (await full.callTool({ name: "asset_prices", arguments: { asset_id: assetId, date_start: "2024-01-01", date_end: "2024-12-31" } })).structuredContent as any;
      await full.close();
      expect(prices.prices[0].close).toBe(UNIT_PRICE);
      for (const [name, args] of calls) {
        seen.push(await c.callTool({ name, arguments: args }).catch((e: Error) => ({ error: e.message })));
      }
      // Resources: every listed one, each template's datasets over the canary's year, and a refused read.
      const { resources } = await c.listResources();
      seen.push(resources, await c.listResourceTemplates());
      const uris = [...resources.map((r) => r.uri), datasetUri("portfolio.overview_and_history", 1), datasetUri("portfolio.asset_history", 1),
        datasetUri("portfolio.overview_and_history", 99), ...selectedDatasets().map(([id, sel]) => selectedUri(id, sel))];
      for (const uri of uris) seen.push(await c.readResource({ uri }).catch((e: Error) => ({ error: e.message })));
      await c.close();
      const text = JSON.stringify(seen);
      for (const leak of LEAKS) expect(text).not.toContain(leak);
      expect(text).toContain("data_quality");
    });
  }
});
