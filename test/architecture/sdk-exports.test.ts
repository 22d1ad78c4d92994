import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as sdkImport from "../../sdk/import/index.ts";
import * as sdk from "../../sdk/index.ts";

// The SDK's public surface. Changing it is deliberate: update this list and sdk/CHANGELOG.md together.
const VALUE_EXPORTS = [
  "CurrencyCodeSchema",
  "DECIMAL_LIMITS",
  "DEFAULT_HTTP_TIMEOUT_MS",
  "Decimal",
  "DecimalStringSchema",
  "GeographyGroupSchema",
  "IsoDateRangeSchema",
  "IsoDateSchema",
  "PLUGIN_BRAND",
  "PLUGIN_ERROR_REASONS",
  "PLUGIN_KINDS",
  "PluginError",
  "PluginIdSchema",
  "PluginKindSchema",
  "PluginManifestSchema",
  "RISK_ERROR_CODES",
  "RiskAssetSeriesSchema",
  "RiskErrorSchema",
  "RiskScenarioSchema",
  "RiskSeriesSchema",
  "RiskWarningSchema",
  "SDK_API_VERSION",
  "boundedDecimal",
  "createHttpClient",
  "currency",
  "decimal",
  "definePlugin",
  "describeZodError",
  "failure",
  "isLimitMessage",
  "isPlugin",
  "isPluginError",
  "isoDate",
  "limitMessage",
  "mapBounded",
  "missingMembers",
  "ok",
  "ratesPerPair",
  "riskInputSchema",
  "riskResultSchema",
  "toDecimalString",
  "toIsoDate",
  "withinLimits",
  "z",
];

/** Values of the importers' entry, `@portfolio-tracker/sdk/import`. */
const IMPORT_VALUE_EXPORTS = [
  "PdfTextError",
  "accountStatement",
  "assetTypeOfName",
  "columns",
  "csvFormat",
  "decodeText",
  "describeFile",
  "describeWorkbook",
  "detectDateOrder",
  "detectDecimalMark",
  "eachRecord",
  "extensionOf",
  "findHeaderRow",
  "namesSecurity",
  "normalizeHeader",
  "parseDate",
  "parseDecimal",
  "parseXml",
  "pdfDocument",
  "pdfErrorCode",
  "pdfText",
  "pdfTextOf",
  "readCsv",
  "readWorkbook",
  "sheetFormat",
  "skipper",
  "sniffFormat",
  "sniffSeparator",
  "unreadable",
  "utf16Without",
];

const TYPE_EXPORTS = [
  "AiExportComponentId", "AiExportDataset", "AiExportDatasetDescription", "AiExportDatasetOutput", "AiExportDetailLevel", "AiExportHolding",
  "AiExportQuery", "AiExportReader", "AiExportTransaction", "AssetEvent", "AssetEventType", "AssetMetadata", "CalculationTool",
  "CalculationToolCatalogEntry", "CurrencyCode", "DecimalKind", "DecimalLimit", "DecimalString", "FxPair", "FxProvider", "FxRate", "GeographyGroup", "GetHistoryParams", "GetMetadataParams",
  "GetQuotesParams", "GetRatesParams", "HttpClientOptions", "HttpRequestInit", "ImportFileMeta", "ImportParseParams",
  "ImportPlugin", "ImportResult", "ImportSheetHead", "ImportSkippedRow", "ImportTransactionType", "ImportWarning", "ImportedTransaction", "IsoDate",
  "IsoDateRange", "KindInstance", "KindInstanceMap", "LogFields", "Money", "Outcome", "PdfLine", "PdfText", "Plugin", "PluginClock",
  "PluginContext", "PluginErrorLike", "PluginErrorReason", "PluginHttpClient", "PluginKind", "PluginLogger",
  "PluginManifest", "PluginSpec", "PricePoint", "Quote", "QuoteProvider", "QuoteSearchParams", "QuoteSearchResult",
  "RatesOutcome", "RatesPerPairSource",
  "RiskAssetSeries", "RiskErrorCode", "RiskInput", "RiskMode", "RiskResult", "RiskScenario", "RiskScope", "RiskSeries", "RiskTool",
  "RiskToolCatalogEntry", "RiskWarning", "ScheduleInput", "ScheduledInvestmentProvider",
  "ScheduledPrice", "TextAnswer",
];

/** Names listed in `export type { ... } from` statements of the SDK's index. */
function typeExportNames(source: string): string[] {
  return [...source.matchAll(/export type \{([^}]*)\}/g)].flatMap((m) => m[1]!.split(",").map((n) => n.trim()).filter(Boolean));
}

test("sdk/index.ts exports exactly the snapshotted values", () => {
  expect(Object.keys(sdk).sort()).toEqual(VALUE_EXPORTS);
});

test("sdk/index.ts exports exactly the snapshotted types", () => {
  const source = readFileSync(join(import.meta.dir, "..", "..", "sdk", "index.ts"), "utf8");
  expect(source).not.toContain("export *");
  expect(typeExportNames(source).sort()).toEqual(TYPE_EXPORTS);
});

test("sdk/import/index.ts exports exactly the snapshotted values", () => {
  expect(Object.keys(sdkImport).sort()).toEqual(IMPORT_VALUE_EXPORTS);
});
