import { z } from "zod";
import { ASSET_TYPES } from "../../../../core/assets/asset.entity.ts";
import type { NewAsset } from "../../../../core/assets/asset.service.ts";
import type { CommitOutcome, CommittedRow } from "../../../../core/brim/brim-commit.service.ts";
import type { CommitDecisions } from "../../../../core/brim/commit-plan.calc.ts";
import { FAKE_ASSET_ID_BASE } from "../../../../core/brim/parse-result.ts";
import { COST_BASIS_MODES } from "../../../../core/transactions/transaction.entity.ts";
import { AssetCreateRequest, AssetId, toAssetFields } from "../../assets/assets.schema.ts";
import { CreateRow } from "../../transactions/transactions.schema.ts";

/**
 * The import commit's wire shapes (`POST /brokers/import/files/{id}/commit`): the user's decisions
 * about a stored parse, and what was (or, on a dry run, would be) written. Kept apart from
 * brim.schema.ts, which the parse worker loads: these reuse the write routes' own field rules
 * (transactions' rows, `POST /assets` items).
 */

/** A row of the stored parse, by its index in `transactions`. */
const RowIndex = z.number().int().min(0).max(10_000_000).describe("Index of the row in the parse's `transactions`");
const FakeAssetId = z.number().int().min(FAKE_ASSET_ID_BASE).max(2147483647).describe("The parse's key of an asset the report names (`asset_mappings[].fake_asset_id`)");

export const CommitEdit = CreateRow.pick({
  type: true, date: true, quantity: true, cash: true, asset_id: true, tags: true, description: true, cost_basis_override: true, cost_basis_mode: true,
}).partial().extend({ row: RowIndex }).strict().meta({
  id: "BrimCommitEdit",
  description: "New values for fields of one parsed row, checked as the transaction write routes check them; a field left out keeps the parse's "
    + "value, null clears it. `asset_id` is an asset's id or a `fake_asset_id` of the parse",
});

/** The fields of `POST /assets`; name and currency default from the report. */
const AssetDraftBody = AssetCreateRequest.element.partial({ name: true, currency: true });

export const CommitAssetChoice = z.discriminatedUnion("action", [
  z.object({
    fake_asset_id: FakeAssetId,
    action: z.literal("create").describe("create: a new asset from the report's fields"),
    asset: AssetDraftBody.optional().describe("Fields of the new asset as POST /assets takes them; name, currency, identifier_isin and "
      + "identifier_ticker default from the report (the currency of the asset's first row with cash)"),
  }).strict(),
  z.object({ fake_asset_id: FakeAssetId, action: z.literal("use").describe("use: an existing asset"), asset_id: AssetId }).strict(),
]).meta({ id: "BrimAssetChoice", description: "Create the asset the report names (the caller becomes its keeper), or use an existing one" });

export const CommitBody = z.object({
  dry_run: z.boolean().describe("true: write nothing and answer exactly what would be written"),
  broker_id: AssetId.optional().describe("The broker to write into (EDITOR or OWNER); default: the parse's"),
  parse_token: z.string().min(1).max(128).optional()
    .describe("The parse_token of the dry run this commit confirms: a file parsed again since is refused (409 PARSE_CHANGED)"),
  edits: z.array(CommitEdit).max(100_000).describe("Corrections of parsed rows, one per row"),
  skips: z.array(RowIndex).max(1_000_000).describe("Rows to leave out"),
  keep_duplicates: z.array(RowIndex).max(1_000_000).optional()
    .describe("Likely duplicates to write anyway (likely duplicates are left out otherwise)"),
  asset_choices: z.array(CommitAssetChoice).max(100_000)
    .describe("A decision per asset of the report; without one the parse's selected_asset_id is used, else the rows are refused (assetUnmapped)"),
}).strict().meta({ id: "BrimCommitRequest" });

/** The request in core names. */
export function toCommitDecisions(body: z.output<typeof CommitBody>): CommitDecisions {
  return {
    brokerId: body.broker_id ?? null,
    edits: body.edits,
    skips: body.skips,
    keepDuplicates: body.keep_duplicates ?? [],
    assetChoices: body.asset_choices.map((c) => (c.action === "use"
      ? { action: "use", fakeAssetId: c.fake_asset_id, assetId: c.asset_id }
      : { action: "create", fakeAssetId: c.fake_asset_id, asset: toAssetFields(c.asset ?? {}) as Partial<NewAsset> })),
  };
}

const MoneyOut = z.object({ code: z.string(), amount: z.string() });
const CommitRow = z.object({
  row: z.number().int().describe("Index of the row in the parse"),
  transaction_id: z.number().int().nullable().describe("The written transaction (null on a dry run or when nothing was written)"),
  broker_id: z.number().int(),
  type: z.string(),
  date: z.string(),
  quantity: z.string(),
  cash: MoneyOut.nullable(),
  asset_id: z.number().int().nullable().describe("null for an asset this import creates until it is written"),
  fake_asset_id: z.number().int().nullable().describe("The parse's key of the report's asset the row takes"),
  link_uuid: z.string().nullable(),
  tags: z.array(z.string()).nullable(),
  description: z.string().nullable(),
  cost_basis_override: MoneyOut.nullable(),
  cost_basis_mode: z.enum(COST_BASIS_MODES).nullable(),
  edited: z.boolean().describe("An edit of the request changed the row"),
});
const CommitAsset = z.object({
  fake_asset_id: z.number().int(),
  action: z.enum(["create", "use"]).describe("create: made by this import, its caller the keeper; use: an existing asset"),
  asset_id: z.number().int().nullable().describe("The existing or created asset; null for one a dry run would create"),
  name: z.string().nullable(),
  currency: z.string().nullable(),
  asset_type: z.enum(ASSET_TYPES).nullable(),
  identifier_isin: z.string().nullable(),
  identifier_ticker: z.string().nullable(),
  rows: z.number().int().describe("Rows written with this asset"),
});
const CommitIssue = z.object({
  row: z.number().int().nullable().describe("The parse's row; null for an asset's or a broker's issue"),
  fake_asset_id: z.number().int().nullable(),
  code: z.string(),
  message: z.string(),
  field: z.string().nullable(),
  params: z.record(z.string(), z.unknown()).nullable(),
});

