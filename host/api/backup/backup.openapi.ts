import type { AreaDocs } from "../../http/openapi/operations.ts";
import { OWNER } from "../brokers/brokers.openapi.ts";

/** OpenAPI text of the backup area, listed in host/api/openapi.ts (docs/architecture.md "Where to add"). */
export const backupDocs: AreaDocs = {
  operations: {
    "POST /backup/export": {
      who: "Any signed-in user for `json` (only what the caller owns or can read); superusers only for `sqlite` (the whole database; "
        + "409 EXPORT_FORMAT_UNAVAILABLE when the server runs on PostgreSQL).",
      changes: "Nothing stored; answers with the export file as a download.",
      request: { format: "json", scope: ["all"], include_price_history: false },
    },
    "POST /backup/restore": {
      who: "The uploader of the file; replacing existing data (`overwrite_existing`) needs the OWNER role on the brokers concerned.",
      changes: "Restores a JSON export uploaded through /uploads, all or nothing: brokers are recreated with the caller as OWNER, assets matched by ISIN, then ticker, then name (or created), duplicates skipped (or replaced with `overwrite_existing`). Every row is first held to its write route's rules (decimal limits, real dates, enums): any row outside them refuses the restore with 422 BACKUP_ROWS_INVALID listing the rows, and nothing is written. Counts per section (docs/backup.md).",
      request: { file_id: 7, overwrite_existing: false },
      response: { restored: { assets: 4, brokers: 2, broker_access: 2, transactions: 148, prices: 0 }, skipped: { assets: 1, brokers: 0, broker_access: 0, transactions: 0, prices: 0 }, warnings: [] },
    },
  },
  fields: {
    format: "File format",
    formats: "Export formats",
    available: "True when the format can be used",
    admin_only: "True when only superusers may use it",
    scope: "What to export: all, or some of transactions, assets, brokers, settings",
    include_price_history: "Include stored prices (large)",
    overwrite_existing: "Replace records that already exist instead of skipping them",
    restored: "Records restored, per entity",
    skipped: "Records skipped as already present, per entity",
    warnings: "Things worth knowing that did not stop the operation",
    last_export_at: "When the caller last exported through this server process; null for never",
    last_restore_at: "When the caller last restored through this server process; null for never",
  },
};
