import { definePlugin } from "../../sdk/index.ts";
import { acceptsSchwab, parseSchwab } from "./parse.ts";

/** Charles Schwab (code broker_schwab): the brokerage account's transactions CSV. */
export const brokerSchwabPlugin = definePlugin({
  create: () => ({ accepts: acceptsSchwab, detectionPriority: 50, parse: async (params) => parseSchwab(params), supportedExtensions: ["csv"] }),
  description: "Charles Schwab brokerage transactions (CSV): trades, dividends, taxes, interest and transfers",
  id: "broker_schwab",
  kind: "import-plugin",
  name: "Charles Schwab",
  version: "1.2.0",
});

export default brokerSchwabPlugin;
