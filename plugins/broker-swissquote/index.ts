import { definePlugin } from "../../sdk/index.ts";
import { acceptsSwissquote, parseSwissquote } from "./parse.ts";

/** Swissquote (code broker_swissquote): the transactions CSV export of a Swissquote trading account. */
export const brokerSwissquotePlugin = definePlugin({
  create: () => ({ accepts: acceptsSwissquote, detectionPriority: 50, parse: async (params) => parseSwissquote(params), supportedExtensions: ["csv"] }),
  description: "Swissquote transactions export (CSV, English or German): trades, dividends with withholding, custody fees, interest, currency exchanges, deposits and withdrawals",
  id: "broker_swissquote",
  kind: "import-plugin",
  name: "Swissquote",
  version: "1.1.0",
});

export default brokerSwissquotePlugin;
