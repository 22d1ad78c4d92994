import { describe, expect, test } from "bun:test";
import { useApi } from "../../helpers/server.ts";
import { createBroker, parsed, sample, uploaded } from "./helpers.ts";

// An asset created by an import gets the instrument type the report states (docs/import.md
// "Asset types"); a report that does not say leaves the type unset, whatever its ISIN looks like.
const api = useApi({ users: ["alice"] });

/** Commits a parse creating every asset it names (`asset` merged into each create), dry run first for the token. */
async function commitCreatingAll(fileId: string, preview: any, asset: Record<string, unknown> = {}) {
  const alice = api.as.alice!;
  const decisions = {
    edits: [], skips: [], keep_duplicates: [],
    asset_choices: preview.asset_mappings.map((m: any) => ({ fake_asset_id: m.fake_asset_id, action: "create", ...(Object.keys(asset).length ? { asset } : {}) })),
  };
  const dry = await (await alice.post(`/brokers/import/files/${fileId}/commit`, { ...decisions, dry_run: true })).json();
  const res = await alice.post(`/brokers/import/files/${fileId}/commit`, { ...decisions, dry_run: false, parse_token: dry.parse_token });
  expect(res.status).toBe(200);
  return res.json();
}

describe("imported assets get the type their report states", () => {
  test("Trade Republic's asset class: a stock is a stock, its FUND a fund, crypto crypto; the mapping shows it", async () => {
    // The sample sells crypto it received before its first line: shorting on, so that the commit goes through.
    const broker = (await (await api.as.alice!.post("/brokers", [{ name: "Trade Republic", allow_asset_shorting: true, allow_cash_overdraft: true }])).json()).results[0].broker_id;
    const file = await uploaded(api.as.alice!, broker, "transactions.csv", sample("traderepublic", "transactions-app.csv"));
    const preview = await parsed(api.as.alice!, file.file_id, broker);
    const typeOf = (isin: string) => preview.asset_mappings.find((m: any) => m.extracted_isin === isin || m.extracted_symbol === isin)?.extracted_asset_type;
    expect(typeOf("US5949181045")).toBe("STOCK");
    expect(typeOf("IE00B4L5Y983")).toBe("FUND");
    expect(typeOf("BTC")).toBe("CRYPTO");
    const result = await commitCreatingAll(file.file_id, preview);
    expect(result.issues).toEqual([]);
    const created = Object.fromEntries(result.assets.map((a: any) => [a.name, a.asset_type]));
    expect(created).toMatchObject({ Microsoft: "STOCK", "Core MSCI World USD (Acc)": "FUND", Bitcoin: "CRYPTO" });
    const stored = await (await api.as.alice!.get(`/assets/${result.assets.find((a: any) => a.name === "Microsoft").asset_id}`)).json();
    expect(stored.asset_type).toBe("STOCK");
  });

  test("a report without a kind column types an asset by an unambiguous word of its name: DEGIRO's UCITS ETF an ETF, its common stock a STOCK", async () => {
    // The transactions report holds trades only, no deposits: an overdraft, so that the commit goes through.
    const broker = (await (await api.as.alice!.post("/brokers", [{ name: "DEGIRO types", allow_cash_overdraft: true }])).json()).results[0].broker_id;
    const file = await uploaded(api.as.alice!, broker, "Transactions.csv", sample("degiro", "Transactions.csv"));
    const preview = await parsed(api.as.alice!, file.file_id, broker);
    const typeOf = (isin: string) => preview.asset_mappings.find((m: any) => m.extracted_isin === isin)?.extracted_asset_type;
    expect(typeOf("IE00B3RBWM25")).toBe("ETF");
    expect(typeOf("US0378331005")).toBe("STOCK");
    const result = await commitCreatingAll(file.file_id, preview);
    expect(result.issues).toEqual([]);
    const created = Object.fromEntries(result.assets.map((a: any) => [a.name, a.asset_type]));
    expect(created).toEqual({ "VANGUARD FTSE ALL-WORLD UCITS ETF USD DIS": "ETF", "APPLE INC. - COMMON STOCK": "STOCK" });
    for (const a of result.assets) {
      const stored = await (await api.as.alice!.get(`/assets/${a.asset_id}`)).json();
      expect(stored.asset_type).toBe(created[a.name]);
    }
  });

  test("a report that does not say (the generic CSV) leaves the type unset, even for an ETF's ISIN", async () => {
    const broker = await createBroker(api.as.alice!, "Generic");
    const csv = ["Date,Type,Symbol,ISIN,Name,Quantity,Price,Amount,Currency,Fee,Description", "2024-01-04,Buy,VWCE,IE00BK5BQT80,Vanguard FTSE All-World,2,100.00,200.00,EUR,,"].join("\n");
    const file = await uploaded(api.as.alice!, broker, "generic.csv", csv);
    const preview = await parsed(api.as.alice!, file.file_id, broker);
    expect(preview.asset_mappings[0].extracted_asset_type).toBeUndefined();
    const result = await commitCreatingAll(file.file_id, preview);
    expect(result.assets[0].asset_type).toBeNull();
  });

  test("the user's choice in asset_choices wins over the report's type", async () => {
    const broker = await createBroker(api.as.alice!, "Trade Republic 2");
    const file = await uploaded(api.as.alice!, broker, "transactions.csv", sample("traderepublic", "transactions-app.csv"));
    const preview = await parsed(api.as.alice!, file.file_id, broker);
    const fund = preview.asset_mappings.find((m: any) => m.extracted_isin === "IE00B4L5Y983");
    const others = preview.asset_mappings.filter((m: any) => m !== fund);
    const alice = api.as.alice!;
    const decisions = {
      edits: [], skips: [], keep_duplicates: [],
      asset_choices: [
        { fake_asset_id: fund.fake_asset_id, action: "create", asset: { asset_type: "ETF", name: "MSCI World ETF" } },
        ...others.map((m: any) => ({ fake_asset_id: m.fake_asset_id, action: "create", asset: { name: `${m.extracted_name} (2)` } })),
      ],
    };
    const dry = await (await alice.post(`/brokers/import/files/${file.file_id}/commit`, { ...decisions, dry_run: true })).json();
    expect(dry.assets.find((a: any) => a.fake_asset_id === fund.fake_asset_id).asset_type).toBe("ETF");
  });
});
