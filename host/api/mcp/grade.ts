import { DomainError } from "../../../core/errors/domain-error.ts";
import type { McpGrade } from "../../../core/users/access-token.service.ts";

/**
 * The one place the MCP server applies a token's data grade (docs/mcp.md "Data grades"). Every tool
 * builds its full answer with the field names below, and every answer, error text and data-quality
 * detail goes through `redact` / `errorText` before it leaves: a tool cannot forget the grade.
 */

/** Currency amounts and quantities: kept only for `full`. */
const AMOUNT_KEYS = new Set([
  "amount", "quantity", "net_worth", "market_value", "cash_total", "open_cost_basis", "current_value", "current_price",
  "gain_loss", "cash", "total_invested", "total_gain_loss", "price", "cost_basis_override",
  "proceeds", "fifo_cost", "fifo_gain", "average_cost", "average_gain", "cost", "dividends", "interest", "total",
  "var_amount", "cvar_amount", "end_value", "pnl_amount", "close",
]);

/** Free text a user typed (it may quote an amount): kept only for `full`. */
const FREE_TEXT_KEYS = new Set(["description", "tags"]);

/** What names or identifies a single holding or transaction: dropped for `aggregate`. */
const HOLDING_KEYS = new Set(["holdings", "asset_id", "asset_name", "asset_ticker", "affected_asset_ids", "affected_asset_names", "transactions",
  "disposals", "by_asset", "missing_price_assets", "stale_prices"]);

/** Which tools a grade may call (`tools/list` shows only these). */
export const GRADE_TOOLS: Record<McpGrade, readonly string[]> = {
  // Drafts hold amounts and free text, so only `full` may write them; `commit_draft` also needs a read-write token.
  // The PAC allocator and the rebalancer take a budget or cash amount and answer orders in units and money: `full` only.
  full: ["portfolio_summary", "portfolio_history", "holdings", "transactions", "fx_rates", "lots_and_realised_gains", "income", "risk_analytics",
    "stress_scenarios", "stress_test", "signals", "asset_search", "asset_prices", "ai_export_dataset", "pac_allocator", "portfolio_rebalancer",
    "draft_transactions", "commit_draft"],
  relative: ["portfolio_summary", "portfolio_history", "holdings", "transactions", "fx_rates", "lots_and_realised_gains", "income", "risk_analytics",
    "stress_scenarios", "stress_test", "signals", "asset_search", "asset_prices", "ai_export_dataset"],
  // The asset catalogue of a self-hosted install is mostly what its users hold or held: searching it would name holdings.
  aggregate: ["portfolio_summary", "portfolio_history", "fx_rates", "lots_and_realised_gains", "income", "risk_analytics", "stress_scenarios", "stress_test"],
};

/** A copy of `value` without what `grade` may not see. */
export function redact<T>(grade: McpGrade, value: T): T {
  if (grade === "full") return value;
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== "object") return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      if (AMOUNT_KEYS.has(k) || FREE_TEXT_KEYS.has(k)) continue;
      if (grade === "aggregate" && HOLDING_KEYS.has(k)) continue;
      out[k] = walk(x);
    }
    return out;
  };
  return walk(value) as T;
}

/**
 * The text of a failed call. Under `full` the domain error's own message; under the other grades only
 * its code and a fixed sentence, because a message may quote an amount or a name.
 */
export function errorText(grade: McpGrade, error: unknown): string {
  const code = error instanceof DomainError ? error.code : "INTERNAL_ERROR";
  if (grade === "full" && error instanceof DomainError) return `${code}: ${error.message}`;
  return error instanceof DomainError ? `${code}: the request could not be served (details are hidden at this data grade)` : `${code}: the request failed`;
}
