import { isoDate } from "@portfolio-tracker/sdk";
import { createFakeContext, expect, runScheduledInvestmentProviderContract, test } from "@portfolio-tracker/sdk/testing";
import plugin from "./index.ts";

const params = { annual_rate: "0.0365", issue_date: "2024-01-01", maturity_date: "2025-01-01" };
const range = { from: isoDate("2024-12-30"), to: isoDate("2025-01-05") };

runScheduledInvestmentProviderContract(plugin, { sample: { params, range } });

test("the value accrues day by day and the note is repaid with its interest at maturity", async () => {
  const note = await plugin.create(createFakeContext());
  const input = { params: note.paramsSchema.parse(params), range };
  expect(note.generatePrices(input)).toEqual([
    { date: "2024-12-30", value: "103.64" },
    { date: "2024-12-31", value: "103.65" },
    { date: "2025-01-01", value: "103.66" },
  ]);
  expect(note.generateEvents(input)).toEqual([{ date: "2025-01-01", type: "MATURITY_SETTLEMENT", value: "103.66" }]);
});

test("parameters with maturity before issue are refused", async () => {
  const note = await plugin.create(createFakeContext());
  expect(note.paramsSchema.safeParse({ ...params, maturity_date: "2023-12-31" }).success).toBe(false);
});
