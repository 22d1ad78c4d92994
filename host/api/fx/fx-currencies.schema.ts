import { z } from "zod";
import type { ConvertResult } from "../../../core/fx/fx-convert.ts";
import type { ManualRateOutcome, PrivateRateView, RateDeleteOutcome } from "../../../core/fx/fx-rate.service.ts";
import type { FxSyncResult } from "../../../core/fx/fx-sync.service.ts";
import { CurrencyField, DayField, DecimalNumber, limited } from "../../http/fields.ts";
import { SignalList, SignalResult } from "../signals/signals.schema.ts";

/** Bulk limits (docs/fx.md, docs/security.md "Bulk-read limits"); beyond them 413 LIMIT_EXCEEDED. */
export const MAX_SYNC_PAIRS = 200;
export const MAX_RATE_ITEMS = 10_000;
export const MAX_RATE_DELETE_ITEMS = 1_000;
export const MAX_CONVERT_ITEMS = 1_000;

const PLAIN_DECIMAL = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;
/** A decimal as a plain string or a JSON number (written in fixed notation from its shortest form). */
const DecimalInput = z.union([
  z.string().regex(PLAIN_DECIMAL, "a plain decimal string such as 1.0842"),
  DecimalNumber,
]);
const PositiveDecimal = DecimalInput.refine((s) => s[0] !== "-" && /[1-9]/.test(s), "must be greater than 0");
const RateField = limited(PositiveDecimal, "rate");
/** A range of stored days: a missing or null end is the start day only, as everywhere a range reads or deletes stored rows. */
const DateRange = z.object({ start: DayField, end: DayField.nullish().describe("Last day, inclusive; absent or null: the start day only (docs/decisions.md \"Date ranges\")") }).strict()
  .refine((r) => !r.end || r.end >= r.start, { message: "end must not be before start", path: ["end"] })
  .describe("Inclusive; a missing or null end means the start day only");

export const FxSyncRequest = z.object({
  pairs: z.array(z.string().regex(/^[A-Za-z]{3}-[A-Za-z]{3}$/, "a pair slug such as EUR-USD")).min(1).max(MAX_SYNC_PAIRS),
  start: z.union([DayField, z.enum(["min"])]),
  end: DayField,
}).strict();

/** Why a provider call failed (docs/fx.md "Provider status"). */
export const SyncFailureCauseBody = z.enum(["offline", "dns", "http", "timeout", "blocked", "rate_limited", "bad_response", "not_loaded", "other"])
  .describe("Why the provider call failed: offline (network down or refused), dns (name does not resolve), http (an error status), timeout, blocked (the outbound rules refused the host), rate_limited, bad_response, not_loaded, other");
const LegDetail = z.object({
  provider: z.string(), leg: z.string(), dates_available: z.number(), error: z.string().optional(),
  cause: SyncFailureCauseBody.optional(),
  http_status: z.number().int().nullable().optional().describe("With `cause`: the HTTP status the provider answered, if any"),
});
export const FxSyncResponse = z.object({
  results: z.array(z.object({
    pair: z.string(), status: z.enum(["ok", "partial", "failed", "skipped"]), provider_used: z.string().optional(),
    points_fetched: z.number(), points_changed: z.number(), message: z.string().optional(), errors: z.array(z.string()),
    detail: z.array(LegDetail), elapsed_ms: z.number(),
  })),
  success_count: z.number(),
  errors: z.array(z.string()),
  date_range: z.object({ start: z.string(), end: z.string() }),
  total_points_changed: z.number(),
});

export const toSyncItem = (r: FxSyncResult) => ({
  pair: r.pair, status: r.status, provider_used: r.providerUsed, points_fetched: r.pointsFetched, points_changed: r.pointsChanged,
  message: r.message, errors: r.errors,
  detail: r.detail.map((d) => ({
    provider: d.provider, leg: d.leg, dates_available: d.datesAvailable, error: d.error,
    ...(d.error === undefined ? {} : { cause: d.cause ?? "other" as const, http_status: d.httpStatus ?? null }),
  })),
  elapsed_ms: r.elapsedMs,
});

