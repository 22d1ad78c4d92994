/**
 * Configuration that points every built-in network plugin at a closed local port, so a test
 * server can never reach the real services (there is no internet here, and tests must not try).
 * Tests that need a provider's answers point it at a local fake instead.
 */
const CLOSED = "http://127.0.0.1:9";

export const OFFLINE_PLUGIN_CONFIG: Record<string, Record<string, unknown>> = {
  boe: { baseUrl: CLOSED },
  borsa_italiana: { baseUrl: CLOSED, chartsBaseUrl: CLOSED },
  ecb: { baseUrl: CLOSED },
  fed: { baseUrl: CLOSED },
  justetf: { baseUrl: CLOSED },
  snb: { baseUrl: CLOSED },
  yfinance: { baseUrl: CLOSED, searchBaseUrl: CLOSED },
};
