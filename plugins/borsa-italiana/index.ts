import { definePlugin } from "../../sdk/index.ts";
import { BORSA_URL, ConfigSchema, createBorsaItalianaClient, ParamsSchema } from "./client.ts";

/**
 * Borsa Italiana: prices by ISIN of instruments listed in Milan (shares, bonds, ETFs),
 * in EUR, from the chart API the site itself uses; search over the site search in English and Italian;
 * name and asset type from the instrument page. Per-assignment `language` (en, it) picks the pages' language.
 */
export const borsaItalianaPlugin = definePlugin({
  configSchema: ConfigSchema,
  description: "Prices, history and search for instruments listed on Borsa Italiana, by ISIN, in EUR",
  id: "borsa_italiana",
  kind: "quote-provider",
  name: "Borsa Italiana",
  version: "1.0.0",
  create: (ctx) => {
    const client = createBorsaItalianaClient(ctx, ConfigSchema.parse(ctx.config ?? {}));
    return {
      getHistory: ({ identifier, providerParams, range, signal }) => client.getHistory(identifier, providerParams, range, signal),
      getMetadata: ({ identifier, providerParams, signal }) => client.getMetadata(identifier, providerParams, signal),
      getQuotes: ({ identifiers, providerParams, signal }) => client.getQuotes(identifiers, providerParams, signal),
      identifierType: "ISIN",
      // pageUrl has no assignment parameters, so the page is the English one.
      pageUrl: (identifier) =>
        `${BORSA_URL}/borsa/search/scheda.html?code=${encodeURIComponent(identifier.trim().toUpperCase())}&lang=en`,
      paramsSchema: ParamsSchema,
      search: ({ query, signal }) => client.search(query, signal),
    };
  },
});

export default borsaItalianaPlugin;
