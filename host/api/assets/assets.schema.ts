import { z } from "zod";
import { ASSET_TYPES } from "../../../core/assets/asset.entity.ts";
import type { AssetListItem, AssetView, MarketDataSummary } from "../../../core/assets/asset-query.service.ts";
import { IDENTIFIER_COLUMNS, type MergeResult } from "../../../core/assets/asset-merge.service.ts";
import { type AssetFieldKey, type AssetFields, type FieldChange, parseIdentifierOther } from "../../../core/assets/asset.service.ts";
import { type Classification, normalizeClassification, parseClassification } from "../../../core/assets/classification.ts";
import { CurrencyField, DecimalNumber, limited } from "../../http/fields.ts";

export const AssetId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const QueryId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
export const MAX_ITEMS = 1000;

/** Ids as repeated keys (`asset_ids=1&asset_ids=2`), comma-separated, or both. */
export const IdList = z.preprocess(
  (v) => (v === undefined ? v : (Array.isArray(v) ? v : [v]).flatMap((s) => String(s).split(",")).filter((s) => s.trim() !== "")),
  z.array(QueryId).min(1).max(MAX_ITEMS),
);
export const AssetIdsQuery = z.object({ asset_ids: IdList });

/** A decimal as a string, or a JSON number written in fixed notation (never a float or an exponent on the way in). */
const DecimalInput = z.union([z.string().trim().regex(/^[-+]?\d+(\.\d+)?$/, "a decimal such as 0.25"), DecimalNumber]);

const Distribution = z.object({
  distribution: z.record(z.string().min(1).max(100), DecimalInput)
    .refine((d) => Object.keys(d).length <= 300, "at most 300 entries"),
}).strict();

/** classification_params, validated and normalised by core: a bad one is a 422 with its path. */
const ClassificationField = z.object({
  short_description: z.string().max(2000).nullable().optional(),
  geographic_area: Distribution.nullable().optional(),
  sector_area: Distribution.nullable().optional(),
}).strict().transform((v, ctx) => {
  const result = normalizeClassification({
    shortDescription: v.short_description,
    geographicArea: v.geographic_area?.distribution,
    sectorArea: v.sector_area?.distribution,
  });
  if (result.ok) return result.value;
  for (const issue of result.issues) ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
  return z.NEVER;
});

const Code = (length: number) =>
  z.string().trim().toUpperCase().regex(new RegExp(`^[A-Z0-9]{${length}}$`), `${length} letters or digits`);

/** Any string, stored as sent (user text is escaped by clients, never here). */
const NameField = z.string().min(1).max(255);

const FieldsShape = {
  asset_type: z.enum(ASSET_TYPES).nullable().optional(),
  icon_url: z.string().max(1000).nullable().optional(),
  user_url: z.string().max(1000).nullable().optional(),
  quote_base_quantity: limited(DecimalInput, "quantity").nullable().optional()
    .describe("Units a quote refers to (100 for bonds quoted per 100); zero, negative or null means 1"),
  active: z.boolean().optional().describe("false means archived"),
  classification_params: ClassificationField.nullable().optional(),
  identifier_isin: Code(12).nullable().optional(),
  identifier_ticker: z.string().trim().min(1).max(20).nullable().optional(),
  identifier_cusip: Code(9).nullable().optional(),
  identifier_sedol: Code(7).nullable().optional(),
  identifier_figi: Code(12).nullable().optional(),
  identifier_uuid: z.string().trim().min(1).max(36).nullable().optional(),
  identifier_other: z.array(z.string().trim().min(1).max(100)).max(50).nullable().optional(),
};

export const AssetCreateRequest = z.array(z.object({ name: NameField, currency: CurrencyField, ...FieldsShape }).strict())
  .min(1).max(MAX_ITEMS);

export const AssetPatchRequest = z.array(z.object({
  asset_id: AssetId, name: NameField.optional(), currency: CurrencyField.optional(), ...FieldsShape,
}).strict()).min(1).max(MAX_ITEMS);

