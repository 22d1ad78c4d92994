import { definePlugin } from "../../sdk/index.ts";
import { acceptsFinpension, parseFinpension } from "./parse.ts";

/** finpension (code broker_finpension): the transactions CSV of a pillar 3a, vested benefits or BVG portfolio. */
export const brokerFinpensionPlugin = definePlugin({
  create: () => ({ accepts: acceptsFinpension, detectionPriority: 50, parse: async (params) => parseFinpension(params), supportedExtensions: ["csv"] }),
  description: "finpension transactions export (CSV, pillar 3a, vested benefits, BVG): fund purchases and sales, distributions, interest, flat-rate fees, deposits",
  id: "broker_finpension",
  kind: "import-plugin",
  name: "finpension",
  version: "1.1.0",
});

export default brokerFinpensionPlugin;
