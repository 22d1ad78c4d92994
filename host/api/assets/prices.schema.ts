import { z } from "zod";
import type { CurrentPriceItem } from "../../../core/prices/current-price.service.ts";
import type { SyncResult } from "../../../core/prices/price-sync.service.ts";
import type { PriceQueryResult } from "../../../core/prices/price-query.ts";
import { Decimal, toDecimalString } from "../../../core/money/decimal.ts";
import { limitMessage, withinLimits } from "../../../core/money/decimal-limits.ts";
import { CurrencyField, DayField, DecimalNumber, limited } from "../../http/fields.ts";
import { SignalList, SignalResult } from "../signals/signals.schema.ts";

const PLAIN_DECIMAL = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;

/** Bulk limits (docs/security.md "Bulk-read limits"); beyond them 413 LIMIT_EXCEEDED. */
export const MAX_PRICE_ITEMS = 1000;
/** Price points of one `POST /assets/prices` in all: 20 years of daily closes of 27 assets. */
export const MAX_PRICE_POINTS = 200_000;
/** Date ranges of one `DELETE /assets/prices` in all. */
export const MAX_DELETE_RANGES = 10_000;

/**
 * A decimal as a plain string (kept exactly as sent) or a JSON number (inputs accept
 * numbers or strings), which is written in fixed notation from its shortest form ("0.1", never 0.1000000000000000055).
 */
const DecimalInput = z.union([
  z.string().regex(PLAIN_DECIMAL, "a plain decimal string such as 101.25"),
  DecimalNumber,
]);
const isPositive = (s: string) => s[0] !== "-" && /[1-9]/.test(s);
const PositiveDecimal = limited(DecimalInput.refine(isPositive, "must be greater than 0"), "price");
const AssetId = z.number().int();

export const PricePointInput = z.object({
  date: DayField,
  open: PositiveDecimal.nullable().optional(),
  high: PositiveDecimal.nullable().optional(),
  low: PositiveDecimal.nullable().optional(),
  close: PositiveDecimal,
  /** null or absent keeps the stored volume, -1 clears it, 0 or more is written. */
  volume: limited(DecimalInput.refine((s) => s === "-1" || s[0] !== "-", "0 or more, or -1 to clear"), "quantity").nullable().optional(),
  currency: CurrencyField.optional(),
}).strict();

/** A price point after checking; decimals as strings, `volume` still in its wire meaning (see volumeOf). */
export type PricePointParsed = Omit<z.output<typeof PricePointInput>, "close"> & { close: string };
type Issue = (field: string | null, message: string) => void;

const POINT_KEYS = new Set(["date", "open", "high", "low", "close", "volume", "currency"]);
const knownDates = new Map<string, boolean>();

/** `DayField`'s rule (a real calendar day, YYYY-MM-DD), memoised: a bulk import repeats the same days per asset. */
function isDate(text: unknown): boolean {
  if (typeof text !== "string") return false;
  let ok = knownDates.get(text);
  if (ok === undefined) {
    ok = DayField.safeParse(text).success;
    if (knownDates.size < 200_000) knownDates.set(text, ok);
  }
  return ok;
}

/** One decimal field by `DecimalInput`'s rules: absent and null pass through, else a plain decimal string. */
function decimalField(raw: Record<string, unknown>, key: string, issue: Issue, rule: "positive" | "volume", required = false) {
  const value = raw[key];
  if (value === undefined || value === null) {
    if (required) issue(key, "Required");
    return value as null | undefined;
  }
  const text = typeof value === "string" ? (PLAIN_DECIMAL.test(value) ? value : undefined)
    : typeof value === "number" && Number.isFinite(value) ? toDecimalString(new Decimal(String(value))) : undefined;
  if (text === undefined) issue(key, "a plain decimal string such as 101.25");
  else if (rule === "positive" && !isPositive(text)) issue(key, "must be greater than 0");
  else if (rule === "volume" && text !== "-1" && text[0] === "-") issue(key, "0 or more, or -1 to clear");
  else if (!withinLimits(text, rule === "volume" ? "quantity" : "price")) issue(key, limitMessage(rule === "volume" ? "quantity" : "price"));
  return text;
}

