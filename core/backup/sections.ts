import { z } from "zod";
import { ASSET_TYPES } from "../assets/asset.entity.ts";
import { BROKER_ROLES } from "../brokers/broker-access.entity.ts";
import { isShareText, SHARE_RULE } from "../brokers/share.ts";
import { ASSET_EVENT_TYPES } from "../events/asset-event.entity.ts";
import {
  COMPUTED_MESSAGE, computed, type DecimalKind, limited, limitMessage, withinComputed, withinLimits,
} from "../money/decimal-limits.ts";
import { MANUAL_SOURCE } from "../prices/price-rows.ts";
import { COST_BASIS_MODES, TRANSACTION_TYPES } from "../transactions/transaction.entity.ts";
import type { ExportGroup, ExportPlan } from "./export-plan.ts";
import { placeholders } from "./export-plan.ts";
import { restoreBrokerAccess, restoreBrokers, restoreTransactions, restoreUserSettings } from "./restore-ledger-stages.ts";
import {
  type RestoreStage, restoreAssets, restoreAssignments, restoreEvents, restoreFxPrivateRates, restoreFxRates, restoreFxRoutes, restorePrices,
} from "./restore-stages.ts";

/**
 * Every table a JSON export carries, in the one place that lists them, in restore order (a
 * section only refers to sections above it). Adding a table is one entry: its group, the columns
 * of a row (the zod schema a restore checks), the SELECT of the rows in an export's plan, the
 * references a restore verifies before writing, and the stage that writes them.
 * Left out on purpose: accounts, other users' access rows, uploads, global settings (the
 * command-line archive carries the whole database for those).
 */
export interface BackupSection {
  group: ExportGroup;
  name: string;
  /** column → section whose `id` it refers to; `optional` ones may point outside the document (set null, with a warning). */
  refs?: Record<string, { section: string; optional?: boolean }>;
  /** The columns of the table's unique key: an export never repeats one, so a document that does is corrupt. */
  unique?: readonly string[];
  restore: RestoreStage;
  row: z.ZodType<Record<string, any>>;
  /** The rows of this section for a plan, or null when it exports nothing. */
  select(plan: ExportPlan): { sql: string; params: unknown[] } | null;
}

/*
 * Row rules. A restore writes rows as exported, past the write routes, so each column is held to
 * the rule its write route applies (docs/backup.md "Restore validation"), from the same homes: the
 * decimal limits (core/money/decimal-limits.ts), real calendar days (zod's ISO date, as the routes),
 * the entities' enums, the share rule. Columns the server computes itself (FX rates in their
 * stored direction, automatic cost bases, provider values) carry the arithmetic's 34 digits and
 * are held to `withinComputed` instead.
 */
/** The form of every stored decimal column: a plain decimal string. */
const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;
const decimal = z.string().regex(PLAIN_DECIMAL, "a decimal string");
/** A real calendar day, YYYY-MM-DD: the write routes' date field. */
const day = z.iso.date("must be a real calendar date, YYYY-MM-DD");
const id = z.number().int().positive();
const text = z.string().nullable();
const code = z.string().regex(/^[A-Z]{3}$/, "a three-letter currency code");
const flag = z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((v) => (v === true || v === 1 ? 1 : 0));
const stamp = z.string().nullable().optional();
/** A column holding JSON text (tags, classification, chain steps, ...): it must parse. */
const jsonText = z.string().refine((t) => { try { JSON.parse(t); return true; } catch { return false; } }, "JSON text");

/** A decimal rule: the message of a refusal, or null. */
type Rule = (text: string) => string | null;
const inRange = (kind: DecimalKind): Rule => (t) => (withinLimits(t, kind) ? null : limitMessage(kind));
const asComputed: Rule = (t) => (withinComputed(t) ? null : COMPUTED_MESSAGE);
const positive: Rule = (t) => (t[0] !== "-" && /[1-9]/.test(t) ? null : "must be greater than 0");
const notNegative: Rule = (t) => (t[0] !== "-" ? null : "must not be negative");

/**
 * Decimal columns whose rule depends on the row (entered by a user, or computed by the server):
 * `pick` names each column's rules; the first that fails is the column's issue. A column that
 * already failed its shape is left to that issue.
 */
function decimalsBy<R extends Record<string, any>>(pick: (row: R) => Record<string, Rule[]>) {
  return (row: R, ctx: z.RefinementCtx) => {
    for (const [field, rules] of Object.entries(pick(row))) {
      const value = row[field];
      if (typeof value !== "string" || !PLAIN_DECIMAL.test(value)) continue;
      const message = rules.map((rule) => rule(value)).find((m) => m !== null);
      if (message) ctx.addIssue({ code: "custom", message, path: [field], input: value });
    }
  };
}

const byIds = (ids: number[], sql: (list: string) => string) => (ids.length ? { sql: sql(placeholders(ids.length)), params: ids } : null);

