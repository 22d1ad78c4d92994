import { z } from "zod";
import { BrokerAccessService } from "../../../core/brokers/broker-access.service.ts";
import { BusyError, NotFoundError, UnavailableError } from "../../../core/errors/domain-error.ts";
import type { McpScope } from "../../../core/users/access-token.service.ts";
import type { HttpDeps } from "../../http/deps.ts";
import { onWorkerPoolShutdown } from "../../workers/pool.ts";
import { PortfolioEngineAdapter } from "../portfolio/engine-adapter.ts";
import { runCalculation } from "../run-calculation.ts";
import { mergeHoldings } from "../tools/positions-from.ts";
import { ToolCatalog } from "../tools/tool-catalog.ts";
import { QueueFullError, ToolExecutor, type ToolIssue } from "../tools/tool-executor.ts";
import { toolPolicy } from "../tools/tool-policy.ts";

/**
 * The `pac_allocator` and `portfolio_rebalancer` MCP tools (docs/mcp.md "Tools"): the calculation
 * tools of docs/tools.md on the worker pool, with the executor policy of `POST /tools/compute`, the
 * positions filled from the token's brokers as `positions_from` fills them. They take a budget or a
 * cash amount and answer orders in units and money, so only the `full` grade lists them.
 */

const Decimal = z.string().regex(/^-?\d+(\.\d+)?$/).describe("Decimal string");
const Money = z.object({ code: z.string().regex(/^[A-Z]{3}$/).describe("ISO 4217 code"), amount: Decimal.describe("Amount (decimal string)") }).strict();
const Position = z.object({
  key: z.string().min(1).max(64).describe("An asset id the token's brokers hold (its quantity and price are filled in), or your own name for a position"),
  target_weight: Decimal.describe("Target share of the total as a fraction: 0.25 is 25 %"),
  price: Decimal.optional().describe("Price of one unit in the budget's currency (required for a position not held)"),
  quantity: Decimal.optional().describe("Units held now (default: the holding's, else 0)"),
}).strict();

const common = {
  positions: z.array(Position).min(1).max(200).describe("Target weights; held assets you leave out get target weight 0"),
  whole_units: z.boolean().describe("Buy whole units (true) or amounts to the cent (false)"),
  min_order_amount: Decimal.optional().describe("No order below this amount"),
  use_holdings: z.boolean().default(true).describe("Fill quantities and prices from the holdings of the token's brokers (default true)"),
};

export const PacInput = z.object({ budget: Money.describe("Money to invest now"), ...common }).strict();
export const RebalanceInput = z.object({
  cash: Money.describe("Cash available now, in the currency of the prices"),
  mode: z.enum(["buy_and_sell", "buy_only"]).describe("Sell overweight positions too, or only buy with the cash"),
  cash_band: z.object({ min_weight: Decimal, max_weight: Decimal }).strict().optional().describe("Where the cash's share of the total may end"),
  ...common,
}).strict();

const Failure = z.object({
  code: z.string().describe("docs/tools.md's item error code, such as invalid_parameters, execution_timeout, queue_timeout"),
  retryable: z.boolean().describe("Whether the same call may succeed later"),
  issues: z.array(z.object({ code: z.string().describe("Issue code"), path: z.array(z.union([z.string(), z.number()])).describe("Where in the arguments") }))
    .describe("What was wrong"),
}).nullable().describe("Why there is no plan");
const Weights = z.array(z.object({ key: z.string().describe("Position key"), weight: z.string().describe("Share of the total after the orders (fraction)") }));
const NO_QUALITY = z.object({ status: z.enum(["ok", "not_applicable"]), issues: z.array(z.never()) }).describe("A plan on the given figures");

export const PacOut = z.object({
  method: z.string().describe("How the plan was computed"),
  status: z.enum(["success", "error"]).describe("`error`: see `error`"),
  result: z.object({
    orders: z.array(z.object({ key: z.string().describe("Position key"), quantity: z.string().describe("Units to buy"), amount: z.string().describe("Money to spend") })),
    cash_left: z.string().describe("Budget not spent"),
    weights_after: Weights,
  }).nullable().describe("The plan"),
  error: Failure,
  data_quality: NO_QUALITY,
});