/** Core field → wire key. */
export const WIRE_FIELD: Record<AssetFieldKey, string> = {
  active: "active", assetType: "asset_type", classification: "classification_params", currency: "currency",
  iconUrl: "icon_url", identifierCusip: "identifier_cusip", identifierFigi: "identifier_figi", identifierIsin: "identifier_isin",
  identifierOther: "identifier_other", identifierSedol: "identifier_sedol", identifierTicker: "identifier_ticker",
  identifierUuid: "identifier_uuid", name: "name", quoteBaseQuantity: "quote_base_quantity", userUrl: "user_url",
};

/** The keys present in a parsed body item, as core fields (absent keys stay absent; null stays null). */
export function toAssetFields(item: Record<string, unknown>): AssetFields {
  const fields: Record<string, unknown> = {};
  for (const [key, wire] of Object.entries(WIRE_FIELD)) if (item[wire] !== undefined) fields[key] = item[wire];
  return fields as AssetFields;
}

const ClassificationBody = z.object({
  short_description: z.string().nullable(),
  geographic_area: z.object({ distribution: z.record(z.string(), z.string()) }).nullable(),
  sector_area: z.object({ distribution: z.record(z.string(), z.string()) }).nullable(),
});

export function toClassificationBody(c: Classification | null): z.infer<typeof ClassificationBody> | null {
  if (!c) return null;
  return {
    short_description: c.shortDescription,
    geographic_area: c.geographicArea && { distribution: c.geographicArea },
    sector_area: c.sectorArea && { distribution: c.sectorArea },
  };
}

const IdentifierFields = {
  identifier_isin: z.string().nullable(), identifier_ticker: z.string().nullable(), identifier_cusip: z.string().nullable(),
  identifier_sedol: z.string().nullable(), identifier_figi: z.string().nullable(), identifier_uuid: z.string().nullable(),
  identifier_other: z.array(z.string()).nullable(),
};

const CommonRead = {
  name: z.string(), currency: z.string(), asset_type: z.enum(ASSET_TYPES).nullable(), icon_url: z.string().nullable(),
  user_url: z.string().nullable(), quote_base_quantity: z.string(), active: z.boolean(), provider_code: z.string().nullable(),
  ...IdentifierFields,
};

function commonRead(v: AssetView) {
  const a = v.asset;
  return {
    name: a.name, currency: a.currency, asset_type: a.assetType, icon_url: a.iconUrl, user_url: a.userUrl,
    quote_base_quantity: a.quoteBaseQuantity, active: a.active, provider_code: v.assignment?.providerCode ?? null,
    identifier_isin: a.identifierIsin, identifier_ticker: a.identifierTicker, identifier_cusip: a.identifierCusip,
    identifier_sedol: a.identifierSedol, identifier_figi: a.identifierFigi, identifier_uuid: a.identifierUuid,
    identifier_other: parseIdentifierOther(a.identifierOther),
  };
}

/** One asset with its classification (bulk read and `GET /assets/{id}`). */
export const AssetDetail = z.object({
  asset_id: z.number().int(), ...CommonRead, classification_params: ClassificationBody.nullable(),
  keeper_user_id: z.number().int().nullable().describe("Who may change the asset and its market data besides administrators"),
  created_at: z.string(), updated_at: z.string(),
});

export function toAssetDetail(v: AssetView): z.infer<typeof AssetDetail> {
  return {
    asset_id: v.asset.id, ...commonRead(v), classification_params: toClassificationBody(parseClassification(v.asset.classificationParams)),
    keeper_user_id: v.asset.keeperUserId ?? null,
    created_at: new Date(v.asset.createdAt).toISOString(), updated_at: new Date(v.asset.updatedAt).toISOString(),
  };
}

/** A list row: the asset's info with `name`. */
export const AssetInfo = z.object({
  id: z.number().int(), ...CommonRead, has_metadata: z.boolean(), tx_count: z.number().int(), tx_count_own: z.number().int(),
  identifier: z.string().nullable(), identifier_type: z.string().nullable(),
});

export function toAssetInfo(v: AssetListItem): z.infer<typeof AssetInfo> {
  return {
    id: v.asset.id, ...commonRead(v), has_metadata: v.asset.classificationParams !== null, tx_count: v.txCount, tx_count_own: v.txCountOwn,
    identifier: v.assignment?.identifier ?? null, identifier_type: v.assignment?.identifierType ?? null,
  };
}

const Flag = z.enum(["true", "false"]).optional().transform((v) => (v === undefined ? undefined : v === "true"));
const Text = z.string().trim().min(1).max(200).optional();

