import { definePlugin } from "../../sdk/index.ts";
import { createFedFxProvider, FedConfigSchema } from "./client.ts";

/**
 * Federal Reserve (code FED): USD against 20 currencies from the H.10 daily noon buying rates in New
 * York, downloaded as FRED CSV series (DEXUSEU, DEXJPUS, ...).
 */
export const fedPlugin = definePlugin({
  configSchema: FedConfigSchema,
  create: createFedFxProvider,
  description: "Daily USD exchange rates from the Federal Reserve's H.10 release, via FRED CSV downloads",
  id: "fed",
  kind: "fx-provider",
  name: "Federal Reserve (H.10 via FRED)",
  version: "1.0.0",
});

export default fedPlugin;