export const RebalanceOut = z.object({
  method: z.string().describe("How the trades were computed"),
  status: z.enum(["success", "error"]).describe("`error`: see `error`"),
  result: z.object({
    orders: z.array(z.object({
      key: z.string().describe("Position key"), side: z.enum(["buy", "sell"]).describe("Buy or sell"),
      quantity: z.string().describe("Units"), amount: z.string().describe("Money"),
    })),
    cash_after: z.string().describe("Cash after the trades"),
    cash_weight_after: z.string().describe("Cash's share of the total after the trades (fraction)"),
    weights_after: Weights,
    warnings: z.array(z.string()).describe("cash_above_band or cash_below_band"),
  }).nullable().describe("The trades"),
  error: Failure,
  data_quality: NO_QUALITY,
});

export function mcpPlanning(deps: HttpDeps, brokers: (userId: number, scope: McpScope) => Promise<number[] | null>) {
  const catalog = deps.container.resolve(ToolCatalog);
  const access = deps.container.resolve(BrokerAccessService);
  const executor = new ToolExecutor(toolPolicy(deps.config.tools), async (task, signal) => (await runCalculation("toolCompute", task, signal)).result);
  onWorkerPoolShutdown(() => executor.close());
  const engine = new PortfolioEngineAdapter(deps.container, deps.config.dataDir);

  async function plan(toolCode: "pac_allocator" | "portfolio_rebalancer", userId: number, scope: McpScope, args: z.infer<typeof PacInput> | z.infer<typeof RebalanceInput>) {
    const tool = catalog.get(toolCode);
    if (!tool) throw new NotFoundError("TOOL_UNAVAILABLE", `The calculation tool ${toolCode} is not available`);
    if (executor.closed) throw new UnavailableError("service_unavailable", "The tool executor is shutting down", { retryable: true });
    const { use_holdings: useHoldings, ...parameters } = args;
    let input: Record<string, unknown> = parameters;
    const fail = (code: "invalid_parameters", issues: ToolIssue[]) => ({ status: "error" as const, result: null, error: { code, retryable: false, issues } });
    if (useHoldings) {
      const within = (await brokers(userId, scope)) ?? [...(await access.roles(userId, "VIEWER")).keys()];
      const currency = "budget" in args ? args.budget.code : args.cash.code;
      const held = within.length ? await engine.holdings(userId, within, currency) : [];
      const merged = mergeHoldings(input, held);
      if (!merged.ok) return fail("invalid_parameters", merged.issues);
      input = merged.parameters;
    }
    const parsed = tool.tool.inputSchema.safeParse(input);
    if (!parsed.success) {
      return fail("invalid_parameters", parsed.error.issues.map((i) => ({ code: i.code, path: i.path.filter((p) => typeof p !== "symbol") as (string | number)[] })));
    }
    let ticket: () => Promise<number>;
    try {
      [ticket] = executor.admit(1) as [() => Promise<number>];
    } catch (error) {
      if (error instanceof QueueFullError) throw new BusyError("queue_full", "The tool queue is full; retry shortly", { retryable: true });
      throw error;
    }
    const outcome = await executor.execute(tool, parsed.data, ticket);
    return outcome.status === "success"
      ? { status: "success" as const, result: outcome.result, error: null }
      : { status: "error" as const, result: null, error: { code: outcome.error.code, retryable: outcome.error.retryable, issues: outcome.error.issues } };
  }

  return {
    async pac(userId: number, scope: McpScope, args: z.infer<typeof PacInput>): Promise<z.infer<typeof PacOut>> {
      const out = await plan("pac_allocator", userId, scope, args);
      return {
        method: "PAC allocator (docs/tools.md): orders bringing the holdings plus the budget closest to the target weights, never above the budget",
        ...out, result: out.result as z.infer<typeof PacOut>["result"], data_quality: { status: "not_applicable", issues: [] },
      };
    },
    async rebalance(userId: number, scope: McpScope, args: z.infer<typeof RebalanceInput>): Promise<z.infer<typeof RebalanceOut>> {
      const out = await plan("portfolio_rebalancer", userId, scope, args);
      return {
        method: "portfolio rebalancer (docs/tools.md): trades bringing the holdings and cash to the target weights",
        ...out, result: out.result as z.infer<typeof RebalanceOut>["result"], data_quality: { status: "not_applicable", issues: [] },
      };
    },
  };
}
