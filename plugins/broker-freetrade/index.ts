import { definePlugin } from "../../sdk/index.ts";
import { acceptsFreetrade, parseFreetrade } from "./parse.ts";

/** Freetrade (code broker_freetrade): the Activity feed CSV of a GIA, ISA or SIPP. */
export const brokerFreetradePlugin = definePlugin({
  create: () => ({ accepts: acceptsFreetrade, detectionPriority: 50, parse: async (params) => parseFreetrade(params), supportedExtensions: ["csv"] }),
  description: "Freetrade activity export (CSV): orders with stamp duty and FX fee, free shares, dividends with withholding, interest, top ups and withdrawals",
  id: "broker_freetrade",
  kind: "import-plugin",
  name: "Freetrade",
  version: "1.1.0",
});

export default brokerFreetradePlugin;