/** `PricePointInput` checked by hand (see PricePoints): same rules, same messages where it matters. */
function parsePoint(value: unknown, issue: Issue): PricePointParsed | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    issue(null, "expected an object");
    return null;
  }
  const raw = value as Record<string, unknown>;
  for (const key in raw) if (!POINT_KEYS.has(key)) issue(key, `Unrecognized key: "${key}"`);
  if (!isDate(raw.date)) issue("date", "a real calendar date YYYY-MM-DD");
  const currency = raw.currency === undefined ? undefined : CurrencyField.safeParse(raw.currency);
  if (currency && !currency.success) issue("currency", "a three-letter currency code");
  return {
    date: raw.date as string,
    open: decimalField(raw, "open", issue, "positive"),
    high: decimalField(raw, "high", issue, "positive"),
    low: decimalField(raw, "low", issue, "positive"),
    close: decimalField(raw, "close", issue, "positive", true) as string,
    volume: decimalField(raw, "volume", issue, "volume"),
    currency: currency?.data,
  };
}

const MAX_ISSUES = 100;
const pointDoc = z.toJSONSchema(PricePointInput, { io: "input" }) as Record<string, unknown>;
delete pointDoc.$schema;

/**
 * The points of one upsert item. zod costs about 15 µs a point, most of a 10-year import of 100
 * assets (bench/prices.ts), so points are checked by hand with PricePointInput's rules; the
 * OpenAPI document still shows PricePointInput, and a unit test keeps the two in agreement.
 */
export const PricePoints = z.array(z.unknown()).min(1).max(MAX_PRICE_POINTS).meta({ items: pointDoc }).transform((points, ctx) => {
  const out: PricePointParsed[] = [];
  let issues = 0;
  for (let i = 0; i < points.length && issues < MAX_ISSUES; i++) {
    const point = parsePoint(points[i], (field, message) => {
      issues++;
      ctx.addIssue({ code: "custom", message, path: field === null ? [i] : [i, field] });
    });
    if (point) out.push(point);
  }
  return issues ? z.NEVER : out;
});

export const PriceUpsertRequest = z.array(z.object({
  asset_id: AssetId,
  prices: PricePoints,
}).strict()).min(1).max(MAX_PRICE_ITEMS);

/** `{start, end?}`, inclusive; end null or absent means the single day `start`. */
export const DateRangeInput = z.object({ start: DayField, end: DayField.nullable().optional().describe("Last day, inclusive; absent or null: the start day only (docs/decisions.md \"Date ranges\")") }).strict()
  .refine((r) => !r.end || r.end >= r.start, { message: "end must not be before start", path: ["end"] })
  .transform((r) => ({ start: r.start, end: r.end ?? r.start }));

export const PriceDeleteRequest = z.array(z.object({
  asset_id: AssetId,
  date_ranges: z.array(DateRangeInput).min(1).max(MAX_DELETE_RANGES),
}).strict()).min(1).max(MAX_PRICE_ITEMS);

export const PriceQueryRequest = z.array(z.object({
  asset_id: AssetId,
  date_range: DateRangeInput,
  include_prices: z.boolean().default(true),
  include_events: z.boolean().default(false),
  signals: SignalList.optional().describe("Signals computed on the item's prices, returned beside them"),
}).strict()).min(1).max(MAX_PRICE_ITEMS);

/** A JSON array of integer asset ids (1 to 1000 of them). */
export const CurrentPriceRequest = z.array(AssetId).min(1).max(MAX_PRICE_ITEMS);

/** `start` is a date, `min` (full history) or `resume` (the day after the last stored price); `end` defaults to today. */
export const PriceSyncRequest = z.array(z.object({
  asset_id: AssetId,
  date_range: z.object({
    start: z.union([DayField, z.enum(["min", "resume"])]),
    end: DayField.optional().describe("Last day, inclusive; absent: today (UTC), as every range that fetches or computes up to now (docs/decisions.md \"Date ranges\")"),
  }).strict().refine((r) => r.start === "min" || r.start === "resume" || !r.end || r.end >= r.start,
    { message: "end must not be before start", path: ["end"] }),
}).strict()).min(1).max(MAX_PRICE_ITEMS);

