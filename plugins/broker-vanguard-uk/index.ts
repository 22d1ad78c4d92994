import { definePlugin } from "../../sdk/index.ts";
import { acceptsVanguardUk, parseVanguardUk } from "./parse.ts";

/** Vanguard UK Personal Investor (code broker_vanguard_uk): the Client Transactions Listing workbook. */
export const brokerVanguardUkPlugin = definePlugin({
  create: () => ({ accepts: acceptsVanguardUk, detectionPriority: 50, parse: async (params) => parseVanguardUk(params), supportedExtensions: ["xlsx", "xls", "csv"] }),
  description: "Vanguard UK Personal Investor transactions (XLSX): fund and ETF trades with their cash, dividends, interest, account fees, deposits and withdrawals",
  id: "broker_vanguard_uk",
  kind: "import-plugin",
  name: "Vanguard UK (Personal Investor)",
  version: "1.1.0",
});

export default brokerVanguardUkPlugin;
