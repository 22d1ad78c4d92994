import { definePlugin } from "../../sdk/index.ts";
import { acceptsScalable, parseScalable } from "./parse.ts";

/** Scalable Capital (code broker_scalable): the transactions CSV export of the broker account. */
export const brokerScalablePlugin = definePlugin({
  create: () => ({ accepts: acceptsScalable, detectionPriority: 50, parse: async (params) => parseScalable(params), supportedExtensions: ["csv"] }),
  description: "Scalable Capital transactions export (CSV): trades, savings plans, distributions, interest, fees and taxes",
  id: "broker_scalable",
  kind: "import-plugin",
  name: "Scalable Capital",
  version: "1.1.0",
});

export default brokerScalablePlugin;
