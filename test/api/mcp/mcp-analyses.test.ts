import { beforeAll, describe, expect, test } from "bun:test";
import type { ApiClient } from "../../helpers/client.ts";
import { seedAsset } from "../../helpers/seed.ts";
import { useApi } from "../../helpers/server.ts";
import { buy, commitOk, createBroker, deposit, eur } from "../transactions/fixtures.ts";
import { connectMcp } from "./mcp-client.ts";

const api = useApi({ users: ["carol"] });
let carol: ApiClient;
let secrets: Record<"full" | "relative" | "aggregate", string>;
let brokerId: number;

/** Planted amounts no other figure can produce by chance: deposit, cost of 10 units, proceeds of 4, a dividend. */
const DEPOSIT = "76543.2109";
const BUY_COST = "4321.9876";
const PROCEEDS = "2468.1357";
const DIVIDEND = "123.9753";
/** FIFO (and average) cost of the 4 units sold: 4/10 of the buy; the gain is the proceeds less it. */
const SOLD_COST = "1728.79504";
const GAIN = "739.34066";
const LEAKS = [
  DEPOSIT, "76543", "76,543", BUY_COST, "4321.99", "4,321", PROCEEDS, "2468.14", "2468.13", "2,468", DIVIDEND, "123.98", "123.97",
  SOLD_COST, "1728.8", "1,728", GAIN, "739.34", "739.3",
];