export const SECTIONS: readonly BackupSection[] = [
  {
    name: "assets",
    group: "assets",
    row: z.object({
      id, name: z.string().min(1), currency: code, active: flag, asset_type: z.enum(ASSET_TYPES).nullable(), icon_url: text, user_url: text,
      quote_base_quantity: limited(decimal, "quantity"), identifier_isin: text, identifier_ticker: text, identifier_cusip: text, identifier_sedol: text,
      identifier_figi: text, identifier_uuid: text, identifier_other: jsonText.nullable(), classification_params: jsonText.nullable(), created_at: stamp, updated_at: stamp,
    }),
    select: (p) => byIds(p.assetIds, (l) => `SELECT id, name, currency, active, asset_type, icon_url, user_url, quote_base_quantity,
      identifier_isin, identifier_ticker, identifier_cusip, identifier_sedol, identifier_figi, identifier_uuid, identifier_other,
      classification_params, created_at, updated_at FROM assets WHERE id IN (${l}) ORDER BY id`),
    restore: restoreAssets,
  },
  {
    name: "provider_assignments",
    group: "assets",
    row: z.object({
      id, asset_id: id, provider_code: z.string().min(1), identifier: z.string(), identifier_type: z.string().min(1),
      provider_params: jsonText.nullable(), last_fetch_at: stamp, created_at: stamp, updated_at: stamp,
    }),
    refs: { asset_id: { section: "assets" } },
    select: (p) => byIds(p.assetIds, (l) => `SELECT id, asset_id, provider_code, identifier, identifier_type, provider_params,
      last_fetch_at, created_at, updated_at FROM asset_provider_assignments WHERE asset_id IN (${l}) ORDER BY id`),
    restore: restoreAssignments,
  },
  {
    name: "asset_events",
    group: "assets",
    row: z.object({
      id, asset_id: id, date: day, type: z.enum(ASSET_EVENT_TYPES),
      value: decimal, currency: code, provider_assignment_id: id.nullable(), notes: text, created_at: stamp, updated_at: stamp,
    }).superRefine(decimalsBy((r) => ({
      // A manual event's value is an amount of the event routes; a provider's (a split ratio 1/3, ...) is computed.
      value: [r.provider_assignment_id === null ? inRange("amount") : asComputed],
    }))),
    refs: { asset_id: { section: "assets" }, provider_assignment_id: { section: "provider_assignments" } },
    select: (p) => byIds(p.assetIds, (l) => `SELECT id, asset_id, date, type, value, currency, provider_assignment_id, notes,
      created_at, updated_at FROM asset_events WHERE asset_id IN (${l}) ORDER BY id`),
    restore: restoreEvents,
  },
  {
    name: "prices",
    group: "assets",
    row: z.object({
      asset_id: id, date: day, open: decimal.nullable(), high: decimal.nullable(), low: decimal.nullable(), close: decimal,
      volume: decimal.nullable(), currency: code, source_plugin_key: z.string().min(1), provider_assignment_id: id.nullable(), updated_at: stamp,
    }).superRefine(decimalsBy((r) => (r.source_plugin_key === MANUAL_SOURCE
      // Manual prices as the price routes take them; a provider's as its sync stores them (a positive close).
      ? { open: [positive, inRange("price")], high: [positive, inRange("price")], low: [positive, inRange("price")],
        close: [positive, inRange("price")], volume: [notNegative, inRange("quantity")] }
      : { open: [asComputed], high: [asComputed], low: [asComputed], close: [positive, asComputed], volume: [asComputed] }))),
    refs: { asset_id: { section: "assets" }, provider_assignment_id: { section: "provider_assignments" } },
    unique: ["asset_id", "date"],
    select: (p) => (p.includePrices ? byIds(p.assetIds, (l) => `SELECT asset_id, date, open, high, low, close, volume, currency,
      source_plugin_key, provider_assignment_id, updated_at FROM price_history WHERE asset_id IN (${l}) ORDER BY asset_id, date`) : null),
    restore: restorePrices,
  },
  {
    name: "fx_routes",
    group: "assets",
    row: z.object({ base: code, quote: code, priority: z.number().int().positive(), chain_steps: jsonText }),
    select: (p) => (p.pairs.length ? {
      sql: `SELECT base, quote, priority, chain_steps FROM fx_routes WHERE ${p.pairs.map(() => "(base = ? AND quote = ?)").join(" OR ")}
        ORDER BY base, quote, priority`,
      params: p.pairs.flatMap((x) => [x.base, x.quote]),
    } : null),
    restore: restoreFxRoutes,
  },
  {
    name: "fx_rates",
    group: "assets",
    // Every rate may be stored inverted (pairs are kept in alphabetical order): a computed value.
    row: z.object({
      base: code, quote: code, provider: z.string().min(1), date: day,
      rate: computed(decimal.refine((t) => positive(t) === null, "must be greater than 0")), source: z.string(), updated_at: stamp,
    }),
    unique: ["base", "quote", "provider", "date"],
    select: (p) => (p.pairs.length ? {
      sql: `SELECT base, quote, provider, date, rate, source, updated_at FROM fx_rates
        WHERE ${p.pairs.map(() => "(base = ? AND quote = ?)").join(" OR ")} ORDER BY base, quote, provider, date`,
      params: p.pairs.flatMap((x) => [x.base, x.quote]),
    } : null),
    restore: restoreFxRates,
  },
  {
    // The caller's own private rates (docs/fx.md), all of them: they are the caller's data.
    name: "fx_private_rates",
    group: "assets",
    row: z.object({
      base: code, quote: code, date: day,
      // Stored inverted when entered the other way round, like the shared rates: a computed value.
      rate: computed(decimal.refine((t) => positive(t) === null, "must be greater than 0")), source: z.string(), updated_at: stamp,
    }).refine((r) => r.base < r.quote, { message: "base and quote in alphabetical order", path: ["quote"] }),
    unique: ["base", "quote", "date"],
    select: (p) => ({
      sql: `SELECT base, quote, date, rate, source, updated_at FROM fx_private_rates WHERE user_id = ? ORDER BY base, quote, date`,
      params: [p.userId],
    }),
    restore: restoreFxPrivateRates,
  },
  {
    name: "brokers",
    group: "brokers",
    row: z.object({
      id, name: z.string().min(1), description: text, portal_url: text, icon_url: text, default_import_plugin: text,
      allow_cash_overdraft: flag, allow_asset_shorting: flag, is_active: flag, opened_at: day.nullable(), created_at: stamp, updated_at: stamp,
    }),
    select: (p) => byIds(p.brokerIds, (l) => `SELECT id, name, description, portal_url, icon_url, default_import_plugin,
      allow_cash_overdraft, allow_asset_shorting, is_active, opened_at, created_at, updated_at FROM brokers WHERE id IN (${l}) ORDER BY id`),
    restore: restoreBrokers,
  },
  {
    // The caller's own row only: other users' access (and so their ids) never leaves the server.
    name: "broker_access",
    group: "brokers",
    row: z.object({ broker_id: id, role: z.enum(BROKER_ROLES), share_percentage: z.string().refine(isShareText, `must be ${SHARE_RULE}`) }),
    refs: { broker_id: { section: "brokers" } },
    select: (p) => (p.brokerIds.length ? {
      sql: `SELECT broker_id, role, share_percentage FROM broker_access WHERE user_id = ? AND broker_id IN (${placeholders(p.brokerIds.length)})
        ORDER BY broker_id`,
      params: [p.userId, ...p.brokerIds],
    } : null),
    restore: restoreBrokerAccess,
  },
  {
    name: "transactions",
    group: "transactions",
    row: z.object({
      id, broker_id: id, asset_id: id.nullable(), type: z.enum(TRANSACTION_TYPES), date: day,
      quantity: limited(decimal, "quantity"), amount: limited(decimal, "amount").nullable(), currency: code.nullable(),
      related_transaction_id: id.nullable(), tags: jsonText.nullable(), description: text, cost_basis_override: decimal.nullable(),
      cost_basis_currency: code.nullable(), cost_basis_mode: z.enum(COST_BASIS_MODES).nullable(), asset_event_id: id.nullable(),
      created_at: stamp, updated_at: stamp,
    }).superRefine(decimalsBy((r) => ({
      // An automatic cost basis is the sender's average cost per unit, computed; an entered one is a price.
      cost_basis_override: r.cost_basis_mode === "auto" || r.cost_basis_mode === "auto-detail" ? [asComputed] : [notNegative, inRange("price")],
    }))),
    refs: {
      broker_id: { section: "brokers" }, asset_id: { section: "assets" }, asset_event_id: { section: "asset_events" },
      related_transaction_id: { section: "transactions", optional: true },
    },
    select: (p) => byIds(p.brokerIds, (l) => `SELECT id, broker_id, asset_id, type, date, quantity, amount, currency,
      related_transaction_id, tags, description, cost_basis_override, cost_basis_currency, cost_basis_mode, asset_event_id,
      created_at, updated_at FROM transactions WHERE broker_id IN (${l}) ORDER BY id`),
    restore: restoreTransactions,
  },
  {
    name: "user_settings",
    group: "settings",
    row: z.object({ base_currency: code, language: z.string().min(1), theme: z.string().min(1), avatar_url: text }),
    select: (p) => ({ sql: `SELECT base_currency, language, theme, avatar_url FROM user_settings WHERE user_id = ?`, params: [p.userId] }),
    restore: restoreUserSettings,
  },
];
