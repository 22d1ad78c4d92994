import { definePlugin } from "../../sdk/index.ts";
import { acceptsSaxo, parseSaxo } from "./parse.ts";

/** Saxo Bank (code broker_saxo): the Transactions report (XLSX or CSV). Option `currency`: the account's currency when the report does not show it. */
export const brokerSaxoPlugin = definePlugin({
  create: () => ({ accepts: acceptsSaxo, detectionPriority: 60, parse: parseSaxo, supportedExtensions: ["xlsx", "csv"] }),
  description: "Saxo Bank Transactions report (XLSX or CSV): trades with commissions, dividends and withholding, interest, fees, transfers",
  id: "broker_saxo",
  kind: "import-plugin",
  name: "Saxo Bank",
  version: "1.2.0",
});

export default brokerSaxoPlugin;
