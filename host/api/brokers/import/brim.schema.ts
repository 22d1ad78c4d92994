import { z } from "zod";
import type { BrimFile } from "../../../../core/brim/brim-file.entity.ts";
import type { AssetMappingDoc, ParseResultDoc, TxCreateDoc } from "../../../../core/brim/parse-result.ts";
import type { Assert, SameShape } from "../../../http/same-shape.ts";
import { DayField } from "../../../http/fields.ts";
import { NamedFile } from "../../uploads/uploads.schema.ts";

/** BRIM wire shapes (docs/import.md). */

/** Bulk limits (docs/import.md, docs/security.md "Bulk-read limits"); beyond them 413 LIMIT_EXCEEDED. */
export const MAX_CANDIDATE_HINTS = 1000;
export const MAX_DUPLICATE_ROWS = 100_000;
export const MAX_BROKER_FILTER = 1000;

const many = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (v === undefined || Array.isArray(v) ? v : [v]), z.array(item).max(MAX_BROKER_FILTER)).optional();
const Id = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const flag = z.enum(["true", "false", "1", "0"]).optional().transform((v) => v === "true" || v === "1");

export const FileInfo = z.object({
  file_id: z.string(),
  filename: z.string(),
  size_bytes: z.number().int(),
  status: z.enum(["uploaded", "parsed", "failed"]),
  uploaded_at: z.string(),
  processed_at: z.string().nullable(),
  compatible_plugins: z.array(z.string()),
  error_message: z.string().nullable(),
  uploaded_by_user_id: z.number().int().nullable(),
  target_broker_id: z.number().int(),
  parsed_plugin_code: z.string().nullable(),
  parsed_plugin_version: z.string().nullable(),
  parse_is_stale: z.boolean(),
});

export const FileList = z.object({ items: z.array(FileInfo) });
export const FileParams = z.object({ file_id: z.string().min(1).max(64) });
export const ListQuery = z.object({ status: z.enum(["uploaded", "parsed", "failed"]).optional(), broker_ids: many(Id) });
export const UploadQuery = z.object({ broker_id: Id.optional() });
export const UploadBody = z.object({
  file: z.union([NamedFile, z.array(NamedFile).min(1)])
    .describe("The report; several `file` parts only for PDFs, stored together as one ZIP of them (at most 200, within max_file_upload_mb)"),
  broker_id: Id.optional(), custom_filename: z.string().max(255).optional() });
export const PdfTextQuery = z.object({
  anonymise: z.enum(["true", "false", "1", "0"]).optional().transform((v) => v !== "false" && v !== "0")
    .describe("Mask the owner's name and address, IBANs and long numbers (default true); false gives the text as it is"),
});
export const PdfTextAnswer = z.object({
  file_id: z.string().describe("The import file"),
  anonymised: z.boolean().describe("Whether the texts were anonymised"),
  documents: z.array(z.object({
    name: z.string().describe("The document's file name (a ZIP's entry without its folders)"),
    text: z.string().nullable().describe("The text as importers read it: lines in reading order, pages apart by a form-feed line; null when unreadable"),
    reason: z.string().nullable().describe("Why there is no text (PDF_NO_TEXT, PDF_ENCRYPTED, PDF_UNREADABLE, ...); null with a text"),
    message: z.string().nullable().describe("The reason in words; null with a text"),
  })).describe("The file itself when a PDF, else each PDF of the ZIP, sorted by name as a parse reads them"),
});
export const PreviewQuery = z.object({ sheet_name: z.string().max(255).optional() });
export const DownloadQuery = z.object({ download: flag });
export const DeleteAnswer = z.object({ success: z.boolean(), file_id: z.string() });

export const PreviewAnswer = z.object({
  kind: z.literal("table"),
  sheets: z.array(z.string()).optional(),
  columns: z.array(z.string()),
  rows: z.array(z.array(z.string())),
});

