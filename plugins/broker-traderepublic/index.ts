import { definePlugin } from "../../sdk/index.ts";
import { acceptsTraderepublic, parseTraderepublic } from "./parse.ts";

/** Trade Republic (code broker_traderepublic): the transactions CSV as exported by pytr. */
export const brokerTraderepublicPlugin = definePlugin({
  create: () => ({ accepts: acceptsTraderepublic, detectionPriority: 60, parse: async (params) => parseTraderepublic(params), supportedExtensions: ["csv"] }),
  description: "Trade Republic transactions (CSV written by pytr, German or English): trades, savings plans, dividends, interest, deposits and withdrawals",
  id: "broker_traderepublic",
  kind: "import-plugin",
  name: "Trade Republic",
  version: "1.0.0",
});

export default brokerTraderepublicPlugin;
