import {
  createMcpHandler, hostHeaderValidationResponse, localhostAllowedHostnames, McpServer, type McpRequestContext, originValidationResponse,
  ResourceTemplate, type ServerContext, type StandardSchemaWithJSON, type ToolAnnotations, type ToolCallback, type Variables,
} from "@modelcontextprotocol/server";
import { z } from "zod";
import { BrokerAccessService } from "../../../core/brokers/broker-access.service.ts";
import { DomainError } from "../../../core/errors/domain-error.ts";
import type { McpGrade, McpScope } from "../../../core/users/access-token.service.ts";
import { AccessTokenService } from "../../../core/users/access-token.service.ts";
import { UserService } from "../../../core/users/user.service.ts";
import { bearerSecret } from "../../http/bearer.ts";
import { declaredLength } from "../../http/request-body.ts";
import type { HttpDeps } from "../../http/deps.ts";
import { errorResponse } from "../../http/errors.ts";
import { AiExportCatalog } from "../ai-export/catalog.ts";
import { McpDraft } from "./drafts.schema.ts";
import { DraftRows, draftService } from "./drafts.ts";
import { GainsInput, GainsOut, IncomeInput, IncomeOut, mcpAnalyses } from "./analysis-tools.ts";
import { mcpRisk, riskInput, RiskOut, ScenariosOut, stressInput, StressOut } from "./risk-tool.ts";
import { AssetPricesInput, AssetPricesOut, AssetSearchInput, AssetSearchOut, mcpMarket } from "./market-tools.ts";
import { mcpPlanning, PacInput, PacOut, RebalanceInput, RebalanceOut } from "./planning-tools.ts";
import { PROMPT_ANALYSES, PromptArgs, promptDescription, promptText } from "./prompts.ts";
import { mcpSignals, signalsInput, SignalsOut } from "./signals-tool.ts";
import { AiExportInput, AiExportOut, datasetDomain, type DatasetDomain, DATASETS, mcpAiExport, SELECTION_ARGS } from "./ai-export-tool.ts";
import { errorText, GRADE_TOOLS, redact } from "./grade.ts";
import { FxRatesInput, FxRatesOut, HistoryInput, HistoryOut, HoldingsOut, mcpData, SummaryOut, transactionsInput, TransactionsOut } from "./tools.ts";


/** The largest MCP request body read (the SDK's own default bound). */
const MAX_MCP_BODY_BYTES = 4 * 1024 * 1024;
/** Why a token may not use the MCP server (status and code as docs/errors.md lists them). */
export interface McpRefusal { status: 401 | 403; code: string; detail: string }

/** Who is calling, as the route hands it to the per-request server. */
export interface McpCaller {
  readonly scope: McpScope;
  /** Whether the token is read-write: only then may the assistant commit its own drafts. */
  readonly canWrite: boolean;
  readonly tokenId: number;
  readonly userId: number;
  readonly username: string;
}

const SERVER_INFO = { name: "portfolio-tracker", version: "1" };

const CommitInput = z.object({ draft_id: z.string().uuid().describe("The id draft_transactions answered") }).strict();

const DATA_QUALITY_URI = "portfolio-tracker://portfolio/data-quality";
/**
 * One dataset template per domain, each with that domain's selection (docs/mcp.md "Resources"). Every
 * variable is required: the SDK's template matcher needs the query's fields present, in this order.
 */
const DATASET_TEMPLATES: Record<DatasetDomain, string> = Object.fromEntries((["portfolio", "broker", "asset", "fx"] as const).map((d) =>
  [d, `portfolio-tracker://ai-export/datasets/{dataset_id}/{version}{?${[...SELECTION_ARGS[d], "date_start", "date_end"].join(",")}}`])) as Record<DatasetDomain, string>;

function datasetUri(id: string, version: number, period: { start: string; end: string }, selection = ""): string {
  return `portfolio-tracker://ai-export/datasets/${id}/${version}?${selection}date_start=${period.start}&date_end=${period.end}`;
}

/** The period a dataset resource is listed with: the last 365 days up to today (UTC). */
function defaultPeriod(now = new Date()): { start: string; end: string } {
  const end = now.toISOString().slice(0, 10);
  return { start: new Date(now.getTime() - 365 * 86_400_000).toISOString().slice(0, 10), end };
}

