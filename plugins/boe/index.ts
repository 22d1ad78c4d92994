import { definePlugin } from "../../sdk/index.ts";
import { BoeConfigSchema, createBoeFxProvider } from "./client.ts";

/** Bank of England (code BOE): daily spot rates of GBP against 15 currencies from the BoE database. */
export const boePlugin = definePlugin({
  configSchema: BoeConfigSchema,
  create: createBoeFxProvider,
  description: "Daily GBP exchange rates (XUDL spot series) from the Bank of England database CSV export",
  id: "boe",
  kind: "fx-provider",
  name: "Bank of England",
  version: "1.0.0",
});

export default boePlugin;
