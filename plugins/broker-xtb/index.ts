import { definePlugin } from "../../sdk/index.ts";
import { acceptsXtb, parseXtb } from "./parse.ts";

/** XTB (code broker_xtb): the cash operations of an account statement (XLSX) or the cash operations CSV. */
export const brokerXtbPlugin = definePlugin({
  create: () => ({ accepts: acceptsXtb, detectionPriority: 60, parse: parseXtb, supportedExtensions: ["xlsx", "xls", "csv"] }),
  description: "XTB cash operations (statement XLSX or CSV; a CSV needs option currency): trades, dividends, interest, taxes, deposits and withdrawals",
  id: "broker_xtb",
  kind: "import-plugin",
  name: "XTB",
  version: "1.1.0",
});

export default brokerXtbPlugin;
