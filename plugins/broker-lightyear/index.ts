import { definePlugin } from "../../sdk/index.ts";
import { acceptsLightyear, parseLightyear } from "./parse.ts";

/** Lightyear (code broker_lightyear): the account statement CSV of the app or web. */
export const brokerLightyearPlugin = definePlugin({
  create: () => ({ accepts: acceptsLightyear, detectionPriority: 50, parse: async (params) => parseLightyear(params), supportedExtensions: ["csv"] }),
  description: "Lightyear account statement (CSV): trades with fees, dividends and fund distributions with withholding, interest, rewards, currency conversions, deposits and withdrawals",
  id: "broker_lightyear",
  kind: "import-plugin",
  name: "Lightyear",
  version: "1.0.0",
});

export default brokerLightyearPlugin;