export const PluginItem = z.object({
  code: z.string(),
  name: z.string(),
  description: z.string(),
  supported_extensions: z.array(z.string()),
  icon_url: z.string().nullable(),
  docs_url: z.string().nullable(),
  plugin_version: z.string(),
  detection_priority: z.number(),
});
export const PluginList = z.object({ items: z.array(PluginItem) });

export const ParseBody = z.object({
  plugin_code: z.string().min(1).max(64).default("auto"),
  broker_id: Id,
  /** Plugin settings for this parse, e.g. the generic CSV's `column_mapping`. */
  options: z.record(z.string(), z.unknown()).optional(),
}).strict();

const Cash = z.object({ code: z.string(), amount: z.string() });
const TxCreate = z.object({
  broker_id: z.number().int(),
  asset_id: z.number().int().optional(),
  type: z.string(),
  date: z.string(),
  quantity: z.string(),
  cash: Cash.optional(),
  link_uuid: z.string().optional(),
  tags: z.array(z.string()).optional(),
  description: z.string().optional(),
  cost_basis_override: Cash.optional(),
});
const Candidate = z.object({
  asset_id: z.number().int(), symbol: z.string().nullable(), isin: z.string().nullable(), name: z.string(),
  match_confidence: z.enum(["exact", "high", "medium", "low"]),
});
const Mapping = z.object({
  fake_asset_id: z.number().int(),
  extracted_symbol: z.string().optional(),
  extracted_isin: z.string().optional(),
  extracted_name: z.string().optional(),
  extracted_asset_type: z.enum(["STOCK", "ETF", "BOND", "FUND", "CRYPTO"]).optional()
    .describe("The instrument type the report states (a column such as \"Asset class\"); an asset the commit creates gets it unless `asset_choices` sets another. Absent when the report does not say: an ISIN alone does not tell an ETF from a stock"),
  candidates: z.array(Candidate),
  selected_asset_id: z.number().int().nullable(),
  notices: z.array(z.object({ kind: z.string(), reason: z.string(), transaction_indexes: z.array(z.number().int()) })),
});
const Match = z.object({
  tx_index: z.number().int(),
  match_level: z.enum(["possible", "possible_with_asset", "likely", "likely_with_asset"]),
  existing_transaction_ids: z.array(z.number().int()),
});
export const DuplicateReport = z.object({
  tx_unique_indices: z.array(z.number().int()),
  tx_possible_duplicates: z.array(Match),
  tx_likely_duplicates: z.array(Match),
});
export const ParseResult = z.object({
  file_id: z.string(),
  plugin_code: z.string(),
  plugin_version: z.string(),
  broker_id: z.number().int(),
  transactions: z.array(TxCreate),
  asset_mappings: z.array(Mapping),
  duplicates: DuplicateReport,
  warnings: z.array(z.object({
    severity: z.enum(["info", "warning"]), code: z.string(), message: z.string(),
    evidence: z.array(z.string()).describe("Where in the file the warning comes from (`row 12`)"),
  })),
  validation_issues: z.array(z.object({
    row: z.number().int().describe("Index of the parsed transaction the issue is about, from 0"),
    code: z.string(), message: z.string(), field: z.string().optional(),
    params: z.record(z.string(), z.unknown()).optional()
      .describe("Parameters of the ledger rule that failed, per code (as in a transactions batch issue); absent when it has none"),
  })),
  field_todos: z.array(z.object({
    tx_index: z.number().int(), field: z.string(), severity: z.enum(["blocker", "warning"]), reason_code: z.string(), message: z.string(),
    context: z.object({ fake_asset_id: z.number().int() }).optional()
      .describe("For `assetUnmapped`: the fake asset id to map; absent otherwise"),
    evidence: z.array(z.string()).describe("Where in the file the row comes from (`row 12`)"),
  })),
  /** The variant of the report the plugin read, e.g. `degiro/account-statement/nl` (when the plugin says). */
  detected_format: z.string().optional()
    .describe("The variant of the format the importer recognised, e.g. `degiro/account-statement/nl`; absent when the importer names none"),
  /** Data lines of the file without a row of their own, each with the reason (when the plugin accounts for them). */
  skipped_rows: z.array(z.object({
    line: z.number().int().describe("1-based line of the file"),
    reason: z.string().describe("Why the line was not imported (a notice, an information line, a reversal that cancels out)"),
  })).optional()
    .describe("Data lines deliberately not imported, each with its reason, so every line of the file is accounted for (docs/import.md)"),
});

