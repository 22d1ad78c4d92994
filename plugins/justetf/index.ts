import { definePlugin } from "../../sdk/index.ts";
import { ConfigSchema, createJustEtfClient, JUSTETF_URL, ParamsSchema } from "./client.ts";

/**
 * justETF: ETF prices by ISIN from the site's chart data, in the currency the
 * assignment asks for (`currency`: EUR, USD, CHF or GBP; default EUR). History, the latest quote,
 * search through the ETF screener, and the name from the ETF cards.
 */
export const justetfPlugin = definePlugin({
  configSchema: ConfigSchema,
  description: "ETF prices by ISIN from justETF's chart data, in EUR, USD, CHF or GBP",
  id: "justetf",
  kind: "quote-provider",
  name: "JustETF",
  version: "1.0.0",
  create: (ctx) => {
    const client = createJustEtfClient(ctx, ConfigSchema.parse(ctx.config ?? {}));
    return {
      getHistory: ({ identifier, providerParams, range, signal }) => client.getHistory(identifier, providerParams, range, signal),
      getMetadata: ({ identifier, providerParams, signal }) => client.getMetadata(identifier, providerParams, signal),
      getQuotes: ({ identifiers, providerParams, signal }) => client.getQuotes(identifiers, providerParams, signal),
      identifierType: "ISIN",
      pageUrl: (identifier) => `${JUSTETF_URL}/en/etf-profile.html?isin=${encodeURIComponent(identifier.trim().toUpperCase())}`,
      paramsSchema: ParamsSchema,
      search: ({ query, signal }) => client.search(query, signal),
    };
  },
});

export default justetfPlugin;
