import { definePlugin } from "../../sdk/index.ts";
import { acceptsInteractiveInvestor, parseInteractiveInvestor } from "./parse.ts";

/** interactive investor (code broker_interactive_investor): the transaction history CSV of a Trading account, ISA or SIPP. */
export const brokerInteractiveInvestorPlugin = definePlugin({
  create: () => ({
    accepts: acceptsInteractiveInvestor, detectionPriority: 50, parse: async (params) => parseInteractiveInvestor(params), supportedExtensions: ["csv"],
  }),
  description: "interactive investor transaction history (CSV): trades, dividends, interest, fees, currency exchanges, deposits and withdrawals",
  id: "broker_interactive_investor",
  kind: "import-plugin",
  name: "interactive investor",
  version: "1.1.0",
});

export default brokerInteractiveInvestorPlugin;