export const RateUpsertRequest = z.array(z.object({
  date: DayField, base: CurrencyField, quote: CurrencyField, rate: RateField, source: z.string().trim().min(1).max(50).optional(),
}).strict()).min(1).max(MAX_RATE_ITEMS);

export const RateUpsertResponse = z.object({
  results: z.array(z.object({
    success: z.boolean(), action: z.enum(["inserted", "updated", "unchanged"]).optional(), rate: z.string(), date: z.string(),
    base: z.string(), quote: z.string(), message: z.string().optional(),
  })),
  success_count: z.number(),
  errors: z.array(z.string()),
});

export const toUpsertItem = (o: ManualRateOutcome) => ({
  success: o.success, action: o.action, rate: o.rate, date: o.date, base: o.base, quote: o.quote, message: o.message,
});

export const RateDeleteRequest = z.array(z.object({
  from: CurrencyField, to: CurrencyField, date_range: DateRange.optional(), delete_all: z.boolean().default(false),
}).strict().refine((i) => i.delete_all || i.date_range !== undefined, "give date_range or delete_all")).min(1).max(MAX_RATE_DELETE_ITEMS);

export const RateDeleteResponse = z.object({
  results: z.array(z.object({
    success: z.boolean(), deleted_count: z.number(), message: z.string().optional(), base: z.string(), quote: z.string(),
    date_range: z.object({ start: z.string(), end: z.string().optional() }).nullable(), existing_count: z.number(),
  })),
  success_count: z.number(),
  errors: z.array(z.string()),
  total_deleted: z.number(),
});

export const toDeleteItem = (o: RateDeleteOutcome) => ({
  success: o.success, deleted_count: o.deletedCount, message: o.message, base: o.base, quote: o.quote,
  date_range: o.dateRange, existing_count: o.existingCount,
});

const Cur = z.object({ code: z.string(), amount: z.string() });
export const ConvertRequest = z.array(z.object({
  from_amount: z.object({ code: CurrencyField, amount: DecimalInput }).strict(),
  to: CurrencyField,
  date_range: DateRange,
  signals: SignalList.optional().describe("Signals on this item's daily rates, returned in the top-level `signals`"),
}).strict()).min(1).max(MAX_CONVERT_ITEMS);

export const ConvertResponse = z.object({
  results: z.array(z.object({
    from_amount: Cur, to_amount: Cur, conversion_date: z.string(), rate: z.string(),
    backward_fill_info: z.object({ actual_rate_date: z.string(), days_back: z.number() }).optional(),
    private_rate: z.boolean().optional()
      .describe("Present (true) only when the day was converted with the caller's private rates, because no shared route or rate could (docs/fx.md)"),
  })),
  success_count: z.number(),
  errors: z.array(z.string()),
  signals: z.array(z.object({
    item_index: z.number().int().describe("Position of the request item, from 0"), signals: z.array(SignalResult).describe("Its signals, in request order"),
  })).optional().describe("Signals of the items that asked for them (on their daily rates)"),
});

export const toConvertItem = (r: ConvertResult) => ({
  from_amount: r.from, to_amount: r.to, conversion_date: r.conversionDate, rate: r.rate,
  ...(r.backwardFill ? { backward_fill_info: { actual_rate_date: r.backwardFill.actualRateDate, days_back: r.backwardFill.daysBack } } : {}),
  ...(r.privateRate ? { private_rate: true } : {}),
});

export const PrivateRatesQuery = z.object({
  base: CurrencyField.optional().describe("With `quote`: only this pair (either orientation)"),
  quote: CurrencyField.optional().describe("With `base`: only this pair (either orientation)"),
}).refine((q) => (q.base === undefined) === (q.quote === undefined), "give both base and quote, or neither");

export const PrivateRatesResponse = z.object({
  items: z.array(z.object({
    base: z.string().describe("Alphabetically first currency of the pair"),
    quote: z.string().describe("Alphabetically second currency of the pair"),
    date: z.string(),
    rate: z.string().describe("1 base = rate quote, as stored"),
    source: z.string(),
  })).describe("The caller's private rates, by pair then date"),
});

export const toPrivateRate = (r: PrivateRateView) => ({ base: r.base, quote: r.quote, date: r.date, rate: r.rate, source: r.source });