/**
 * The tool arguments a dataset resource URI stands for. Its version must be the catalogue's current
 * one: an older version's data is not rebuilt, so reading it is refused rather than answered in the new shape.
 */
function datasetQuery(vars: Variables, currentVersion: (id: string) => number | undefined): z.infer<typeof AiExportInput> {
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";
  const id = one(vars.dataset_id);
  const current = currentVersion(id);
  if (!(DATASETS as readonly string[]).includes(id) || current === undefined) {
    throw new DomainError("UNSUPPORTED_SELECTION", `No dataset '${id}'; one of ${DATASETS.join(", ")}`);
  }
  if (one(vars.version) !== String(current)) {
    throw new DomainError("VERSION_MISMATCH", `The catalogue serves ${id} at version ${current}`);
  }
  // Ids are numbers in the tool's arguments; a non-number is left as text so the schema refuses it.
  const id_ = (v: string | string[] | undefined) => (v === undefined ? undefined : /^\d{1,15}$/.test(one(v)) ? Number(one(v)) : one(v));
  const selection = {
    ...(vars.broker_id !== undefined ? { broker_id: id_(vars.broker_id) } : {}),
    ...(vars.asset_id !== undefined ? { asset_id: id_(vars.asset_id) } : {}),
    ...(vars.base_currency !== undefined ? { base_currency: one(vars.base_currency) } : {}),
    ...(vars.quote_currency !== undefined ? { quote_currency: one(vars.quote_currency) } : {}),
  };
  const parsed = AiExportInput.safeParse({ dataset_id: id, ...selection, date_start: one(vars.date_start), date_end: one(vars.date_end) });
  if (!parsed.success) {
    throw new DomainError("VALIDATION_ERROR", "date_start and date_end must be days (YYYY-MM-DD), broker_id and asset_id numbers, currencies ISO 4217 codes");
  }
  return parsed.data;
}

/** The tools a caller may use: its grade's, and `commit_draft` only with a read-write token. */
function allowedTools(grade: McpGrade, caller: McpCaller): Set<string> {
  return new Set(GRADE_TOOLS[grade].filter((t) => t !== "commit_draft" || caller.canWrite));
}

/**
 * The request handed to the SDK, its body read into memory first. The SDK clones the request and
 * reads the original through a stream reader; once the server has touched the body stream while
 * the request waited on I/O (the token check on PostgreSQL), Bun reports that stream as locked
 * and every call failed with "the request body could not be read". A request over the bytes has
 * no such history. Bodies beyond the SDK's own 4 MiB bound are refused here, unread.
 */
async function withBufferedBody(request: Request): Promise<Request | Response> {
  if (request.method !== "POST" || request.body === null) return request;
  const length = declaredLength(request);
  if (length !== null && length > MAX_MCP_BODY_BYTES) {
    return errorResponse(413, { detail: `An MCP request may carry at most ${MAX_MCP_BODY_BYTES / 1024 / 1024} MiB`, code: "LIMIT_EXCEEDED" });
  }
  const bytes = await request.arrayBuffer();
  if (bytes.byteLength > MAX_MCP_BODY_BYTES) {
    return errorResponse(413, { detail: `An MCP request may carry at most ${MAX_MCP_BODY_BYTES / 1024 / 1024} MiB`, code: "LIMIT_EXCEEDED" });
  }
  return new Request(request.url, { method: request.method, headers: request.headers, body: bytes, signal: request.signal });
}

/**
 * The MCP endpoint's handler (docs/mcp.md; its routes are mcp.routes.ts): Streamable HTTP, stateless
 * (one server instance per request, built for the caller's token), serving the 2026-07-28 revision
 * and the 2025 revisions through the SDK's stateless fallback. In front: the Host and Origin checks
 * (DNS rebinding), then a personal access token with an MCP scope, checked on every request, so a
 * revoked token stops at once.
 */
