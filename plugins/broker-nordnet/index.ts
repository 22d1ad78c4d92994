import { definePlugin } from "../../sdk/index.ts";
import { acceptsNordnet, parseNordnet } from "./parse.ts";

/** Nordnet (code broker_nordnet): the transactions and notes export of Nordnet Sweden, Norway, Denmark and Finland. */
export const brokerNordnetPlugin = definePlugin({
  create: () => ({ accepts: acceptsNordnet, detectionPriority: 50, parse: async (params) => parseNordnet(params), supportedExtensions: ["csv", "txt"] }),
  description: "Nordnet transactions export (UTF-16 CSV, Swedish, Norwegian, Danish or Finnish): trades, dividends and withholding, interest, fees, taxes, deposits and withdrawals",
  id: "broker_nordnet",
  kind: "import-plugin",
  name: "Nordnet",
  version: "1.1.0",
});

export default brokerNordnetPlugin;