async function token(grade: "full" | "relative" | "aggregate") {
  const res = await carol.post("/auth/tokens", { name: `a-${grade}`, scope: "read", mcp: { grade } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { token: string }).token;
}

const connect = (secret: string) => connectMcp(api.base, secret);

async function call(grade: keyof typeof secrets, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const c = await connect(secrets[grade]);
  const r = await c.callTool({ name, arguments: args });
  await c.close();
  expect(r.isError).toBeFalsy();
  return r.structuredContent;
}

beforeAll(async () => {
  carol = api.as.carol!;
  brokerId = await createBroker(carol, "Gains broker");
  const asset = seedAsset(api.dataDir, { name: "Gain Holdings", currency: "EUR" });
  await commitOk(carol, {
    creates: [
      deposit(brokerId, DEPOSIT), buy(brokerId, asset, "10", `-${BUY_COST}`),
      { broker_id: brokerId, asset_id: asset, type: "SELL", date: "2024-03-01", quantity: "-4", cash: eur(PROCEEDS) },
      { broker_id: brokerId, asset_id: asset, type: "DIVIDEND", date: "2024-04-01", cash: eur(DIVIDEND) },
    ],
  });
  secrets = { full: await token("full"), relative: await token("relative"), aggregate: await token("aggregate") };
}, 60_000);

describe("MCP lots_and_realised_gains", () => {
  test("full: each sale with its FIFO lots, FIFO and average-cost gain, their percent, and totals per tax year", async () => {
    const r = await call("full", "lots_and_realised_gains");
    expect(r.currency).toBe("EUR");
    expect(r.method).toContain("FIFO");
    expect(r.disposals).toHaveLength(1);
    const d = r.disposals[0];
    expect(d).toEqual(expect.objectContaining({ asset_name: "Gain Holdings", quantity: "4", proceeds: PROCEEDS, fifo_gain: GAIN, fifo_gain_percent: "42.77" }));
    expect(d.lots).toEqual([expect.objectContaining({ acquisition_date: "2024-01-02", quantity: "4", holding_days: 59 })]);
    expect(r.years).toEqual([expect.objectContaining({ year: 2024, disposal_count: 1, fifo_gain: GAIN })]);
    expect(r.data_quality.status).toBe("ok");
    const none = await call("full", "lots_and_realised_gains", { year: 2023 });
    expect(none.totals.disposal_count).toBe(0);
    expect(none.disposals).toEqual([]);
  });

  test("relative: sales, lots and percentages without amounts or quantities; aggregate: totals per year only, no sale or name", async () => {
    const rel = await call("relative", "lots_and_realised_gains");
    expect(rel.disposals[0]).toEqual(expect.objectContaining({ asset_name: "Gain Holdings", fifo_gain_percent: "42.77", average_gain_percent: "42.77" }));
    expect(rel.disposals[0].proceeds).toBeUndefined();
    expect(rel.disposals[0].lots[0].quantity).toBeUndefined();
    expect(rel.disposals[0].lots[0].cost).toBeUndefined();
    const agg = await call("aggregate", "lots_and_realised_gains");
    expect(agg.disposals).toBeUndefined();
    expect(agg.totals).toEqual({ disposal_count: 1, fifo_gain_percent: "42.77", average_gain_percent: "42.77" });
    expect(JSON.stringify(agg)).not.toContain("Gain Holdings");
  });
});

describe("MCP income", () => {
  test("full: dividends by month and by asset in the target currency, with each row's share of the total", async () => {
    const r = await call("full", "income");
    expect(r.total).toBe(DIVIDEND);
    expect(r.events).toBe(1);
    expect(r.by_month).toEqual([{ month: "2024-04", dividends: DIVIDEND, interest: "0", total: DIVIDEND, share_percent: "100.00" }]);
    expect(r.by_asset).toEqual([expect.objectContaining({ asset_name: "Gain Holdings", dividends: DIVIDEND, share_percent: "100.00" })]);
    expect((await call("full", "income", { year: 2023 })).by_month).toEqual([]);
  });

  test("relative: months and assets with shares, no amounts; aggregate: months only", async () => {
    const rel = await call("relative", "income");
    expect(rel.by_month).toEqual([{ month: "2024-04", share_percent: "100.00" }]);
    expect(rel.by_asset).toEqual([expect.objectContaining({ asset_name: "Gain Holdings", share_percent: "100.00" })]);
    expect(rel.total).toBeUndefined();
    const agg = await call("aggregate", "income");
    expect(agg.by_asset).toBeUndefined();
    expect(agg.by_month).toEqual([{ month: "2024-04", share_percent: "100.00" }]);
  });
});

describe("canary: the analysis tools leak no amount below the full grade", () => {
  for (const grade of ["relative", "aggregate"] as const) {
    test(`${grade}: no rendering of the planted amounts in listings, results or errors`, async () => {
      const c = await connect(secrets[grade]);
      const seen: unknown[] = [await c.listTools()];
      const calls: [string, Record<string, unknown>][] = [
        ["lots_and_realised_gains", {}], ["lots_and_realised_gains", { year: 2024 }], ["lots_and_realised_gains", { year: "x" }],
        ["income", {}], ["income", { year: 2024 }], ["income", { year: -1 }],
        ...["portfolio.overview_and_history", "portfolio.asset_history"].flatMap((dataset_id) => ["compact", "full"].map((detail_level) =>
          ["ai_export_dataset", { dataset_id, detail_level, date_start: "2024-01-01", date_end: "2024-12-31" }] as [string, Record<string, unknown>])),
      ];
      for (const [name, args] of calls) seen.push(await c.callTool({ name, arguments: args }).catch((e: Error) => ({ error: e.message })));
      seen.push(await c.listPrompts(), await c.getPrompt({ name: "portfolio.fiscal_lots", arguments: {} }));
      await c.close();
      const text = JSON.stringify(seen);
      for (const leak of LEAKS) expect(text).not.toContain(leak);
      expect(text).toContain("data_quality");
      expect(text).toContain("42.77");
    });
  }
});

describe("MCP ai_export_dataset", () => {
  const args = { dataset_id: "portfolio.overview_and_history", detail_level: "full", date_start: "2024-01-01", date_end: "2024-12-31" };
  test("full: the dataset's structured data with its amounts; relative: masked by the export's own mask; aggregate: not listed", async () => {
    const full = await call("full", "ai_export_dataset", args);
    expect(full.amounts_masked).toBe(false);
    expect(JSON.stringify(full.data)).toContain("Gain Holdings");
    expect(LEAKS.some((l) => JSON.stringify(full.data).includes(l))).toBe(true);
    const rel = await call("relative", "ai_export_dataset", args);
    expect(rel.amounts_masked).toBe(true);
    expect(JSON.stringify(rel.data)).toContain("Gain Holdings");
    for (const leak of LEAKS) expect(JSON.stringify(rel)).not.toContain(leak);
    const agg = await connect(secrets.aggregate);
    expect((await agg.listTools()).tools.map((t) => t.name)).not.toContain("ai_export_dataset");
    await agg.close();
  });
});

describe("MCP prompts: the AI-export analyses", () => {
  test("every grade lists one prompt per analysis of the catalogue", async () => {
    const catalog = await (await fetch(`${api.base}/ai-export/catalog`)).json() as { analyses: { id: string }[] };
    for (const grade of ["full", "aggregate"] as const) {
      const c = await connect(secrets[grade]);
      const { prompts } = await c.listPrompts();
      await c.close();
      expect(prompts.map((p) => p.name).sort()).toEqual(catalog.analyses.map((a) => a.id).sort());
      expect(prompts.every((p) => p.description && p.arguments?.some((a) => a.name === "notes"))).toBe(true);
    }
  });

  test("a prompt carries the instruction template and response contract, names only the tools the grade may call, and the notes", async () => {
    const full = await connect(secrets.full);
    const p = await full.getPrompt({ name: "portfolio.rebalancing", arguments: { notes: "60/40 target" } });
    await full.close();
    const text = (p.messages[0]!.content as { text: string }).text;
    expect(text).toContain("drifted from the target allocation");
    expect(text).toContain("Response contract:");
    expect(text).toContain("`holdings`");
    expect(text).toContain("`portfolio_rebalancer`");
    expect(text).toContain("`portfolio_history`");
    expect(text).toContain("60/40 target");
    const agg = await connect(secrets.aggregate);
    const a = await agg.getPrompt({ name: "portfolio.rebalancing", arguments: {} });
    await agg.close();
    const aggText = (a.messages[0]!.content as { text: string }).text;
    expect(aggText).not.toContain("`holdings`");
    expect(aggText).not.toContain("`portfolio_rebalancer`");
    expect(aggText).toContain("`portfolio_history`");
    expect(aggText).toContain("`portfolio_summary`");
    expect(aggText).toContain("portfolio-level figures only");
  });
});
