/**
 * Test helpers for plugin authors (`@portfolio-tracker/sdk/testing`): a fake
 * context and one contract suite per kind. Every plugin test runs its kind's
 * suite. The suites run under `bun test`, `vitest` and `node:test` (see `useTestRunner`), and so do
 * a plugin's own tests written with the `describe`, `test` and `expect` exported here; import this
 * entry from tests only.
 */
export { runAiExportDatasetContract, type AiExportDatasetSample } from "./ai-export-dataset.contract.ts";
export { runCalculationToolContract } from "./calculation-tool.contract.ts";
export type { ContractOptions, PureToolSample } from "./contract-common.ts";
export { createFakeContext, type FakeContextOptions, type FakePluginContext, type LogRecord } from "./fake-context.ts";
export { runFxProviderContract } from "./fx-provider.contract.ts";
export { ledgerSignIssue, runImportPluginContract, type ImportPluginSample } from "./import-plugin.contract.ts";
export { runQuoteProviderContract, type QuoteProviderSample } from "./quote-provider.contract.ts";
export { runRiskToolContract } from "./risk-tool.contract.ts";
export {
  runScheduledInvestmentProviderContract,
  type ScheduledInvestmentSample,
} from "./scheduled-investment-provider.contract.ts";
export { describe, expect, test, type TestRunner, useTestRunner } from "./runner.ts";