export const AssetListQuery = z.object({
  currency: Text, asset_type: z.enum(ASSET_TYPES).optional(), active: Flag, search: Text,
  isin: Text, ticker: Text, cusip: Text, sedol: Text, figi: Text, uuid: Text, identifier_other: Text, identifier_contains: Text,
});

const ItemCode = z.string().optional().describe("Stable code of a per-item failure");

export const AssetCreateResponse = z.object({
  results: z.array(z.object({ asset_id: z.number().int().nullable(), success: z.boolean(), message: z.string(), name: z.string(), code: ItemCode })),
  success_count: z.number().int(),
  errors: z.array(z.string()),
});

const OldNew = z.object({ info: z.string(), old: z.unknown(), new: z.unknown() });

export const AssetPatchResponse = z.object({
  results: z.array(z.object({
    asset_id: z.number().int(), success: z.boolean(), message: z.string(), updated_fields: z.array(OldNew).optional(), code: ItemCode,
  })),
  success_count: z.number().int(),
  errors: z.array(z.string()),
});

/** A changed field on the wire: `info` is the field's wire name. */
export function toOldNew(c: FieldChange): z.infer<typeof OldNew> {
  const wire = (v: unknown) => (c.field === "classification" ? toClassificationBody(v as Classification | null) : v);
  return { info: WIRE_FIELD[c.field], old: wire(c.old), new: wire(c.new) };
}

export const AssetDeleteResponse = z.object({
  results: z.array(z.object({ asset_id: z.number().int(), success: z.boolean(), deleted_count: z.number().int(), message: z.string(), code: ItemCode })),
  success_count: z.number().int(),
  errors: z.array(z.string()),
  total_deleted: z.number().int(),
});

export const MergeRequest = z.object({
  source_asset_id: AssetId,
  target_asset_id: AssetId,
  identifier_primaries: z.partialRecord(z.enum(Object.keys(IDENTIFIER_COLUMNS) as [keyof typeof IDENTIFIER_COLUMNS]), z.string().trim().min(1).max(100))
    .optional().describe("Which value the target keeps when source and target hold different identifiers"),
  dry_run: z.boolean().default(false),
}).strict();

export const MergeResponse = z.object({
  success: z.boolean(), source_asset_id: z.number().int(), target_asset_id: z.number().int(), dry_run: z.boolean(), message: z.string(),
  preview: z.object({
    transactions: z.number().int(), prices: z.number().int(), prices_discarded: z.number().int(), events: z.number().int(),
    events_discarded: z.number().int(), transactions_relinked: z.number().int(), provider_assignment_moved: z.boolean(),
    provider_assignment_dropped: z.boolean(), identifiers_added: z.array(z.string()),
  }),
});

export function toMergeResponse(r: MergeResult): z.infer<typeof MergeResponse> {
  const p = r.preview;
  return {
    success: true, source_asset_id: r.sourceAssetId, target_asset_id: r.targetAssetId, dry_run: r.dryRun, message: r.message,
    preview: {
      transactions: p.transactions, prices: p.prices, prices_discarded: p.pricesDiscarded, events: p.events,
      events_discarded: p.eventsDiscarded, transactions_relinked: p.transactionsRelinked, provider_assignment_moved: p.providerAssignmentMoved,
      provider_assignment_dropped: p.providerAssignmentDropped, identifiers_added: p.identifiersAdded,
    },
  };
}

export const MarketDataSummaryBody = z.object({
  asset_id: z.number().int(), price_count: z.number().int(), first_price_date: z.string().nullable(), last_price_date: z.string().nullable(),
  event_count: z.number().int(), manual_event_count: z.number().int(), provider_event_count: z.number().int(),
  linked_transaction_count: z.number().int(),
});

export function toMarketDataSummary(s: MarketDataSummary): z.infer<typeof MarketDataSummaryBody> {
  return {
    asset_id: s.assetId, price_count: s.priceCount, first_price_date: s.firstPriceDate, last_price_date: s.lastPriceDate,
    event_count: s.eventCount, manual_event_count: s.manualEventCount, provider_event_count: s.providerEventCount,
    linked_transaction_count: s.linkedTransactionCount,
  };
}

export const AssetIdParams = z.object({ id: QueryId });
