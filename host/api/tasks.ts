import { brimCommitPlan } from "./brokers/import/brim-commit.task.ts";
import { brimCandidates, brimDuplicates, brimDuplicatesBody, brimInspect, brimParse, brimPdfHead, brimPdfTexts, brimPreview, brimSheets } from "./brokers/import/brim-parse.task.ts";
import { portfolioReport } from "./portfolio/portfolio-report.task.ts";
import { toolCompute } from "./tools/tool.task.ts";
import { wacSeries } from "../../core/portfolio/wac-series.calc.ts";
import { analyseLots } from "../../core/portfolio/fifo-lots.calc.ts";
import { realizedGains } from "../../core/portfolio/realized-gains.calc.ts";
import { riskAnalytic, riskData, riskEligibility } from "./risk/risk.task.ts";
import { riskWarmUp } from "./risk/risk-warm-up.task.ts";
import { reportWarmUp } from "./portfolio/report-warm-up.task.ts";
import { computeSignals } from "../../core/signals/signals.calc.ts";
import { fxConvert } from "./fx/fx-convert.task.ts";
import { priceQuery } from "./assets/price-query.task.ts";
import { eventsQuery } from "./assets/events-query.task.ts";

/**
 * The worker side of the pool: pure calculations looked up by name. Messages carry strings and
 * plain objects only (structured cloning drops Decimal prototypes).
 */
export const CALCULATIONS = {
  brimCandidates,
  brimCommitPlan,
  brimDuplicates,
  brimDuplicatesBody,
  brimInspect,
  brimParse,
  brimPreview,
  brimSheets,
  brimPdfHead,
  brimPdfTexts,
  computeSignals,
  eventsQuery,
  fxConvert,
  lotsAnalysis: analyseLots,
  portfolioReport,
  priceQuery,
  realizedGains,
  reportWarmUp,
  riskAnalytic,
  riskData,
  riskEligibility,
  riskWarmUp,
  toolCompute,
  wacSeries,
} as const;

export type CalculationName = keyof typeof CALCULATIONS;
export type CalculationInput<N extends CalculationName> = Parameters<(typeof CALCULATIONS)[N]>[0];
export type CalculationOutput<N extends CalculationName> = Awaited<ReturnType<(typeof CALCULATIONS)[N]>>;

/** The tasks that run on the report thread (host/workers/pool.ts): reports, and its warm-up after start-up. */
export const REPORT_THREAD_TASKS: ReadonlySet<CalculationName> = new Set(["portfolioReport", "reportWarmUp"]);
