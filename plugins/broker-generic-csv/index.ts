import { definePlugin } from "../../sdk/index.ts";
import { acceptsGeneric, parseGenericCsv } from "./parse.ts";

/**
 * Generic CSV (code broker_generic_csv): one transaction per row with multilingual headers
 * (EN/IT/DE/FR/ES/NL) or a user-given column mapping; the fallback of automatic detection.
 */
export const brokerGenericCsvPlugin = definePlugin({
  create: () => ({
    accepts: acceptsGeneric,
    detectionPriority: 1000,
    parse: async (params) => parseGenericCsv(params),
    supportedExtensions: ["csv", "txt", "tsv"],
  }),
  description: "Any CSV with one transaction per row: headers in English, Italian, German, French, Spanish or Dutch, or mapped by hand",
  id: "broker_generic_csv",
  kind: "import-plugin",
  name: "Generic CSV",
  version: "1.1.0",
});

export default brokerGenericCsvPlugin;