export const WipeParams = z.object({ asset_id: z.coerce.number().int() });

const Nullable = z.string().nullable();

export const PriceUpsertResponse = z.object({
  results: z.array(z.object({ asset_id: z.number(), count: z.number(), message: z.string() })),
  success_count: z.number(), errors: z.array(z.string()), inserted_count: z.number(), updated_count: z.number(),
});

export const PriceDeleteResponse = z.object({
  results: z.array(z.object({ asset_id: z.number(), success: z.boolean(), deleted_count: z.number(), message: z.string() })),
  success_count: z.number(), errors: z.array(z.string()), total_deleted: z.number(),
});

const PriceOut = z.object({
  date: z.string(), open: Nullable, high: Nullable, low: Nullable, close: z.string(), volume: Nullable,
  currency: z.string(), source_plugin_key: z.string(),
});
const EventOut = z.object({
  id: z.number(), date: z.string(), type: z.string(), value: z.object({ code: z.string(), amount: z.string() }),
  notes: Nullable, is_auto: z.boolean(),
});
export const PriceQueryResponse = z.object({
  items: z.array(z.object({
    asset_id: z.number(), prices: z.array(PriceOut), events: z.array(EventOut), errors: z.array(z.string()), signals: z.array(SignalResult).optional().describe("Signals on these prices, when asked for"),
  })),
});

export const CurrentPriceResponse = z.object({
  results: z.array(z.object({
    asset_id: z.number(), value: Nullable, currency: Nullable, as_of_date: Nullable, source: Nullable, error: Nullable,
  })),
  success_count: z.number(), errors: z.array(z.string()),
});

const SyncStatus = z.enum(["ok", "partial", "failed", "skipped"]);
export const PriceSyncResponse = z.object({
  results: z.array(z.object({
    asset_id: z.number(), status: SyncStatus, provider_used: Nullable, points_fetched: z.number(), points_changed: z.number(),
    inserted_count: z.number(), updated_count: z.number(), events_fetched: z.number(), events_changed: z.number(),
    message: Nullable, errors: z.array(z.string()),
  })),
  success_count: z.number(), errors: z.array(z.string()), total_points_changed: z.number(),
});

export const WipeResponse = z.object({
  asset_id: z.number(), prices_deleted: z.number(), events_deleted: z.number(), transactions_unlinked: z.number(), message: z.string(),
});

export function toQueryItem(r: PriceQueryResult) {
  return {
    asset_id: r.assetId,
    errors: r.errors,
    prices: r.prices.map((p) => ({
      date: p.date, open: p.open, high: p.high, low: p.low, close: p.close, volume: p.volume,
      currency: p.currency, source_plugin_key: p.source_plugin_key,
    })),
    events: r.events.map((e) => ({
      id: e.id, date: e.date, type: e.type, value: { code: e.currency, amount: e.value }, notes: e.notes,
      is_auto: e.provider_assignment_id !== null,
    })),
  };
}

export function toCurrentItem(r: CurrentPriceItem) {
  return { asset_id: r.assetId, value: r.value, currency: r.currency, as_of_date: r.asOfDate, source: r.source, error: r.error };
}

export function toSyncItem(r: SyncResult) {
  return {
    asset_id: r.assetId, status: r.status, provider_used: r.providerUsed, points_fetched: r.pointsFetched,
    points_changed: r.pointsChanged, inserted_count: r.insertedCount, updated_count: r.updatedCount,
    events_fetched: r.eventsFetched, events_changed: r.eventsChanged, message: r.message, errors: r.errors,
  };
}

/** Wire volume → core: null/absent keeps (undefined), "-1" clears (null), else the value. */
export const volumeOf = (v: string | null | undefined) => (v === null || v === undefined ? undefined : v === "-1" ? null : v);
