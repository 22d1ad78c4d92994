import { definePlugin } from "../../sdk/index.ts";
import { createSnbFxProvider, SnbConfigSchema } from "./client.ts";

/**
 * Swiss National Bank (code SNB): monthly CHF rates against 10 currencies from the SNB data portal's
 * `devkum` cube, each dated on the last day of its month.
 */
export const snbPlugin = definePlugin({
  configSchema: SnbConfigSchema,
  create: createSnbFxProvider,
  description: "Monthly CHF exchange rates (month-end, else monthly average) from the SNB data portal's devkum cube",
  id: "snb",
  kind: "fx-provider",
  name: "Swiss National Bank",
  version: "1.0.0",
});

export default snbPlugin;
