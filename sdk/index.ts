/**
 * The plugin SDK of portfolio-tracker: the only import path for plugins.
 * Everything public is listed here by name; `test/architecture/sdk-exports.test.ts`
 * snapshots the list so changes stay deliberate (see CHANGELOG.md).
 */

export { mapBounded } from "./concurrency.ts";
export { ratesPerPair } from "./fx-rates.ts";
export type { RatesOutcome, RatesPerPairSource } from "./fx-rates.ts";
export { createHttpClient, DEFAULT_HTTP_TIMEOUT_MS } from "./context.ts";
export type {
  HttpClientOptions,
  HttpRequestInit,
  LogFields,
  PluginClock,
  PluginContext,
  PluginHttpClient,
  PluginLogger,
  TextAnswer,
} from "./context.ts";
export { IsoDateRangeSchema, IsoDateSchema, toIsoDate } from "./dates.ts";
export type { IsoDate, IsoDateRange } from "./dates.ts";
export { definePlugin, isPlugin, missingMembers, PLUGIN_BRAND } from "./define-plugin.ts";
export type { KindInstance, KindInstanceMap, Plugin, PluginSpec } from "./define-plugin.ts";
export { boundedDecimal, DECIMAL_LIMITS, isLimitMessage, limitMessage, withinLimits } from "./decimal-limits.ts";
export type { DecimalKind, DecimalLimit } from "./decimal-limits.ts";
export { describeZodError, failure, isPluginError, ok, PLUGIN_ERROR_REASONS, PluginError } from "./errors.ts";
export type { Outcome, PluginErrorLike, PluginErrorReason } from "./errors.ts";
export type {
  AiExportComponentId,
  AiExportDataset,
  AiExportDatasetDescription,
  AiExportDatasetOutput,
  AiExportDetailLevel,
  AiExportHolding,
  AiExportQuery,
  AiExportReader,
  AiExportTransaction,
} from "./kinds/ai-export-dataset.ts";
export type { CalculationTool, CalculationToolCatalogEntry } from "./kinds/calculation-tool.ts";
export type { FxPair, FxProvider, FxRate, GetRatesParams } from "./kinds/fx-provider.ts";
export type {
  ImportedTransaction,
  ImportFileMeta,
  ImportParseParams,
  ImportPlugin,
  ImportResult,
  ImportSheetHead,
  ImportSkippedRow,
  ImportTransactionType,
  ImportWarning,
  PdfLine,
  PdfText,
} from "./kinds/import-plugin.ts";
export type {
  AssetEvent,
  AssetEventType,
  AssetMetadata,
  GetHistoryParams,
  GetMetadataParams,
  GetQuotesParams,
  PricePoint,
  Quote,
  QuoteProvider,
  QuoteSearchParams,
  QuoteSearchResult,
} from "./kinds/quote-provider.ts";
export {
  RISK_ERROR_CODES,
  RiskAssetSeriesSchema,
  RiskErrorSchema,
  riskInputSchema,
  riskResultSchema,
  RiskSeriesSchema,
  RiskWarningSchema,
} from "./kinds/risk-tool.ts";
export type {
  RiskAssetSeries,
  RiskErrorCode,
  RiskInput,
  RiskMode,
  RiskResult,
  RiskScope,
  RiskSeries,
  RiskTool,
  RiskToolCatalogEntry,
  RiskWarning,
} from "./kinds/risk-tool.ts";
export { GeographyGroupSchema, RiskScenarioSchema } from "./kinds/risk-scenario.ts";
export type { GeographyGroup, RiskScenario } from "./kinds/risk-scenario.ts";
export type {
  ScheduledInvestmentProvider,
  ScheduledPrice,
  ScheduleInput,
} from "./kinds/scheduled-investment-provider.ts";
export { PLUGIN_KINDS, PluginIdSchema, PluginKindSchema, PluginManifestSchema } from "./manifest.ts";
export type { PluginKind, PluginManifest } from "./manifest.ts";
export { CurrencyCodeSchema, Decimal, DecimalStringSchema, toDecimalString } from "./money.ts";
export type { CurrencyCode, DecimalString, Money } from "./money.ts";
export { SDK_API_VERSION } from "./version.ts";
/**
 * zod, re-exported so plugins build their config, input and output schemas
 * with the same zod the host validates with, without importing it themselves.
 * Example: `const Input = z.object({ principal: DecimalStringSchema })`.
 */
export { z } from "zod";
/** Literal constructors for branded values: `decimal("42.00")`, `currency("USD")`, `isoDate("2024-03-01")`. */
export { currency, decimal, isoDate } from "./literals.ts";
