import { z } from "zod";
import type { BrokerAccess } from "../../../core/brokers/broker-access.entity.ts";
import type { AccessListItem } from "../../../core/brokers/access-change.service.ts";
import type { BrokerSummary } from "../../../core/brokers/broker-summary.service.ts";
import type { BrokerView } from "../../../core/brokers/broker.service.ts";
import { CurrencyField, DayField, limited } from "../../http/fields.ts";

const Role = z.enum(["OWNER", "EDITOR", "VIEWER"]);
/** Decimal string (a JSON number is accepted too); checked against the share rules in core. */
const Share = z.union([z.string().max(20), z.number()]);
const PositiveDecimal = z.string().regex(/^-?\d+(\.\d+)?$/, "a decimal string such as 1000.00");

const BrokerFields = {
  description: z.string().max(500).nullable().optional(),
  portal_url: z.string().max(255).nullable().optional(),
  icon_url: z.string().max(500).nullable().optional(),
  default_import_plugin: z.string().max(100).nullable().optional(),
  allow_cash_overdraft: z.boolean().optional(),
  allow_asset_shorting: z.boolean().optional(),
  is_active: z.boolean().optional(),
  opened_at: DayField.nullable().optional(),
};

export const BrokerCreateItem = z.object({
  name: z.string().trim().min(1).max(100),
  ...BrokerFields,
  initial_balances: z.array(z.object({ code: CurrencyField, amount: limited(PositiveDecimal, "amount") }).strict()).max(50).optional()
    .describe("Cash balances at opening: each positive amount becomes a DEPOSIT dated `opened_at` (the day of creation, UTC, when "
      + "`opened_at` is absent); zero and negative amounts are ignored. The DEPOSITs come back in the result's `deposits`"),
}).strict();

/** Brokers per create request (docs/security.md "Bulk-read limits"); beyond it 413 LIMIT_EXCEEDED. */
export const MAX_BROKER_ITEMS = 100;
export const BrokerCreateRequest = z.array(BrokerCreateItem).min(1).max(MAX_BROKER_ITEMS);

export const BrokerUpdateRequest = z.object({ name: z.string().trim().min(1).max(100).optional(), ...BrokerFields }).strict();

export const BrokerRead = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  portal_url: z.string().nullable(),
  icon_url: z.string().nullable(),
  default_import_plugin: z.string().nullable(),
  allow_cash_overdraft: z.boolean(),
  allow_asset_shorting: z.boolean(),
  is_active: z.boolean(),
  opened_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  user_role: Role,
  user_share_percentage: z.string(),
});

export const BrokerCreateResponse = z.object({
  results: z.array(z.object({
    success: z.boolean(),
    broker_id: z.number().int().nullable(),
    name: z.string(),
    deposits_created: z.number().int(),
    deposits: z.array(z.object({
      transaction_id: z.number().int().describe("Id of the DEPOSIT transaction"),
      date: z.string().describe("Date of the DEPOSIT: the broker's `opened_at`, else the day of creation (server date, UTC)"),
      cash: z.object({ code: z.string(), amount: z.string() }).describe("The deposited amount {code, amount}"),
    })).describe("The DEPOSITs booked from `initial_balances`, with their dates"),
    error: z.string().optional(),
  })),
  success_count: z.number().int(),
  errors: z.array(z.string()),
});

export const BrokerUpdateResponse = z.object({
  results: z.array(z.object({ id: z.number().int(), success: z.boolean(), validation_triggered: z.boolean(), error: z.string().optional() })),
  success_count: z.number().int(),
  errors: z.array(z.string()),
});

export const BrokerDeleteResponse = z.object({ success: z.boolean(), deleted_count: z.number().int(), transactions_deleted: z.number().int() });

export const AccessRow = z.object({
  user_id: z.number().int(),
  broker_id: z.number().int(),
  role: Role,
  share_percentage: z.string(),
});

export const AccessList = z.object({
  items: z.array(z.object({ user_id: z.number().int(), username: z.string(), role: Role, share_percentage: z.string(), created_at: z.string() })),
});

export const AccessAddRequest = z.object({ user_id: z.number().int().positive(), role: Role, share_percentage: Share.optional() }).strict();
export const AccessUpdateRequest = z.object({ role: Role.optional(), share_percentage: Share.optional() }).strict()
  .refine((b) => b.role !== undefined || b.share_percentage !== undefined, "Send role, share_percentage or both");
export const SelfRoleRequest = z.object({ role: Role }).strict();
export const SelfChangeResponse = z.object({ success: z.boolean(), message: z.string(), broker_deleted: z.boolean() });

export const BrokerIdParams = z.object({ id: z.coerce.number().int().positive() });
export const AccessParams = z.object({ id: z.coerce.number().int().positive(), user_id: z.coerce.number().int().positive() });

export function toBrokerRead(v: BrokerView): z.infer<typeof BrokerRead> {
  const b = v.broker;
  return {
    id: b.id, name: b.name, description: b.description, portal_url: b.portalUrl, icon_url: b.iconUrl,
    default_import_plugin: b.defaultImportPlugin, allow_cash_overdraft: b.allowCashOverdraft,
    allow_asset_shorting: b.allowAssetShorting, is_active: b.isActive, opened_at: b.openedAt,
    created_at: new Date(b.createdAt).toISOString(), updated_at: new Date(b.updatedAt).toISOString(),
    user_role: v.role, user_share_percentage: v.share,
  };
}

export function toAccessRow(a: BrokerAccess): z.infer<typeof AccessRow> {
  return { user_id: a.userId, broker_id: a.brokerId, role: a.role, share_percentage: a.sharePercentage };
}

export function toAccessListItem(a: AccessListItem) {
  return { user_id: a.userId, username: a.username, role: a.role, share_percentage: a.sharePercentage, created_at: a.createdAt.toISOString() };
}

const MoneyBody = z.object({ code: z.string(), amount: z.string() });

export const BrokerSummaryBody = BrokerRead.extend({
  cash_balances: z.array(MoneyBody),
  holdings: z.array(z.object({
    asset_id: z.number().int(),
    asset_name: z.string(),
    quantity: z.string(),
    total_cost: MoneyBody.nullable(),
    average_cost_per_unit: z.string().nullable(),
  })),
});

export function toBrokerSummary(s: BrokerSummary): z.infer<typeof BrokerSummaryBody> {
  return {
    ...toBrokerRead(s.view),
    cash_balances: s.cashBalances,
    holdings: s.holdings.map((h) => ({
      asset_id: h.assetId,
      asset_name: h.assetName,
      quantity: h.quantity,
      total_cost: h.totalCost === null ? null : { code: h.costCurrency, amount: h.totalCost },
      average_cost_per_unit: h.averageCostPerUnit,
    })),
  };
}
