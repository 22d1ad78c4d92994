import { z } from "zod";
import { BACKUP_SCOPES } from "../../../core/backup/document.ts";

const FormatQuery = z.enum(["csv", "json"]).default("csv");

export const SeriesQuery = z.object({ format: FormatQuery });
export const AssetParams = z.object({ asset_id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER) });
export const PairParams = z.object({
  base: z.string().regex(/^[A-Za-z]{3}$/, "a three-letter currency code"),
  quote: z.string().regex(/^[A-Za-z]{3}$/, "a three-letter currency code"),
});

export const ExportBody = z.object({
  format: z.enum(["json", "sqlite"]).default("json"),
  scope: z.array(z.enum(BACKUP_SCOPES)).min(1).default(["all"]),
  include_price_history: z.boolean().default(false),
  broker_ids: z.array(z.number().int().min(1)).min(1).nullable().optional(),
}).strict();

export const RestoreBody = z.object({
  file_id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  overwrite_existing: z.boolean().default(false),
}).strict();

export const RestoreResponse = z.object({
  restored: z.record(z.string(), z.number().int()),
  skipped: z.record(z.string(), z.number().int()),
  warnings: z.array(z.string()),
});

export const FormatItem = z.object({ format: z.string(), available: z.boolean(), description: z.string(), admin_only: z.boolean() });
export const FormatList = z.object({ items: z.array(FormatItem) });
export const StatusResponse = z.object({
  status: z.enum(["ready"]),
  formats: z.array(FormatItem),
  last_export_at: z.string().nullable(),
  last_restore_at: z.string().nullable(),
});

/** GET /backup/formats. */
export const FORMATS: z.infer<typeof FormatItem>[] = [
  { format: "json", available: true, admin_only: false,
    description: "Everything you own or can read in the requested scope, self-describing; restorable with POST /backup/restore" },
  { format: "sqlite", available: true, admin_only: true, description: "A consistent snapshot of the whole database, taken while the server runs" },
  { format: "csv", available: false, admin_only: false,
    description: "Not an export format of POST /backup/export; per-series CSV comes from GET /backup/asset/{id}/prices|events and /backup/fx/{base}/{quote}/rates" },
];
