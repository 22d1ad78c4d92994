import { definePlugin } from "../../sdk/index.ts";
import { acceptsDegiro, parseDegiro } from "./parse.ts";

/** DEGIRO (code broker_degiro): the Account.csv statement and the Transactions.csv export. */
export const brokerDegiroPlugin = definePlugin({
  create: () => ({
    accepts: acceptsDegiro,
    detectionPriority: 50,
    parse: async (params) => parseDegiro(params),
    supportedExtensions: ["csv"],
  }),
  description: "DEGIRO account statement (Account.csv) and transactions export (Transactions.csv)",
  id: "broker_degiro",
  kind: "import-plugin",
  name: "DEGIRO",
  version: "1.1.0",
});

export default brokerDegiroPlugin;
