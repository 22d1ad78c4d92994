import { definePlugin } from "../../sdk/index.ts";
import { createYahooQuoteProvider, YfinanceConfigSchema } from "./client.ts";

/** Yahoo Finance (identifier: ticker): latest quotes, daily OHLCV history, dividends and splits, search, metadata. */
export const yfinancePlugin = definePlugin({
  configSchema: YfinanceConfigSchema,
  create: createYahooQuoteProvider,
  description: "Quotes, daily price history, dividends and splits from Yahoo Finance's public chart and search APIs",
  id: "yfinance",
  kind: "quote-provider",
  name: "Yahoo Finance",
  version: "1.0.0",
});

export default yfinancePlugin;
