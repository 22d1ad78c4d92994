import { definePlugin } from "../../sdk/index.ts";
import { acceptsTraderepublic, parseTraderepublic } from "./parse.ts";

/** Trade Republic (code broker_traderepublic): the app's own transaction export CSV, or the transactions CSV written by pytr. */
export const brokerTraderepublicPlugin = definePlugin({
  create: () => ({ accepts: acceptsTraderepublic, detectionPriority: 60, parse: async (params) => parseTraderepublic(params), supportedExtensions: ["csv"] }),
  description: "Trade Republic transactions (the app's export CSV, or the CSV written by pytr in German or English): trades, savings plans, dividends, interest, deposits and withdrawals",
  id: "broker_traderepublic",
  kind: "import-plugin",
  name: "Trade Republic",
  version: "1.2.0",
});

export default brokerTraderepublicPlugin;
