import {
  type AiExportComponentId, type AiExportDatasetDescription, type AiExportDetailLevel, definePlugin, type Plugin,
} from "../../sdk/index.ts";

interface DatasetSpec {
  applicabilityCode?: string;
  /** Internal datasets feed analyses but are not offered on their own. */
  hidden?: boolean;
  icon: string;
  id: string;
  optional?: readonly { id: AiExportComponentId; levels: readonly AiExportDetailLevel[] }[];
  pages: readonly string[];
  periodSemantics: AiExportDatasetDescription["periodSemantics"];
  required: readonly AiExportComponentId[];
  summary: string;
  title: string;
  version: number;
}

const ALL_LEVELS: readonly AiExportDetailLevel[] = ["compact", "standard", "full"];
const RICH: readonly AiExportDetailLevel[] = ["standard", "full"];

/**
 * A dataset of the AI export is a composition of host components (docs/ai-export.md): the required
 * ones always, the optional ones at the detail levels listed. Its `version` bumps whenever `data`
 * changes shape; the golden files in test/fixtures/ai-export pin each one.
 */
function dataset(spec: DatasetSpec): Plugin<"ai-export-dataset"> {
  const domain = spec.id.split(".")[0] as AiExportDatasetDescription["domain"];
  return definePlugin({
    create: () => ({
      async build({ query, reader, signal }) {
        const data: Record<string, unknown> = {};
        for (const id of spec.required) data[id] = await reader.component({ id, query, signal });
        for (const o of spec.optional ?? []) {
          if (o.levels.includes(query.detailLevel)) data[o.id] = await reader.component({ id: o.id, query, signal });
        }
        return { data, warnings: [] };
      },
      datasetVersion: spec.version,
      describe: () => ({
        applicabilityCode: spec.applicabilityCode ?? "always",
        applicablePages: spec.pages,
        domain,
        icon: spec.icon,
        optionalComponentIds: (spec.optional ?? []).map((o) => o.id),
        periodSemantics: spec.periodSemantics,
        requiredComponentIds: spec.required,
        supportedDetailLevels: ALL_LEVELS,
        title: spec.title,
      }),
      id: spec.id,
    }),
    description: spec.summary,
    ...(spec.hidden ? { hidden: true } : {}),
    id: `ai_${spec.id.replace(".", "_")}`,
    kind: "ai-export-dataset",
    name: spec.title,
    version: `${spec.version}.0.0`,
  });
}

/** The eight public datasets (docs/ai-export.md "Datasets") and the two internal FIFO datasets of the fiscal analyses. */
export const aiExportDatasetPlugins: Plugin[] = [
  dataset({
    icon: "portfolio", id: "portfolio.overview_and_history", pages: ["portfolio"], periodSemantics: "windowed", version: 1,
    optional: [{ id: "portfolio.allocation", levels: RICH }, { id: "data_quality", levels: RICH }],
    required: ["portfolio.summary", "portfolio.holdings", "portfolio.history"],
    summary: "Net worth, returns and period result, the holdings at the end of the period and the value history over it",
    title: "Portfolio overview and history",
  }),
  dataset({
    icon: "chart", id: "portfolio.asset_history", pages: ["portfolio"], periodSemantics: "windowed", version: 1,
    required: ["portfolio.holdings", "asset.market_history"],
    summary: "The holdings at the end of the period and the market price history of each held asset over it",
    title: "Portfolio assets and their price history",
  }),
  dataset({
    icon: "broker", id: "broker.overview_and_history", pages: ["broker"], periodSemantics: "windowed", version: 1,
    optional: [{ id: "portfolio.allocation", levels: RICH }, { id: "data_quality", levels: RICH }],
    required: ["broker.summary", "portfolio.holdings", "portfolio.history"],
    summary: "One broker's net worth, returns, holdings and value history",
    title: "Broker overview and history",
  }),
  dataset({
    icon: "chart", id: "broker.asset_history", pages: ["broker"], periodSemantics: "windowed", version: 1,
    required: ["portfolio.holdings", "asset.market_history"],
    summary: "One broker's holdings and the market price history of each held asset",
    title: "Broker assets and their price history",
  }),
  dataset({
    icon: "asset", id: "asset.position_and_history", pages: ["asset"], periodSemantics: "windowed", version: 1,
    applicabilityCode: "requires_position",
    required: ["portfolio.holdings", "asset.lots", "asset.market_history"],
    summary: "Your position in one asset (per broker), its FIFO lots and its price history",
    title: "Asset position and history",
  }),
  dataset({
    icon: "chart", id: "asset.market_history", pages: ["asset"], periodSemantics: "windowed", version: 1,
    required: ["asset.market_history"],
    summary: "The market price history of one asset (no personal data)",
    title: "Asset market history",
  }),
  dataset({
    icon: "fx", id: "fx.market_and_exposure", pages: ["fx"], periodSemantics: "windowed", version: 1,
    required: ["fx.market_history", "fx.exposure"],
    summary: "A currency pair's rate history and your exposure to each currency",
    title: "FX market and exposure",
  }),
  dataset({
    icon: "fx", id: "fx.market_history", pages: ["fx"], periodSemantics: "windowed", version: 1,
    required: ["fx.market_history"],
    summary: "A currency pair's rate history (no personal data)",
    title: "FX market history",
  }),
  dataset({
    hidden: true, icon: "lots", id: "portfolio.fifo", pages: [], periodSemantics: "as_of", version: 1,
    required: ["portfolio.summary", "portfolio.lots"],
    summary: "FIFO lots of every held asset (internal: feeds the fiscal lots analysis)",
    title: "Portfolio FIFO lots",
  }),
  dataset({
    hidden: true, icon: "lots", id: "broker.fifo", pages: [], periodSemantics: "as_of", version: 1,
    required: ["broker.summary", "portfolio.lots"],
    summary: "FIFO lots of every asset held at one broker (internal: feeds the broker fiscal lots analysis)",
    title: "Broker FIFO lots",
  }),
];
