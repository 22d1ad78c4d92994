import { definePlugin } from "../../sdk/index.ts";
import { acceptsBitvavo, parseBitvavo } from "./parse.ts";

/** Bitvavo (code broker_bitvavo): the transaction history export of the crypto exchange. */
export const brokerBitvavoPlugin = definePlugin({
  create: () => ({ accepts: acceptsBitvavo, detectionPriority: 50, parse: async (params) => parseBitvavo(params), supportedExtensions: ["csv"] }),
  description: "Bitvavo transaction export (CSV): buys, sells, staking, deposits and withdrawals of coins and euros",
  id: "broker_bitvavo",
  kind: "import-plugin",
  name: "Bitvavo",
  version: "1.0.0",
});

export default brokerBitvavoPlugin;
