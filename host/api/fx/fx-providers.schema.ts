import { z } from "zod";
import type { FxProviderEntry } from "../../../core/fx/fx-providers.ts";
import type { RouteDeleteOutcome, RouteOutcome, RouteView } from "../../../core/fx/fx-route.service.ts";
import type { SearchStep } from "../../../core/fx/route-search.calc.ts";
import type { ProviderStatus } from "../../../core/fx/provider-status.ts";
import { SyncFailureCauseBody } from "./fx-currencies.schema.ts";

/** Routes per create or delete request (docs/security.md "Bulk-read limits"); beyond them 413 LIMIT_EXCEEDED. */
export const MAX_ITEMS = 1000;
const Code = z.string().trim().regex(/^[A-Za-z]{3}$/, "three-letter currency code").transform((s) => s.toUpperCase());

/** `?providers=ECB&providers=FED`, comma-separated, or both. */
export const ProvidersQuery = z.object({
  providers: z.preprocess(
    (v) => (v === undefined ? v : (Array.isArray(v) ? v : [v]).flatMap((s) => String(s).split(",")).filter((s) => s.trim() !== "")),
    z.array(z.string()).max(100).optional(),
  ),
});

export const FxProviderBody = z.object({
  code: z.string(),
  name: z.string(),
  description: z.string(),
  base_currency: z.string().nullable(),
  base_currencies: z.array(z.string()),
  target_currencies: z.array(z.string()),
  warning_i18n: z.record(z.string(), z.string()).optional(),
});

export const toFxProviderBody = (p: FxProviderEntry): z.infer<typeof FxProviderBody> => ({
  code: p.code,
  name: p.name,
  description: p.description,
  base_currency: p.baseCurrencies[0] ?? null,
  base_currencies: [...p.baseCurrencies],
  target_currencies: [...p.targetCurrencies],
  ...(p.warningI18n ? { warning_i18n: { ...p.warningI18n } } : {}),
});

/** One provider's last sync outcome (docs/fx.md "Provider status"). */
export const ProviderStatusBody = z.object({
  provider: z.string().describe("The provider's wire code"),
  attempted_at: z.string().describe("When a sync last asked this provider (ISO time)"),
  succeeded_at: z.string().nullable().describe("When it last answered (ISO time), null if never"),
  error: z.object({
    at: z.string().describe("When the failure happened (ISO time)"),
    cause: SyncFailureCauseBody,
    http_status: z.number().int().nullable().describe("The HTTP status the provider answered, if any"),
    message: z.string().describe("The failure as the provider call reported it"),
  }).nullable().describe("The last failure when it came after the last success, else null"),
});

export const toProviderStatusBody = (s: ProviderStatus): z.infer<typeof ProviderStatusBody> => ({
  provider: s.provider, attempted_at: s.lastAttemptAt, succeeded_at: s.lastSuccessAt,
  error: s.lastError ? { at: s.lastError.at, cause: s.lastError.cause, http_status: s.lastError.httpStatus, message: s.lastError.message } : null,
});

export const ChainStepBody = z.object({ from: z.string(), to: z.string(), provider: z.string() });

/** Body of route creation (docs/fx.md "Providers, routes and route search"); chain rules are checked per item by the service. */
export const RoutesCreateRequest = z.array(z.object({
  base: z.string().max(3),
  quote: z.string().max(3),
  priority: z.number().int().min(1),
  chain_steps: z.array(z.object({ from: z.string().max(3), to: z.string().max(3), provider: z.string().min(1).max(100) }).strict()).min(1).max(20),
}).strict()).min(1).max(MAX_ITEMS);

export const RouteRead = z.object({ base: z.string(), quote: z.string(), priority: z.number(), chain_steps: z.array(ChainStepBody) });
export const toRouteRead = (r: RouteView) => ({ base: r.base, quote: r.quote, priority: r.priority, chain_steps: r.chainSteps });

export const RouteResult = RouteRead.extend({
  success: z.boolean(),
  action: z.enum(["created", "updated", "error"]),
  message: z.string().optional(),
});
export const RoutesCreateResponse = z.object({
  results: z.array(RouteResult),
  success_count: z.number(),
  errors: z.array(z.string()),
  error_count: z.number(),
});
export const toRouteResult = (o: RouteOutcome) => ({
  ...toRouteRead(o), success: o.success, action: o.action, ...(o.message ? { message: o.message } : {}),
});

export const RoutesDeleteRequest = z.array(z.object({
  base: z.string().max(3),
  quote: z.string().max(3),
  priority: z.number().int().min(1).optional(),
}).strict()).min(1).max(MAX_ITEMS);
export const RoutesDeleteResponse = z.object({
  results: z.array(z.object({
    success: z.boolean(),
    deleted_count: z.number(),
    manual_reinstated: z.boolean(),
    message: z.string().optional(),
    base: z.string(),
    quote: z.string(),
    priority: z.number().optional(),
  })),
  success_count: z.number(),
  errors: z.array(z.string()),
  total_deleted: z.number(),
});
export const toDeleteResult = (o: RouteDeleteOutcome) => ({
  success: o.success,
  deleted_count: o.deletedCount,
  manual_reinstated: o.manualReinstated,
  ...(o.message ? { message: o.message } : {}),
  base: o.base,
  quote: o.quote,
  ...(o.priority !== undefined ? { priority: o.priority } : {}),
});

export const SuggestQuery = z.object({ base: Code, quote: Code, limit: z.coerce.number().int().min(1).max(500).default(50) });
export const SuggestResponse = z.object({
  base: z.string(),
  quote: z.string(),
  paths: z.array(z.object({
    length: z.number(),
    chain_steps: z.array(ChainStepBody.extend({ reversed: z.boolean() })),
  })),
});
export const toSuggestPath = (path: SearchStep[]) => ({
  length: path.length,
  chain_steps: path.map((s) => ({ from: s.from, to: s.to, provider: s.provider, reversed: s.reversed })),
});
