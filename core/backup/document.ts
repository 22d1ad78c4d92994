import { z } from "zod";

/**
 * The JSON export document (docs/backup.md "JSON export"): self-describing, every section an array of
 * stored rows with their stored column names and values (decimals are the exact stored strings).
 *
 * ```
 * {"format": "portfolio-tracker-export", "schema_version": 1, "app_version", "exported_at",
 *  "scope": [...], "include_price_history", "broker_ids", "sections": {<name>: [rows]}, "row_counts": {<name>: n}}
 * ```
 * `row_counts` closes the document, so a truncated file is told apart from a short one.
 */
export const EXPORT_FORMAT = "portfolio-tracker-export";
/** Bumped when a restore of this version could no longer read a document the way it was meant. */
export const BACKUP_SCHEMA_VERSION = 1;

export const BACKUP_SCOPES = ["all", "transactions", "assets", "brokers", "settings"] as const;
export type BackupScope = (typeof BACKUP_SCOPES)[number];

/** The document's head, checked before any section is read. */
export const documentHead = z.object({
  format: z.literal(EXPORT_FORMAT),
  schema_version: z.number().int().positive(),
  app_version: z.string(),
  exported_at: z.string(),
  sections: z.record(z.string(), z.array(z.unknown())),
  row_counts: z.record(z.string(), z.number().int().nonnegative()),
});
