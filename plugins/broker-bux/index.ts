import { definePlugin } from "../../sdk/index.ts";
import { acceptsBux, parseBux } from "./parse.ts";

/** BUX (code broker_bux): the transaction overview CSV of a BUX (Zero) account. */
export const brokerBuxPlugin = definePlugin({
  create: () => ({ accepts: acceptsBux, detectionPriority: 50, parse: async (params) => parseBux(params), supportedExtensions: ["csv"] }),
  description: "BUX transaction overview (CSV): trades, fees, dividends with dividend tax, interest, promotions, deposits and withdrawals",
  id: "broker_bux",
  kind: "import-plugin",
  name: "BUX",
  version: "1.1.0",
});

export default brokerBuxPlugin;
