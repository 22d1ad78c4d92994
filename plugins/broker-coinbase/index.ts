import { definePlugin } from "../../sdk/index.ts";
import { acceptsCoinbase, parseCoinbase } from "./parse.ts";

/** Coinbase (code broker_coinbase): the transaction history report. */
export const brokerCoinbasePlugin = definePlugin({
  create: () => ({ accepts: acceptsCoinbase, detectionPriority: 50, parse: async (params) => parseCoinbase(params), supportedExtensions: ["csv"] }),
  description: "Coinbase transaction history (CSV): buys, sells, converts, staking and rewards, sends and receives, fiat deposits and withdrawals",
  id: "broker_coinbase",
  kind: "import-plugin",
  name: "Coinbase",
  version: "1.0.0",
});

export default brokerCoinbasePlugin;
