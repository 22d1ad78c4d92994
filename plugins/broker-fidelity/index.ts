import { definePlugin } from "../../sdk/index.ts";
import { acceptsFidelity, parseFidelity } from "./parse.ts";

/** Fidelity Investments US (code broker_fidelity): the account history CSV ("History for Account"). */
export const brokerFidelityPlugin = definePlugin({
  create: () => ({ accepts: acceptsFidelity, detectionPriority: 50, parse: async (params) => parseFidelity(params), supportedExtensions: ["csv"] }),
  description: "Fidelity (US) account history (CSV): trades with commission and fees, reinvestments, dividends and capital gains, foreign tax, interest, transfers in and out",
  id: "broker_fidelity",
  kind: "import-plugin",
  name: "Fidelity (US)",
  version: "1.1.0",
});

export default brokerFidelityPlugin;
