/**
 * The worker side of the pool: pure calculations looked up by name. Messages carry strings and
 * plain objects only (structured cloning drops Decimal prototypes).
 *
 * Each task's module is loaded on a thread's first task of that kind, not when the thread starts:
 * every thread loading every task (the broker-import plugins and spreadsheet and PDF readers, the
 * calculation tools, …) held ~20 MB more of RSS than one that only ever runs reports and risk
 * queries (a worker with all modules +59 MB, with the report and risk ones +38 MB), and each full
 * collection of the report thread marked that heap too (docs/decisions.md, "Task modules loaded
 * on first use").
 */
const brimParse = () => import("./brokers/import/brim-parse.task.ts");
const risk = () => import("./risk/risk.task.ts");

/** Each task's function, from its module (loaded once per thread by the import); the task types come from these. */
export const CALCULATION_LOADERS = {
  brimCandidates: async () => (await brimParse()).brimCandidates,
  brimCommitPlan: async () => (await import("./brokers/import/brim-commit.task.ts")).brimCommitPlan,
  brimDuplicates: async () => (await brimParse()).brimDuplicates,
  brimDuplicatesBody: async () => (await brimParse()).brimDuplicatesBody,
  brimInspect: async () => (await brimParse()).brimInspect,
  brimParse: async () => (await brimParse()).brimParse,
  brimPreview: async () => (await brimParse()).brimPreview,
  brimSheets: async () => (await brimParse()).brimSheets,
  brimPdfHead: async () => (await brimParse()).brimPdfHead,
  brimPdfTexts: async () => (await brimParse()).brimPdfTexts,
  computeSignals: async () => (await import("../../core/signals/signals.calc.ts")).computeSignals,
  eventsQuery: async () => (await import("./assets/events-query.task.ts")).eventsQuery,
  fxConvert: async () => (await import("./fx/fx-convert.task.ts")).fxConvert,
  lotsAnalysis: async () => (await import("../../core/portfolio/fifo-lots.calc.ts")).analyseLots,
  portfolioReport: async () => (await import("./portfolio/portfolio-report.task.ts")).portfolioReport,
  priceQuery: async () => (await import("./assets/price-query.task.ts")).priceQuery,
  realizedGains: async () => (await import("../../core/portfolio/realized-gains.calc.ts")).realizedGains,
  // The warm-up also loads the report task's module, so the first report after start finds it loaded.
  reportWarmUp: async () => (await Promise.all([import("./portfolio/report-warm-up.task.ts"), import("./portfolio/portfolio-report.task.ts")]))[0].reportWarmUp,
  riskAnalytic: async () => (await risk()).riskAnalytic,
  riskData: async () => (await risk()).riskData,
  riskEligibility: async () => (await risk()).riskEligibility,
  riskWarmUp: async () => (await import("./risk/risk-warm-up.task.ts")).riskWarmUp,
  toolCompute: async () => (await import("./tools/tool.task.ts")).toolCompute,
  wacSeries: async () => (await import("../../core/portfolio/wac-series.calc.ts")).wacSeries,
  walCheckpoint: async () => (await import("../db/wal-checkpoint.ts")).walCheckpointTask,
} as const;

type Calculations = { [N in keyof typeof CALCULATION_LOADERS]: Awaited<ReturnType<(typeof CALCULATION_LOADERS)[N]>> };

export type CalculationName = keyof Calculations;
export type CalculationInput<N extends CalculationName> = Parameters<Calculations[N]>[0];
export type CalculationOutput<N extends CalculationName> = Awaited<ReturnType<Calculations[N]>>;

/**
 * Tasks that leave the thread's collections as they were (host/workers/calc.worker.ts): a
 * checkpoint of SQLite's log a second after writes makes no garbage to speak of, and must neither
 * cancel the full collection a report's thread waits to run once idle nor schedule one of its own.
 */
export const HOUSEKEEPING_TASKS: ReadonlySet<CalculationName> = new Set(["walCheckpoint"]);

/** The tasks that run on the report thread (host/workers/pool.ts): reports, and its warm-up after start-up. */
export const REPORT_THREAD_TASKS: ReadonlySet<CalculationName> = new Set(["portfolioReport", "reportWarmUp"]);
