import { z } from "zod";
import type { McpGrade } from "../../../core/users/access-token.service.ts";
import { ANALYSES, type AnalysisSpec } from "../ai-export/analyses.ts";

/**
 * The AI-export analyses as MCP prompts (docs/mcp.md "Prompts"): each one is the analysis'
 * instruction template and response contract (docs/ai-export.md), told to fetch its data with the
 * tools instead of a pasted snapshot. A prompt holds no user data, so every grade lists them all;
 * what the model can then fetch is still bounded by the token's grade.
 */

/** The tools that answer what each dataset of the export would have carried. */
const DATASET_TOOLS: Record<string, string[]> = {
  "portfolio.overview_and_history": ["ai_export_dataset", "portfolio_summary", "portfolio_history", "holdings", "transactions", "income", "risk_analytics",
    "stress_test"],
  "portfolio.asset_history": ["ai_export_dataset", "holdings", "transactions", "asset_prices", "risk_analytics"],
  "portfolio.fifo": ["lots_and_realised_gains", "transactions"],
  "broker.overview_and_history": ["holdings", "transactions", "income", "portfolio_history"],
  "broker.asset_history": ["holdings", "transactions"],
  "broker.fifo": ["lots_and_realised_gains", "transactions"],
  "asset.position_and_history": ["holdings", "transactions", "lots_and_realised_gains", "income", "asset_prices"],
  "asset.market_history": ["asset_search", "asset_prices", "signals", "holdings"],
  "fx.market_history": ["fx_rates"],
  "fx.market_and_exposure": ["fx_rates", "portfolio_summary", "holdings"],
};

const GRADE_NOTE: Record<McpGrade, string> = {
  full: "",
  relative: "Your access shows weights, returns and percentages but no currency amounts or quantities: answer in percentages and "
    + "say where the contract asks for an amount you cannot see.",
  aggregate: "Your access shows portfolio-level figures only (no amounts, no individual holdings): answer at that level and say "
    + "which parts of the contract need more access.",
};

export const PromptArgs = z.object({
  notes: z.string().max(4000).optional().describe("Your notes for the analysis, such as target weights or the asset, broker or currency pair it is about"),
});

/** Calculation tools an analysis plans with, besides its datasets' tools (only `full` tokens may call them). */
const ANALYSIS_TOOLS: Record<string, string[]> = {
  "portfolio.pac_planning": ["pac_allocator"],
  "portfolio.rebalancing": ["portfolio_rebalancer"],
};

/** The analyses whose prompt is offered, and the text of one for a grade and the tools it may call. */
export const PROMPT_ANALYSES: readonly AnalysisSpec[] = ANALYSES;

export function promptText(a: AnalysisSpec, grade: McpGrade, allowedTools: ReadonlySet<string>, notes?: string): string {
  const wanted = [...new Set([...a.requiredDatasetIds, ...a.optionalDatasetIds].flatMap((d) => DATASET_TOOLS[d] ?? []).concat(ANALYSIS_TOOLS[a.id] ?? []))];
  const tools = wanted.filter((t) => allowedTools.has(t));
  return [
    a.instructions,
    `Data: call the tools ${tools.length ? tools.map((t) => `\`${t}\``).join(", ") : "available to you"} for the figures this analysis needs; `
      + "each answer says how its figures were computed (`method`) and how complete they are (`data_quality`): mention any issue it reports.",
    GRADE_NOTE[grade],
    `Response contract:\n${a.response}`,
    notes ? `User's notes:\n${notes}` : "",
  ].filter(Boolean).join("\n\n");
}

/** A one-line description: the instruction template's first sentence. */
export const promptDescription = (a: AnalysisSpec) => a.instructions.split(/(?<=\.)\s/)[0]!;
