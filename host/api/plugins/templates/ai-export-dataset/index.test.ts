import { currency, decimal, isoDate, type AiExportQuery, type AiExportReader, type AiExportTransaction } from "@portfolio-tracker/sdk";
import { createFakeContext, expect, runAiExportDatasetContract, test } from "@portfolio-tracker/sdk/testing";
import plugin from "./index.ts";

const EUR = currency("EUR");
const ledger: AiExportTransaction[] = [
  { id: 1, brokerId: 1, assetId: null, type: "DEPOSIT", date: isoDate("2024-01-02"), quantity: decimal("0"), cash: { amount: decimal("1000"), currency: EUR } },
  { id: 2, brokerId: 1, assetId: 7, type: "BUY", date: isoDate("2024-01-03"), quantity: decimal("4"), cash: { amount: decimal("-402.50"), currency: EUR } },
  { id: 3, brokerId: 1, assetId: 7, type: "DIVIDEND", date: isoDate("2024-03-15"), quantity: decimal("0"), cash: { amount: decimal("3.20"), currency: EUR } },
];
// A fake of the host's reader: it answers from the ledger above, for the period asked.
const reader: AiExportReader = {
  holdings: async () => [],
  component: async () => null,
  transactions: async ({ range }) => ledger.filter((tx) => tx.date >= range.from && tx.date <= range.to),
};
const query: AiExportQuery = {
  brokerIds: [1], detailLevel: "standard", period: { from: isoDate("2024-01-01"), to: isoDate("2024-12-31") }, targetCurrency: EUR,
};

runAiExportDatasetContract(plugin, { sample: { query, reader } });

test("counts the period's transactions by type and sums the cash per currency", async () => {
  const dataset = await plugin.create(createFakeContext());
  const { data, warnings } = await dataset.build({ query, reader });
  expect(data).toEqual({
    period: { from: "2024-01-01", to: "2024-12-31" },
    transaction_count: 3,
    transactions_by_type: { DEPOSIT: 1, BUY: 1, DIVIDEND: 1 },
    net_cash_flow: [{ code: "EUR", amount: "600.7" }],
  });
  expect(warnings).toEqual([]);
});

test("an empty period gives a warning, and compact leaves the amounts out", async () => {
  const dataset = await plugin.create(createFakeContext());
  const empty = { ...query, detailLevel: "compact" as const, period: { from: isoDate("2023-01-01"), to: isoDate("2023-12-31") } };
  const { data, warnings } = await dataset.build({ query: empty, reader });
  expect(data).toEqual({ period: empty.period, transaction_count: 0, transactions_by_type: {} });
  expect(warnings).toEqual(["No transactions in the period"]);
});
