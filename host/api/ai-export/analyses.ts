/**
 * The eleven analyses of the AI export: which datasets each needs, and the
 * instruction template and response contract pasted with them. Changing a text bumps its version;
 * changing anything else of an analysis bumps the analysis' version.
 */
export interface AnalysisSpec {
  applicabilityCode: "always" | "requires_direct_exposure" | "requires_position";
  domain: "asset" | "broker" | "fx" | "portfolio";
  icon: string;
  id: string;
  instructions: string;
  instructionsVersion: number;
  optionalDatasetIds: string[];
  pages: string[];
  requiredDatasetIds: string[];
  response: string;
  responseVersion: number;
  suggestions: { dataset_id: string; necessity: "optional" | "recommended"; recommended_detail: "compact" | "full" | "standard"; recommended_period: "1y" | "3m" | "6m" | "maximum_available"; reason_i18n_key: string }[];
  version: number;
}

const COMMON_RULES = [
  "Use only the data below; say so when something you need is missing instead of guessing.",
  "Amounts are in the stated currency; percentages are already multiplied by 100.",
  "This is not financial advice: state assumptions and risks plainly.",
].map((r) => `- ${r}`).join("\n");

function analysis(a: Omit<AnalysisSpec, "instructionsVersion" | "responseVersion" | "optionalDatasetIds" | "suggestions" | "pages"> & Partial<AnalysisSpec>): AnalysisSpec {
  return {
    instructionsVersion: 1,
    optionalDatasetIds: [],
    pages: [a.domain],
    responseVersion: 1,
    suggestions: [],
    ...a,
    instructions: `${a.instructions}\n\nRules:\n${COMMON_RULES}`,
  };
}

export const ANALYSES: AnalysisSpec[] = [
  analysis({
    applicabilityCode: "always", domain: "portfolio", icon: "pac", id: "portfolio.pac_planning", version: 1,
    requiredDatasetIds: ["portfolio.overview_and_history"],
    instructions: "You help plan the next periodic investment (PAC). Compare each holding's weight with the target weights the user gives in their notes, and propose how to split the next contribution to move closer to them without selling.",
    response: "Answer with: 1. a table `asset | current weight % | target weight % | suggested amount`; 2. the cash left over; 3. two or three sentences on the reasoning; 4. the assumptions made.",
    suggestions: [{ dataset_id: "portfolio.asset_history", necessity: "optional", recommended_detail: "compact", recommended_period: "1y", reason_i18n_key: "ai_export.suggestion.price_trends" }],
  }),
  analysis({
    applicabilityCode: "always", domain: "portfolio", icon: "rebalance", id: "portfolio.rebalancing", version: 1,
    requiredDatasetIds: ["portfolio.overview_and_history"],
    instructions: "You review how far the portfolio has drifted from the target allocation in the user's notes and propose the sells and buys that restore it, keeping trading small.",
    response: "Answer with: 1. a table `asset | current weight % | target weight % | drift (points)`; 2. the proposed orders (side, asset, amount); 3. the tax or cost considerations visible in the data; 4. the assumptions made.",
  }),
  analysis({
    applicabilityCode: "always", domain: "portfolio", icon: "chart", id: "portfolio.performance_market_drivers", version: 1,
    requiredDatasetIds: ["portfolio.overview_and_history", "portfolio.asset_history"],
    instructions: "You explain the portfolio's performance over the period: which holdings and which market moves drove the result, and how contributions and withdrawals affected the returns.",
    response: "Answer with: 1. the period result in one sentence (TWRR and money-weighted return); 2. the three largest positive and negative drivers with their effect; 3. market context visible in the price histories; 4. open questions.",
  }),
  analysis({
    applicabilityCode: "always", domain: "portfolio", icon: "lots", id: "portfolio.fiscal_lots", version: 1,
    requiredDatasetIds: ["portfolio.fifo"],
    instructions: "You review the open FIFO lots for tax planning: unrealized gains and losses per lot, holding periods, and which lots a sale would consume first.",
    response: "Answer with: 1. a table `asset | lot opened | open quantity | unrealized P&L | holding days`; 2. lots with losses that could offset gains; 3. what a sale of each asset would realize under FIFO; 4. the assumptions made (no tax rules are known to you unless the user states them).",
  }),
  analysis({
    applicabilityCode: "always", domain: "broker", icon: "broker", id: "broker.review", version: 1,
    requiredDatasetIds: ["broker.overview_and_history"],
    instructions: "You review one broker account: its holdings, cash, costs and returns over the period.",
    response: "Answer with: 1. a summary of the account in three sentences; 2. concentration and cash observations; 3. costs and income visible in the data; 4. suggestions for what to check next.",
  }),
  analysis({
    applicabilityCode: "always", domain: "broker", icon: "chart", id: "broker.performance_market_drivers", version: 1,
    requiredDatasetIds: ["broker.overview_and_history", "broker.asset_history"],
    instructions: "You explain one broker account's performance over the period and the market moves behind it.",
    response: "Answer with: 1. the period result in one sentence; 2. the main drivers per holding; 3. market context from the price histories; 4. open questions.",
  }),
  analysis({
    applicabilityCode: "always", domain: "broker", icon: "lots", id: "broker.fiscal_lots", version: 1,
    requiredDatasetIds: ["broker.fifo"],
    instructions: "You review one broker's open FIFO lots for tax planning.",
    response: "Answer with: 1. a table `asset | lot opened | open quantity | unrealized P&L | holding days`; 2. loss lots; 3. what selling each asset would realize under FIFO; 4. assumptions.",
  }),
  analysis({
    applicabilityCode: "requires_position", domain: "asset", icon: "asset", id: "asset.position_review", version: 1,
    requiredDatasetIds: ["asset.position_and_history"],
    instructions: "You review the user's position in one asset: cost, lots, result and how the price moved while it was held.",
    response: "Answer with: 1. the position in two sentences (size, cost, result); 2. the lots and their results; 3. the price trend over the period; 4. points to consider.",
  }),
  analysis({
    applicabilityCode: "always", domain: "asset", icon: "chart", id: "asset.market_analysis", version: 1,
    requiredDatasetIds: ["asset.market_history"],
    instructions: "You describe one asset's price behaviour over the period: trend, drawdowns and volatility, from the prices given.",
    response: "Answer with: 1. the trend in one sentence; 2. the largest rise and fall with dates; 3. a volatility remark; 4. what the data cannot tell.",
  }),
  analysis({
    applicabilityCode: "always", domain: "fx", icon: "fx", id: "fx.pair_analysis", version: 1,
    requiredDatasetIds: ["fx.market_history"],
    instructions: "You describe a currency pair's movement over the period from the rates given.",
    response: "Answer with: 1. the change over the period; 2. the largest moves with dates; 3. what the data cannot tell.",
  }),
  analysis({
    applicabilityCode: "requires_direct_exposure", domain: "fx", icon: "fx", id: "fx.exposure_impact", version: 1,
    requiredDatasetIds: ["fx.market_and_exposure"],
    instructions: "You estimate how the pair's movement affected the user's holdings and cash in those currencies.",
    response: "Answer with: 1. the exposure per currency; 2. the estimated effect of the rate change on it; 3. hedging considerations; 4. assumptions.",
  }),
];

export const instructionsId = (a: AnalysisSpec) => `${a.id}.instructions`;
export const responseId = (a: AnalysisSpec) => `${a.id}.response`;
