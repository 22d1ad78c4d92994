import type { Plugin } from "../../sdk/index.ts";
import {
  assetSetComparisonPlugin, assetSetDrawdownPlugin, assetSetKpiPlugin, assetSetRiskReturnPlugin, assetSetVarPlugin,
} from "./asset-set.ts";
import { assetRiskReturnPlugin } from "./asset-risk-return.ts";
import { comparisonPlugin } from "./comparison.ts";
import { portfolioOptimizationPlugin } from "./optimization.ts";
import { simulationPlugin } from "./simulation.ts";
import { stressPlugin } from "./stress.ts";
import { correlationPlugin } from "./correlation.ts";
import { drawdownSummaryPlugin } from "./drawdown-summary.ts";
import { historicalKpiPlugin } from "./historical-kpi.ts";
import { historicalVarPlugin } from "./historical-var.ts";
import { riskContributionPlugin } from "./risk-contribution.ts";

/**
 * The built-in risk analytics, one `risk-tool` plugin each. They share this
 * folder's statistics (`stats.ts`, `metrics.ts`); docs/risk.md states every formula.
 */
export const riskPlugins: Plugin<"risk-tool", any>[] = [
  historicalKpiPlugin, historicalVarPlugin, drawdownSummaryPlugin, correlationPlugin, riskContributionPlugin, assetRiskReturnPlugin,
  comparisonPlugin, stressPlugin, simulationPlugin, portfolioOptimizationPlugin,
  assetSetKpiPlugin, assetSetVarPlugin, assetSetDrawdownPlugin, assetSetRiskReturnPlugin, assetSetComparisonPlugin,
];