export const CommitResult = z.object({
  dry_run: z.boolean().describe("The request was a dry run: nothing was written"),
  committed: z.boolean().describe("true when the rows and assets were written; a dry run or any issue writes nothing"),
  file_id: z.string(),
  broker_id: z.number().int(),
  parse_token: z.string().describe("SHA-256 of the stored parse the answer was made from"),
  row_count: z.number().int().describe("Rows in the parse"),
  rows: z.array(CommitRow).describe("The rows written (or that would be), in the parse's order, with their final fields"),
  assets: z.array(CommitAsset).describe("The report's assets the rows take: created by this import, or existing"),
  skipped: z.array(z.object({
    row: z.number().int().describe("Index of the row in the parse"),
    reason: z.enum(["skipped", "duplicate"]).describe("skipped: the request leaves it out; duplicate: a likely duplicate not kept"),
  }))
    .describe("Rows left out: by the user, or as a likely duplicate not kept"),
  duplicates: z.array(z.object({
    row: z.number().int().describe("Index of the row in the parse"),
    match_level: z.enum(["possible", "possible_with_asset", "likely", "likely_with_asset", "in_file"])
      .describe("likely(_with_asset): left out unless kept; possible(_with_asset): written, a stored row is close; in_file: written, equal to an earlier row of the import"),
    existing_transaction_ids: z.array(z.number().int()),
    same_as_rows: z.array(z.number().int()).describe("in_file: the earlier rows of this import it equals"),
    skipped: z.boolean().describe("Left out as a duplicate"),
  })).describe("Rows that match stored rows of the broker, or an earlier row of the import"),
  issues: z.array(CommitIssue).describe("What keeps the import from being written: any issue and nothing is"),
}).meta({ id: "BrimCommitResult" });

export function commitRow(r: CommittedRow): z.infer<typeof CommitRow> {
  const p = r.planned;
  const c = r.create;
  if (c) {
    return {
      row: p.row, transaction_id: r.transactionId, broker_id: c.brokerId!, type: c.type, date: c.date, quantity: c.quantity,
      cash: c.cash, asset_id: c.assetId, fake_asset_id: p.fakeAssetId, link_uuid: c.linkUuid, tags: c.tags, description: c.description,
      cost_basis_override: c.costBasisOverride, cost_basis_mode: c.costBasisMode, edited: p.edited,
    };
  }
  // Fields the ledger could not read: shown as they are.
  const d = p.doc!;
  return {
    row: p.row, transaction_id: null, broker_id: d.broker_id, type: String(d.type), date: String(d.date), quantity: String(d.quantity ?? "0"),
    cash: d.cash ?? null, asset_id: p.assetId, fake_asset_id: p.fakeAssetId, link_uuid: d.link_uuid ?? null, tags: d.tags ?? null,
    description: d.description ?? null, cost_basis_override: d.cost_basis_override ?? null,
    cost_basis_mode: (COST_BASIS_MODES as readonly string[]).includes((d as { cost_basis_mode?: string }).cost_basis_mode ?? "")
      ? (d as { cost_basis_mode?: (typeof COST_BASIS_MODES)[number] }).cost_basis_mode! : null,
    edited: p.edited,
  };
}

type Result = z.infer<typeof CommitResult>;

export const commitAsset = (a: CommitOutcome["assets"][number]): Result["assets"][number] => ({
  fake_asset_id: a.fakeAssetId, action: a.action, asset_id: a.assetId, name: a.name, currency: a.currency,
  asset_type: a.fields?.assetType ?? null, identifier_isin: a.fields?.identifierIsin ?? null, identifier_ticker: a.fields?.identifierTicker ?? null,
  rows: a.rows,
});

export const commitDuplicate = (d: CommitOutcome["duplicates"][number]): Result["duplicates"][number] => ({
  row: d.row, match_level: d.level, existing_transaction_ids: d.existingIds, same_as_rows: d.sameAsRows, skipped: d.skipped,
});

export const commitIssue = (i: CommitOutcome["issues"][number]): Result["issues"][number] => ({
  row: i.row, fake_asset_id: i.fakeAssetId, code: i.code, message: i.message, field: i.field, params: i.params,
});

export function toCommitResult(o: CommitOutcome): Result {
  return {
    dry_run: o.dryRun, committed: o.committed, file_id: o.fileId, broker_id: o.brokerId, parse_token: o.parseToken, row_count: o.rowCount,
    rows: o.rows.map(commitRow),
    assets: o.assets.map(commitAsset),
    skipped: o.skipped,
    duplicates: o.duplicates.map(commitDuplicate),
    issues: o.issues.map(commitIssue),
  };
}
