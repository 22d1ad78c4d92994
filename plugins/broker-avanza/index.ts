import { definePlugin } from "../../sdk/index.ts";
import { acceptsAvanza, parseAvanza } from "./parse.ts";

/** Avanza (code broker_avanza): the transactions CSV export of Avanza accounts (ISK, KF, depå). */
export const brokerAvanzaPlugin = definePlugin({
  create: () => ({ accepts: acceptsAvanza, detectionPriority: 50, parse: async (params) => parseAvanza(params), supportedExtensions: ["csv"] }),
  description: "Avanza transactions export (CSV): trades, dividends with foreign withholding, interest, taxes, fees, deposits and withdrawals",
  id: "broker_avanza",
  kind: "import-plugin",
  name: "Avanza",
  version: "1.1.0",
});

export default brokerAvanzaPlugin;
