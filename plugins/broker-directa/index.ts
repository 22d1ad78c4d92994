import { definePlugin } from "../../sdk/index.ts";
import { acceptsDirecta, parseDirecta } from "./parse.ts";

/** Directa SIM (code broker_directa): the "Movimenti" CSV export. */
export const brokerDirectaPlugin = definePlugin({
  create: () => ({ accepts: acceptsDirecta, detectionPriority: 50, parse: async (params) => parseDirecta(params), supportedExtensions: ["csv"] }),
  description: "Directa SIM movimenti (CSV): trades with commissions and Tobin tax, dividends and withholding, interest, transfers",
  id: "broker_directa",
  kind: "import-plugin",
  name: "Directa SIM",
  version: "1.0.0",
});

export default brokerDirectaPlugin;
