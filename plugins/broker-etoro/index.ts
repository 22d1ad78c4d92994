import { definePlugin } from "../../sdk/index.ts";
import { acceptsEtoro, parseEtoro } from "./parse.ts";

/** eToro (code broker_etoro): the account statement's Account Activity sheet (XLSX, or that sheet as CSV). */
export const brokerEtoroPlugin = definePlugin({
  create: () => ({ accepts: acceptsEtoro, detectionPriority: 60, parse: parseEtoro, supportedExtensions: ["xlsx", "csv"] }),
  description: "eToro account statement (XLSX, Account Activity): positions opened and closed, dividends, interest, fees, deposits and withdrawals",
  id: "broker_etoro",
  kind: "import-plugin",
  name: "eToro",
  version: "1.1.0",
});

export default brokerEtoroPlugin;