export function mcpHttp(deps: HttpDeps): (request: Request) => Promise<Response> {
  const mcp = mcpServerFactory(deps);
  const allowedHosts = [...localhostAllowedHostnames(), ...(deps.config.mcpAllowedHosts ?? [])];
  const handler = createMcpHandler((ctx: McpRequestContext) => mcp.serverFor(ctx.authInfo?.extra?.caller as McpCaller, ctx.authInfo?.extra?.signal as AbortSignal), {
    onerror: (error) => deps.logger.warn("mcp request refused", { error: error.message }),
  });

  /** The caller of a valid MCP token, or the refusal (docs/errors.md shape). */
  async function authenticate(request: Request): Promise<{ caller: McpCaller; secret: string } | Response> {
    const challenge = { "www-authenticate": `Bearer realm="mcp"` };
    const header = request.headers.get("authorization");
    const secret = header ? bearerSecret(header) : null;
    const checked = await mcp.check(secret);
    if ("refusal" in checked) {
      const { status, code, detail } = checked.refusal;
      return errorResponse(status, { detail, code }, status === 401 ? challenge : {});
    }
    return { secret: secret!, caller: checked.caller };
  }

  return async (request: Request) => {
    const refused = hostHeaderValidationResponse(request, allowedHosts) ?? originValidationResponse(request, allowedHosts);
    if (refused) {
      return errorResponse(403, { detail: "The Host or Origin of this request is not allowed for the MCP endpoint (MCP_ALLOWED_HOSTS)", code: "MCP_ORIGIN_REFUSED" });
    }
    const auth = await authenticate(request);
    if (auth instanceof Response) return auth;
    const forwarded = await withBufferedBody(request);
    if (forwarded instanceof Response) return forwarded;
    return handler.fetch(forwarded, {
      authInfo: { token: auth.secret, clientId: String(auth.caller.tokenId), scopes: [`mcp:${auth.caller.scope.grade satisfies McpGrade}`], extra: { caller: auth.caller, signal: request.signal } },
    });
  };
}

/**
 * The MCP server itself, apart from its transport: checks a token and builds the server instance for
 * its caller. Streamable HTTP builds one per request (above); the CLI's stdio mode one per process
 * (host/api/mcp/direct.cli.ts).
 */
