import { definePlugin } from "../../sdk/index.ts";
import { ConfigSchema, createCssScraper, ParamsSchema } from "./client.ts";

/**
 * CSS web scraper: the identifier is a page URL; the assignment's
 * `current_css_selector` picks the element whose text is the price, read in `decimal_format` (us or eu)
 * and quoted in `currency` on the day of the fetch. Current price only: no history, no search.
 */
export const cssscraperPlugin = definePlugin({
  configSchema: ConfigSchema,
  description: "The current price read from any web page with a CSS selector",
  id: "cssscraper",
  kind: "quote-provider",
  name: "CSS Web Scraper",
  version: "1.0.0",
  create: (ctx) => {
    const scraper = createCssScraper(ctx, ConfigSchema.parse(ctx.config ?? {}));
    return {
      getHistory: async () => [],
      getQuotes: ({ identifiers, providerParams, signal }) => scraper.getQuotes(identifiers, providerParams, signal),
      identifierType: "URL",
      pageUrl: (identifier) => identifier.trim(),
      paramsSchema: ParamsSchema,
      search: async () => [],
    };
  },
});

export default cssscraperPlugin;
