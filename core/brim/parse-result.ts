/**
 * The parse result (docs/import.md "The parse"), built by the BRIM pipeline and stored as the file's
 * last parse. It is a document served as written (snake_case, like the wire), so `last-parse`
 * answers exactly what the parse answered.
 */
export interface CashDoc {
  amount: string;
  code: string;
}

/** A `POST /transactions/commit` create; `asset_id` may be a fake id (≥ {@link FAKE_ASSET_ID_BASE}). */
export interface TxCreateDoc {
  asset_id?: number;
  broker_id: number;
  cash?: CashDoc;
  cost_basis_override?: CashDoc;
  date: string;
  description?: string;
  link_uuid?: string;
  quantity: string;
  tags?: string[];
  type: string;
}

export type MatchConfidence = "exact" | "high" | "medium" | "low";

export interface AssetCandidateDoc {
  asset_id: number;
  isin: string | null;
  match_confidence: MatchConfidence;
  name: string;
  symbol: string | null;
}

export interface AssetMappingDoc {
  candidates: AssetCandidateDoc[];
  extracted_isin?: string;
  extracted_name?: string;
  extracted_symbol?: string;
  fake_asset_id: number;
  notices: { kind: string; reason: string; transaction_indexes: number[] }[];
  selected_asset_id: number | null;
}

export type DuplicateLevel = "possible" | "possible_with_asset" | "likely" | "likely_with_asset";

export interface DuplicateMatchDoc {
  existing_transaction_ids: number[];
  match_level: DuplicateLevel;
  tx_index: number;
}

export interface DuplicateReportDoc {
  tx_likely_duplicates: DuplicateMatchDoc[];
  tx_possible_duplicates: DuplicateMatchDoc[];
  tx_unique_indices: number[];
}

export interface WarningDoc {
  code: string;
  evidence: string[];
  message: string;
  severity: "info" | "warning";
}

export interface ValidationIssueDoc {
  code: string;
  field?: string;
  message: string;
  /** The ledger rule's parameters, per code (as in a batch issue). */
  params?: Record<string, unknown>;
  row: number;
}

export interface FieldTodoDoc {
  /** The fake asset id of an `assetUnmapped` row. */
  context?: { fake_asset_id: number };
  evidence: string[];
  field: string;
  message: string;
  reason_code: string;
  severity: "blocker" | "warning";
  tx_index: number;
}

/** A data line of the file that gave no row of its own (the plugin's `skippedRows`), and why. */
export interface SkippedRowDoc {
  line: number;
  reason: string;
}

export interface ParseResultDoc {
  asset_mappings: AssetMappingDoc[];
  broker_id: number;
  /** The variant of the report the plugin read (e.g. `degiro/account-statement/nl`), when it says. */
  detected_format?: string;
  duplicates: DuplicateReportDoc;
  field_todos: FieldTodoDoc[];
  file_id: string;
  plugin_code: string;
  plugin_version: string;
  /** Data lines without a row of their own, with the reason, when the plugin accounts for them. */
  skipped_rows?: SkippedRowDoc[];
  transactions: TxCreateDoc[];
  validation_issues: ValidationIssueDoc[];
  warnings: WarningDoc[];
}

/** Fake asset ids count up from 2^31 − 1 − 10,000. */
export const FAKE_ASSET_ID_BASE = 2147473647;

export const isFakeAssetId = (id: number | undefined): boolean => id !== undefined && id >= FAKE_ASSET_ID_BASE;
