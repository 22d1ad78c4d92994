import { definePlugin } from "../../sdk/index.ts";
import { acceptsIbkr, parseIbkr } from "./parse.ts";

/** Interactive Brokers (code broker_ibkr): Activity Flex Query statements, XML or CSV. */
export const brokerIbkrPlugin = definePlugin({
  create: () => ({
    accepts: acceptsIbkr,
    detectionPriority: 50,
    parse: async (params) => parseIbkr(params),
    supportedExtensions: ["xml", "csv"],
  }),
  description: "Interactive Brokers Activity Flex Query (Trades and Cash Transactions), XML or CSV",
  id: "broker_ibkr",
  kind: "import-plugin",
  name: "Interactive Brokers",
  version: "1.1.0",
});

export default brokerIbkrPlugin;
