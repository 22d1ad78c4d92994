import { describe, expect, test } from "bun:test";
import { brokerDegiroPlugin } from "../../plugins/broker-degiro/index.ts";
import { runImportPluginContract } from "../../sdk/testing/index.ts";
import { fixture, pinAll } from "./brim-helpers.ts";

// Hand-checked against the sample files (test/fixtures/brim/degiro/), written before the parser.
const account = fixture("degiro", "Account.csv");
const transactions = fixture("degiro", "Transactions.csv");
const generic = fixture("generic", "generic-en.csv");

runImportPluginContract(brokerDegiroPlugin, { sample: { ...account, foreign: generic.file, foreignBytes: generic.bytes } });
runImportPluginContract(brokerDegiroPlugin, { sample: transactions });

const parse = async (f: typeof account) => (await brokerDegiroPlugin.create({} as never)).parse(f);

describe("Degiro Account.csv", () => {
  test("every row kind is classified: deposit, buy fills, fees, AutoFX pair, dividend and its tax, FX of the dividend, connection fee, sell, interest, withdrawal", async () => {
    const result = await parse(account);
    expect(pinAll(result)).toEqual([
      "2 WITHDRAWAL 2024-04-02 q=0 -200 EUR -",
      "3 INTEREST 2024-04-01 q=0 0.45 EUR -",
      "4 FEE 2024-03-12 q=0 -1 EUR IE00B3RBWM25 order=5c7e2b61",
      "5 SELL 2024-03-12 q=-3 336.3 EUR IE00B3RBWM25 order=5c7e2b61",
      "6 FEE 2024-03-01 q=0 -2.5 EUR -",
      "8 FX_CONVERSION 2024-02-15 q=0 -10.2 USD - pair",
      "9 FX_CONVERSION 2024-02-15 q=0 9.35 EUR - pair",
      "10 TAX 2024-02-14 q=0 -1.8 USD US0378331005",
      "11 DIVIDEND 2024-02-14 q=0 12 USD US0378331005",
      "12 FEE 2024-01-05 q=0 -2 EUR US0378331005 order=9b2f4c10",
      "13 FX_CONVERSION 2024-01-05 q=0 -869.96 EUR - order=9b2f4c10 pair",
      "14 FX_CONVERSION 2024-01-05 q=0 950 USD - order=9b2f4c10 pair",
      "15 BUY 2024-01-05 q=5 -950 USD US0378331005 order=9b2f4c10",
      "16 FEE 2024-01-03 q=0 -1 EUR IE00B3RBWM25 order=7a1c9a43",
      "17 BUY 2024-01-03 q=4 -433.68 EUR IE00B3RBWM25 order=7a1c9a43",
      "18 BUY 2024-01-03 q=6 -650.52 EUR IE00B3RBWM25 order=7a1c9a43",
      "19 DEPOSIT 2024-01-02 q=0 2500 EUR -",
    ]);
    expect(result.transactions.find((t) => t.row === 15)).toMatchObject({ assetName: "APPLE INC. - COMMON STOCK" });
  });

  test("the two legs of each exchange share one pair key, distinct per exchange", async () => {
    const legs = (await parse(account)).transactions.filter((t) => t.type === "FX_CONVERSION");
    expect(legs[0]!.pairKey).toBe(legs[1]!.pairKey!);
    expect(legs[2]!.pairKey).toBe(legs[3]!.pairKey!);
    expect(legs[0]!.pairKey).not.toBe(legs[2]!.pairKey!);
  });

  test("internal cash-fund movements of zero are skipped with an info warning", async () => {
    const { warnings } = await parse(account);
    expect(warnings).toEqual([expect.objectContaining({ code: "rowSkipped", row: 7, severity: "info" })]);
  });
});

describe("Degiro Transactions.csv", () => {
  test("trades in local currency, an FX pair when the account currency differs, fees as their own rows", async () => {
    expect(pinAll(await parse(transactions))).toEqual([
      "2 SELL 2024-03-12 q=-3 336.3 EUR IE00B3RBWM25 order=5c7e2b61",
      "2 FEE 2024-03-12 q=0 -1 EUR IE00B3RBWM25 order=5c7e2b61",
      "3 BUY 2024-01-05 q=5 -950 USD US0378331005 order=9b2f4c10",
      "3 FX_CONVERSION 2024-01-05 q=0 -869.96 EUR - order=9b2f4c10 pair",
      "3 FX_CONVERSION 2024-01-05 q=0 950 USD - order=9b2f4c10 pair",
      "3 FEE 2024-01-05 q=0 -2 EUR US0378331005 order=9b2f4c10",
      "4 BUY 2024-01-03 q=4 -433.68 EUR IE00B3RBWM25 order=7a1c9a43",
      "5 BUY 2024-01-03 q=6 -650.52 EUR IE00B3RBWM25 order=7a1c9a43",
      "5 FEE 2024-01-03 q=0 -1 EUR IE00B3RBWM25 order=7a1c9a43",
    ]);
  });
});

describe("Degiro detection", () => {
  test("both exports are claimed with high confidence; a generic CSV is not", async () => {
    const plugin = await brokerDegiroPlugin.create({} as never);
    expect(plugin.accepts(account.file)).toBeGreaterThanOrEqual(0.9);
    expect(plugin.accepts(transactions.file)).toBeGreaterThanOrEqual(0.9);
    expect(plugin.accepts(generic.file)).toBe(0);
  });
});
