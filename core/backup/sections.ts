import { z } from "zod";
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
  restore: RestoreStage;
  row: z.ZodType<Record<string, any>>;
  /** The rows of this section for a plan, or null when it exports nothing. */
  select(plan: ExportPlan): { sql: string; params: unknown[] } | null;
}

const decimal = z.string().regex(/^-?\d+(\.\d+)?$/, "a decimal string");
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "a YYYY-MM-DD date");
const id = z.number().int().positive();
const text = z.string().nullable();
const code = z.string().regex(/^[A-Z]{3}$/, "a three-letter currency code");
const flag = z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((v) => (v === true || v === 1 ? 1 : 0));
const stamp = z.string().nullable().optional();
/** A column holding JSON text (tags, classification, chain steps, ...): it must parse. */
const jsonText = z.string().refine((t) => { try { JSON.parse(t); return true; } catch { return false; } }, "JSON text");

const byIds = (ids: number[], sql: (list: string) => string) => (ids.length ? { sql: sql(placeholders(ids.length)), params: ids } : null);

export const SECTIONS: readonly BackupSection[] = [
  {
    name: "assets",
    group: "assets",
    row: z.object({
      id, name: z.string().min(1), currency: code, active: flag, asset_type: text, icon_url: text, user_url: text,
      quote_base_quantity: decimal, identifier_isin: text, identifier_ticker: text, identifier_cusip: text, identifier_sedol: text,
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
      id, asset_id: id, date: day, type: z.enum(["DIVIDEND", "INTEREST", "PRICE_ADJUSTMENT", "SPLIT", "MATURITY_SETTLEMENT"]),
      value: decimal, currency: z.string().min(1), provider_assignment_id: id.nullable(), notes: text, created_at: stamp, updated_at: stamp,
    }),
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
    }),
    refs: { asset_id: { section: "assets" }, provider_assignment_id: { section: "provider_assignments" } },
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
    row: z.object({ base: code, quote: code, provider: z.string().min(1), date: day, rate: decimal, source: z.string(), updated_at: stamp }),
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
      base: code, quote: code, date: day, rate: decimal.refine((r) => r[0] !== "-" && /[1-9]/.test(r), "greater than 0"), source: z.string(), updated_at: stamp,
    }).refine((r) => r.base < r.quote, { message: "base and quote in alphabetical order", path: ["quote"] }),
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
      allow_cash_overdraft: flag, allow_asset_shorting: flag, is_active: flag, opened_at: text, created_at: stamp, updated_at: stamp,
    }),
    select: (p) => byIds(p.brokerIds, (l) => `SELECT id, name, description, portal_url, icon_url, default_import_plugin,
      allow_cash_overdraft, allow_asset_shorting, is_active, opened_at, created_at, updated_at FROM brokers WHERE id IN (${l}) ORDER BY id`),
    restore: restoreBrokers,
  },
  {
    // The caller's own row only: other users' access (and so their ids) never leaves the server.
    name: "broker_access",
    group: "brokers",
    row: z.object({ broker_id: id, role: z.enum(["OWNER", "EDITOR", "VIEWER"]), share_percentage: decimal }),
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
      id, broker_id: id, asset_id: id.nullable(),
      type: z.enum(["BUY", "SELL", "DIVIDEND", "INTEREST", "DEPOSIT", "WITHDRAWAL", "FEE", "TAX", "ADJUSTMENT", "TRANSFER", "FX_CONVERSION", "CASH_TRANSFER"]),
      date: day, quantity: decimal, amount: decimal.nullable(), currency: text, related_transaction_id: id.nullable(), tags: jsonText.nullable(),
      description: text, cost_basis_override: decimal.nullable(), cost_basis_currency: text, cost_basis_mode: text,
      asset_event_id: id.nullable(), created_at: stamp, updated_at: stamp,
    }),
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