/** The parse result is stored and served as the pipeline wrote it: its schema and its type are one shape. */
export type ParseResultMatchesDoc = Assert<SameShape<z.output<typeof ParseResult>, ParseResultDoc>>;

const Decimalish = z.union([z.string(), z.number()]).transform((v) => String(v));
const CashIn = z.object({ code: z.string().min(3).max(3), amount: Decimalish }).strict();
export const DuplicatesBody = z.object({
  broker_id: Id,
  transactions: z.array(z.object({
    asset_id: z.number().int().nullable().optional(),
    type: z.string().max(32),
    date: DayField,
    quantity: Decimalish.optional(),
    cash: CashIn.nullable().optional(),
  }).passthrough()).max(MAX_DUPLICATE_ROWS),
  asset_mappings: z.array(z.object({ fake_asset_id: z.number().int(), selected_asset_id: z.number().int().nullable().optional() }).passthrough()).max(MAX_DUPLICATE_ROWS).default([]),
}).strict();

/**
 * A valid duplicates body as the duplicate check reads it: the broker, and its rows as commit creates of
 * that broker with the chosen mappings, as the UTF-8 bytes of one JSON text (`{creates, mappings}`:
 * bytes in a buffer of their own cross threads moved, not copied; docs/import.md "Performance").
 * Made in the worker that validated the body, or on the request thread for a small body Elysia
 * parsed itself (a form).
 */
export function duplicatesRequest(body: z.output<typeof DuplicatesBody>): { brokerId: number; json: Uint8Array<ArrayBuffer> } {
  const creates: TxCreateDoc[] = body.transactions.map((t) => ({
    broker_id: body.broker_id,
    ...(typeof t.asset_id === "number" ? { asset_id: t.asset_id } : {}),
    type: t.type, date: t.date, quantity: t.quantity ?? "0",
    ...(t.cash ? { cash: { code: t.cash.code.toUpperCase(), amount: t.cash.amount } } : {}),
  }));
  const mappings: Pick<AssetMappingDoc, "fake_asset_id" | "selected_asset_id">[] = body.asset_mappings.map((m) => ({
    fake_asset_id: m.fake_asset_id, selected_asset_id: m.selected_asset_id ?? null,
  }));
  return { brokerId: body.broker_id, json: new TextEncoder().encode(JSON.stringify({ creates, mappings })) };
}

export const CandidatesBody = z.object({
  items: z.array(z.object({
    extracted_symbol: z.string().max(64).optional(),
    extracted_isin: z.string().max(32).optional(),
    extracted_name: z.string().max(500).optional(),
  }).strict()).max(MAX_CANDIDATE_HINTS),
}).strict();
export const CandidatesAnswer = z.object({ items: z.array(z.object({ candidates: z.array(Candidate) })) });

export function toFileInfo(f: BrimFile, stale: boolean): z.infer<typeof FileInfo> {
  return {
    file_id: f.id,
    filename: f.filename,
    size_bytes: f.sizeBytes,
    status: f.status,
    uploaded_at: new Date(f.uploadedAt).toISOString(),
    processed_at: f.processedAt ? new Date(f.processedAt).toISOString() : null,
    compatible_plugins: JSON.parse(f.compatiblePlugins) as string[],
    error_message: f.errorMessage,
    uploaded_by_user_id: f.uploadedByUserId,
    target_broker_id: f.brokerId,
    parsed_plugin_code: f.parsedPluginCode,
    parsed_plugin_version: f.parsedPluginVersion,
    parse_is_stale: stale,
  };
}