export function mcpServerFactory(deps: HttpDeps) {
  const tokens = deps.container.resolve(AccessTokenService);
  const users = deps.container.resolve(UserService);
  const data = mcpData(deps);
  const drafts = draftService(deps);
  const analyses = mcpAnalyses(deps, data.brokers);
  const risk = mcpRisk(deps, data.brokers);
  const market = mcpMarket(deps);
  const planning = mcpPlanning(deps, data.brokers);
  const signalQuery = mcpSignals(deps, data.brokers);
  const aiExport = mcpAiExport(deps, data.brokers);
  const access = deps.container.resolve(BrokerAccessService);
  /** The brokers the owner sees, by id (a token not narrowed to brokers reaches all of them). */
  const ownBrokers = async (userId: number) => [...(await access.roles(userId, "VIEWER")).keys()].sort((a, b) => a - b);
  // The AI-export catalogue is public and holds no user data (docs/ai-export.md): every grade may read it.
  const catalog = deps.container.resolve(AiExportCatalog);
  const catalogText = JSON.stringify(catalog.wire());

  /** The caller of a valid MCP token (checked again on every request: a revoked token stops at once), or why not. */
  async function check(secret: string | null): Promise<{ caller: McpCaller } | { refusal: McpRefusal }> {
    const grant = secret ? await tokens.check(secret) : null;
    const user = grant ? await users.findById(grant.userId) : null;
    if (!secret || !grant || !user || user.sessionEpoch !== grant.epoch || !user.isActive) {
      return { refusal: { status: 401, code: "NOT_AUTHENTICATED", detail: "A personal access token with an MCP scope is required (Authorization: Bearer)" } };
    }
    if (!grant.mcp) {
      return { refusal: { status: 403, code: "TOKEN_NOT_MCP", detail: "This access token has no MCP scope; create one with `mcp.grade`" } };
    }
    return { caller: { userId: user.id, username: user.username, tokenId: grant.tokenId, scope: grant.mcp, canWrite: grant.scope === "read-write" } };
  }

  /**
   * `gone`: aborted when the transport's client went away (the HTTP request's signal); with the
   * SDK's own per-request signal (a `notifications/cancelled`, a closed stdio) it stops a slow tool's
   * worker tasks (docs/mcp.md "Cancellation").
   */
  function serverFor(caller: McpCaller, gone?: AbortSignal): McpServer {
    const { grade } = caller.scope;
    const allowed = allowedTools(grade, caller);
    const server = new McpServer(SERVER_INFO, {
      instructions: `Tools on the user's portfolio. Data grade: ${grade} (docs/mcp.md). Figures are decimal strings.`
        + (allowed.has("draft_transactions")
          ? " The ledger is never changed directly: draft_transactions stores a draft with the ledger's checks; the user confirms it in the web app"
            + (caller.canWrite ? ", or you call commit_draft once the user has agreed." : ".")
          : ""),
    });
    const cancelled = (ctx: ServerContext) => (gone ? AbortSignal.any([ctx.mcpReq.signal, gone]) : ctx.mcpReq.signal);
    /**
     * A tool call or resource read for the caller: audited (who, which token, which tool or resource,
     * the outcome), never its arguments or answer; the answer goes through the grade's filter. A
     * failure is thrown again as the grade's error text (a domain message may quote an amount).
     */
    const audited = async (subject: { tool: string } | { resource: string }, compute: () => Promise<unknown>): Promise<unknown> => {
      const what = "tool" in subject ? "tool" : "resource";
      const audit = (outcome: string) => deps.audit.record(what === "tool" ? "mcp.tool_call" : "mcp.resource_read",
        { id: caller.userId, username: caller.username }, { token_id: caller.tokenId, ...subject, grade, outcome });
      try {
        const out = redact(grade, await compute());
        audit("ok");
        return out;
      } catch (error) {
        audit(error instanceof Error && "code" in error ? String(error.code) : "INTERNAL_ERROR");
        if (!(error instanceof DomainError)) deps.logger.error(`mcp ${what} failed`, { ...subject, error: error instanceof Error ? error.message : String(error) });
        throw new Error(errorText(grade, error));
      }
    };
    /** Registers a tool when the caller's grade allows it; a failure is the tool's error answer. */
    const tool = <I extends StandardSchemaWithJSON | undefined = undefined>(
      name: string,
      config: { title: string; description: string; inputSchema?: I; outputSchema: StandardSchemaWithJSON; annotations: ToolAnnotations },
      compute: (args: I extends StandardSchemaWithJSON ? StandardSchemaWithJSON.InferOutput<I> : undefined, ctx: ServerContext) => Promise<unknown>,
    ) => {
      if (!allowed.has(name)) return;
      const answer = async (args: unknown, ctx: ServerContext) => {
        try {
          const out = await audited({ tool: name }, () => compute(args as Parameters<typeof compute>[0], ctx));
          return { content: [{ type: "text" as const, text: JSON.stringify(out) }], structuredContent: out as Record<string, unknown> };
        } catch (error) {
          return { isError: true, content: [{ type: "text" as const, text: (error as Error).message }] };
        }
      };
      // The SDK calls a tool with an input schema as (args, ctx) and one without as (ctx).
      const callback = config.inputSchema ? answer : (ctx: ServerContext) => answer(undefined, ctx);
      server.registerTool(name, config, callback as ToolCallback<I>);
    };
    const annotations = { readOnlyHint: true, openWorldHint: false };
    const writes = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
    tool("portfolio_summary", {
      title: "Portfolio summary",
      description: "Net worth, time-weighted and money-weighted returns and allocation of the whole portfolio, with its data-quality status",
      outputSchema: SummaryOut, annotations,
    }, () => data.summary(caller.userId, caller.scope));
    tool("portfolio_history", {
      title: "Portfolio history",
      description: "The portfolio's value and time-weighted return over a period, one point per day, week or month, a page at a time",
      inputSchema: HistoryInput, outputSchema: HistoryOut, annotations,
    }, (args) => data.history(caller.userId, caller.scope, args));
    tool("holdings", {
      title: "Holdings",
      description: "Open positions with their weight and return",
      outputSchema: HoldingsOut, annotations,
    }, () => data.holdings(caller.userId, caller.scope));
    tool("transactions", {
      title: "Transactions",
      description: "Ledger rows, newest first, filtered and paginated (`next_offset`)",
      inputSchema: transactionsInput(grade), outputSchema: TransactionsOut, annotations,
    }, (args) => data.transactions(caller.userId, caller.scope, args));
    tool("fx_rates", {
      title: "FX rates",
      description: "Exchange rates of a currency pair on each day of a range, through the conversion routes and your private rates",
      inputSchema: FxRatesInput, outputSchema: FxRatesOut, annotations,
    }, (args) => data.fxRates(caller.userId, args));
    tool("draft_transactions", {
      title: "Draft transactions",
      description: "Propose ledger changes without making them: stores a draft with the ledger's validation and duplicate check and answers its id."
        + " Rows as POST /transactions/validate takes them. The user confirms the draft in the web app (Settings, AI access).",
      inputSchema: DraftRows, outputSchema: McpDraft, annotations: writes,
    }, (args) => drafts.create(caller.userId, caller.tokenId, args, caller.scope.brokerIds));
    tool("commit_draft", {
      title: "Commit a draft",
      description: "Commit a pending draft to the ledger, all or nothing, once the user has agreed. A draft commits once: calling again answers the first result.",
      inputSchema: CommitInput, outputSchema: McpDraft, annotations: { ...writes, destructiveHint: true, idempotentHint: true },
    }, (args) => drafts.commit(caller.userId, args.draft_id, caller.scope.brokerIds));
    tool("lots_and_realised_gains", {
      title: "Realised gains and FIFO lots",
      description: "Every sale with the FIFO lots it consumed and its gain by FIFO and by average cost, with totals per tax year",
      inputSchema: GainsInput, outputSchema: GainsOut, annotations,
    }, (args) => analyses.realisedGains(caller.userId, caller.scope, args));
    tool("income", {
      title: "Income",
      description: "Dividends and interest by month and by asset, in the target currency",
      inputSchema: IncomeInput, outputSchema: IncomeOut, annotations,
    }, (args) => analyses.income(caller.userId, caller.scope, args));
    tool("risk_analytics", {
      title: "Risk analytics",
      description: "Volatility, Sharpe and Sortino ratios, drawdowns, value at risk and more on the portfolio's value series over a period",
      inputSchema: riskInput(grade), outputSchema: RiskOut, annotations,
    }, (args, ctx) => risk.query(caller.userId, caller.scope, args, cancelled(ctx)));
    tool("stress_scenarios", {
      title: "Stress scenarios",
      description: "The stress scenarios stress_test can run: historical crises replayed and hypothetical shocks by asset class, sector or region",
      outputSchema: ScenariosOut, annotations,
    }, async () => risk.scenarios());
    tool("stress_test", {
      title: "Stress test",
      description: "Today's holdings under a stress scenario: the portfolio's return, and each holding's shock",
      inputSchema: stressInput(grade), outputSchema: StressOut, annotations,
    }, (args, ctx) => risk.stress(caller.userId, caller.scope, args, cancelled(ctx)));
    tool("asset_search", {
      title: "Asset search",
      description: "Assets of the catalogue whose name or identifier (ISIN, ticker, …) contains the query",
      inputSchema: AssetSearchInput, outputSchema: AssetSearchOut, annotations,
    }, (args) => market.search(caller.userId, args));
    tool("asset_prices", {
      title: "Asset prices",
      description: "An asset's stored daily close prices over a period, one point per day, week or month, a page at a time",
      inputSchema: AssetPricesInput, outputSchema: AssetPricesOut, annotations,
    }, (args) => market.prices(args));
    tool("pac_allocator", {
      title: "PAC allocator",
      description: "What to buy with a monthly amount so the holdings come closest to target weights (a plan; nothing is traded)",
      inputSchema: PacInput, outputSchema: PacOut, annotations,
    }, (args) => planning.pac(caller.userId, caller.scope, args));
    tool("portfolio_rebalancer", {
      title: "Portfolio rebalancer",
      description: "The trades that bring the holdings and cash to target weights (a plan; nothing is traded)",
      inputSchema: RebalanceInput, outputSchema: RebalanceOut, annotations,
    }, (args) => planning.rebalance(caller.userId, caller.scope, args));
    tool("signals", {
      title: "Signals",
      description: "Technical signals (RSI, MACD, drawdown, rolling returns…) on the stored daily prices of an asset the portfolio holds or held",
      inputSchema: signalsInput(grade), outputSchema: SignalsOut, annotations,
    }, (args) => signalQuery(caller.userId, caller.scope, args));
    tool("ai_export_dataset", {
      title: "AI-export dataset",
      description: "The structured data of a dataset of the AI export over a period: the portfolio's or one broker's overview and history or assets' "
        + "price history (broker_id), one asset's position or market history (asset_id), a currency pair's rates and the exposure (base_currency, quote_currency)",
      inputSchema: AiExportInput, outputSchema: AiExportOut, annotations,
    }, (args) => aiExport(caller.userId, caller.scope, grade, args));
    for (const a of PROMPT_ANALYSES) {
      server.registerPrompt(a.id, {
        title: `AI-export analysis ${a.id} (v${a.version})`, description: promptDescription(a), argsSchema: PromptArgs,
      }, ({ notes }: z.infer<typeof PromptArgs>) => ({
        messages: [{ role: "user" as const, content: { type: "text" as const, text: promptText(a, grade, allowed, notes) } }],
      }));
    }
    server.registerResource("ai-export-catalog", "portfolio-tracker://ai-export/catalog", {
      title: "AI-export catalogue", description: "Versioned datasets and analyses of the AI export (no user data)", mimeType: "application/json",
    }, async (uri) => ({ contents: [{ uri: uri.href, mimeType: "application/json", text: catalogText }] }));
    /** A resource holding user data, read like a tool's answer (`audited`); a failure is the read's error. */
    const readJson = (name: string, compute: (uri: URL) => Promise<unknown>) => async (uri: URL) => {
      const out = await audited({ resource: name }, () => compute(uri));
      return { contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify(out) }] };
    };
    server.registerResource("data-quality", DATA_QUALITY_URI, {
      title: "Data-quality report",
      description: "What makes the portfolio's figures less than complete: missing or stale prices, missing FX rates (docs/portfolio.md \"Data quality\")",
      mimeType: "application/json",
    }, readJson("data-quality", () => data.dataQualityReport(caller.userId, caller.scope)));
    if (allowed.has("ai_export_dataset")) {
      // The same datasets as the `ai_export_dataset` tool, one template per domain (its selection in the query). The list names
      // the portfolio datasets and each of the token's brokers' over the last year; an asset or a pair is the client's choice.
      const version = (id: string) => catalog.datasets.get(id)?.dataset.datasetVersion;
      const ofDomain = (d: DatasetDomain) => DATASETS.filter((id) => datasetDomain(id) === d);
      for (const domain of ["portfolio", "broker", "asset", "fx"] as const) {
        const template = new ResourceTemplate(DATASET_TEMPLATES[domain], {
          list: domain === "portfolio" || domain === "broker" ? async () => {
            const period = defaultPeriod();
            const brokerIds = domain === "broker" ? await data.brokers(caller.userId, caller.scope) ?? await ownBrokers(caller.userId) : [null];
            return {
              resources: brokerIds.flatMap((b) => ofDomain(domain).map((id) => ({
                uri: datasetUri(id, version(id)!, period, b === null ? "" : `broker_id=${b}&`),
                name: b === null ? `${id} (last year)` : `${id} broker ${b} (last year)`,
                title: `AI-export dataset ${id}${b === null ? "" : ` of broker ${b}`}, the last 365 days`, mimeType: "application/json",
              }))),
            };
          } : undefined,
          complete: { dataset_id: (value) => ofDomain(domain).filter((id) => id.startsWith(value)) },
        });
        server.registerResource(domain === "portfolio" ? "ai-export-dataset" : `ai-export-${domain}-dataset`, template, {
          title: `AI-export ${domain} dataset`,
          description: `The structured data of a ${domain} dataset of the AI export over a period (compact detail), at the catalogue's current version`,
          mimeType: "application/json",
        }, (uri, vars) => readJson("ai-export-dataset", async () => aiExport(caller.userId, caller.scope, grade, datasetQuery(vars, version)))(uri));
      }
    }
    return server;
  }

  return { check, serverFor };
}
