import { Decimal, definePlugin, PluginError, toDecimalString } from "@portfolio-tracker/sdk";

// One dataset of the AI export: what happened in the period, from the transactions the host's
// reader gives (already limited to the caller's brokers). Money is written as {code, amount}
// objects, the form the host masks when the user hides amounts.
export default definePlugin({
  description: "Transactions of the period counted by type, with the net cash flow per currency.",
  id: "activity-summary",
  kind: "ai-export-dataset",
  name: "Activity Summary",
  version: "0.1.0",
  create: () => ({
    id: "portfolio.activity_summary", // the catalog id, <domain>.<name>, unique among datasets
    datasetVersion: 1,
    describe: () => ({
      domain: "portfolio",
      periodSemantics: "windowed",
      supportedDetailLevels: ["compact", "standard", "full"],
      title: "Activity summary",
    }),
    async build({ query, reader, signal }) {
      const transactions = await reader.transactions({ brokerIds: query.brokerIds, range: query.period, signal })
        .catch((cause: unknown) => { throw new PluginError("unavailable", "transactions could not be read", { cause }); });
      const byType: Record<string, number> = {};
      const net = new Map<string, Decimal>();
      for (const tx of transactions) {
        byType[tx.type] = (byType[tx.type] ?? 0) + 1;
        if (tx.cash) net.set(tx.cash.currency, (net.get(tx.cash.currency) ?? new Decimal(0)).plus(tx.cash.amount));
      }
      const netCash = [...net].sort(([a], [b]) => a.localeCompare(b)).map(([code, amount]) => ({ code, amount: toDecimalString(amount) }));
      return {
        data: {
          period: query.period,
          transaction_count: transactions.length,
          transactions_by_type: byType,
          ...(query.detailLevel === "compact" ? {} : { net_cash_flow: netCash }),
        },
        warnings: transactions.length === 0 ? ["No transactions in the period"] : [],
      };
    },
  }),
});
