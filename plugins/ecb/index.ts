import { definePlugin } from "../../sdk/index.ts";
import { createEcbFxProvider, EcbConfigSchema } from "./client.ts";

/**
 * European Central Bank (code ECB): the daily euro foreign exchange reference rates (EUR against ~30
 * currencies, TARGET business days) from the ECB Data Portal's EXR dataflow.
 */
export const ecbPlugin = definePlugin({
  configSchema: EcbConfigSchema,
  create: createEcbFxProvider,
  description: "Daily euro foreign exchange reference rates from the ECB Data Portal (EXR dataflow, SDMX-JSON)",
  id: "ecb",
  kind: "fx-provider",
  name: "European Central Bank",
  version: "1.0.0",
});

export default ecbPlugin;
