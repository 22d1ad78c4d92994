import { definePlugin } from "../../sdk/index.ts";
import { acceptsRevolut, parseRevolut } from "./parse.ts";

/** Revolut (code broker_revolut): the trading account statement CSV of Revolut Invest. */
export const brokerRevolutPlugin = definePlugin({
  create: () => ({ accepts: acceptsRevolut, detectionPriority: 50, parse: async (params) => parseRevolut(params), supportedExtensions: ["csv"] }),
  description: "Revolut trading account statement (CSV): trades, dividends, custody fees, top-ups and withdrawals",
  id: "broker_revolut",
  kind: "import-plugin",
  name: "Revolut",
  version: "1.1.1",
});

export default brokerRevolutPlugin;
