import { definePlugin } from "../../sdk/index.ts";
import { acceptsTrading212, parseTrading212 } from "./parse.ts";

/** Trading 212 (code broker_trading212): the History CSV export of an Invest or ISA account. */
export const brokerTrading212Plugin = definePlugin({
  create: () => ({
    accepts: acceptsTrading212,
    detectionPriority: 50,
    parse: async (params) => parseTrading212(params),
    supportedExtensions: ["csv"],
  }),
  description: "Trading 212 history export (CSV): trades, dividends with withholding, interest, deposits and withdrawals",
  id: "broker_trading212",
  kind: "import-plugin",
  name: "Trading 212",
  version: "1.1.0",
});

export default brokerTrading212Plugin;
