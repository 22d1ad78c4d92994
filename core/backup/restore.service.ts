import { readFile } from "node:fs/promises";
import { inject, injectable } from "tsyringe";
import { CacheRegistry } from "../cache/cache-registry.ts";
import { declareChange } from "../db/data-changes.ts";
import { Database } from "../db/database.ts";
import type { z } from "zod";
import { InputError, NotFoundError, ValidationError } from "../errors/domain-error.ts";
import type { Issue } from "../errors/validation-issues.ts";
import { COMPUTED_MESSAGE, isLimitMessage } from "../money/decimal-limits.ts";
import { UploadService } from "../uploads/upload.service.ts";
import { BACKUP_SCHEMA_VERSION, documentHead, EXPORT_FORMAT } from "./document.ts";
import { RestoreContext } from "./restore-context.ts";
import { SECTIONS } from "./sections.ts";
import { ROWS_PER_YIELD, yieldToEventLoop } from "./snapshot-reader.ts";

export interface RestoreInput {
  fileId: number;
  /** Administrators may change every asset; others only the assets they keep. */
  isSuperuser: boolean;
  /** Called before each named stage (logging; tests hold a restore mid-way with it). */
  onStage?: (stage: string) => Promise<void> | void;
  overwrite: boolean;
  /** DATA_DIR/uploads. */
  uploadsDir: string;
  userId: number;
}

export interface RestoreOutcome {
  restored: Record<string, number>;
  skipped: Record<string, number>;
  warnings: string[];
}

type Sections = Record<string, Record<string, any>[]>;

const corrupt = (detail: string, params?: Record<string, unknown>) => new InputError("BACKUP_DOCUMENT_CORRUPT", detail, params);

/**
 * `POST /backup/restore` (docs/backup.md "Restore"): a JSON export uploaded through /uploads, written
 * all or nothing. A pipeline of named stages, like the transaction batch: read → parse → check
 * rows (every column by its write route's rule) → check references run before anything is
 * written and refuse with a 4xx; then one stage per section (sections.ts order) inside ONE
 * serialised write transaction, so a refusal, an error or a killed process leaves the database
 * exactly as it was.
 */
@injectable()
export class BackupRestoreService {
  constructor(
    @inject(Database) private readonly db: Database,
    @inject(UploadService) private readonly uploads: UploadService,
    @inject(CacheRegistry) private readonly caches: CacheRegistry,
  ) {}

  async restore(input: RestoreInput): Promise<RestoreOutcome> {
    const stage = async (name: string) => { await input.onStage?.(name); };
    await stage("read");
    const text = await this.readUpload(input);
    await stage("parse");
    const sections = parseDocument(text);
    await stage("check-rows");
    const warnings = await checkRows(sections);
    await stage("check-references");
    checkReferences(sections);
    const outcome = await this.db.write(async (tx) => {
      const ctx = new RestoreContext(tx, input.userId, input.isSuperuser, input.overwrite, sections);
      for (const section of SECTIONS) {
        if (!(section.name in sections)) continue;
        await stage(`write:${section.name}`);
        await section.restore(ctx, sections[section.name]!);
      }
      declareChange(tx, { kind: "restore" });
      await stage("commit");
      return { restored: ctx.restored, skipped: ctx.skipped, warnings: [...warnings, ...ctx.warnings] };
    });
    // Caches outside the declared groups too (provider answers, scheduled investments): this process's.
    this.caches.clearAll();
    return outcome;
  }

  /** Only the uploader may restore a file: another user's export is their data (404, as if absent). */
  private async readUpload(input: RestoreInput): Promise<string> {
    const record = await this.uploads.get(input.fileId);
    if (record.userId !== input.userId) throw new NotFoundError("UPLOAD_NOT_FOUND", `Upload ${input.fileId} not found`, { file_id: input.fileId });
    let bytes: Buffer;
    try {
      bytes = await readFile(this.uploads.pathOf(input.uploadsDir, record));
    } catch {
      throw new NotFoundError("UPLOAD_NOT_FOUND", `Upload ${input.fileId} not found`, { file_id: input.fileId });
    }
    // Restore reads the JSON document as uploaded and never unpacks an archive (so no upload can
    // unpack to more than its own size); a compressed export gets a clear answer.
    if ((bytes[0] === 0x1f && bytes[1] === 0x8b) || (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04)) {
      throw new InputError("BACKUP_NOT_AN_EXPORT", "The file is compressed (gzip or ZIP): restore reads the JSON export itself, uncompressed; "
        + "raise max_file_upload_mb to upload a large one", { compressed: true });
    }
    return bytes.toString("utf8");
  }
}

/** Not JSON, or a document cut short → corrupt; JSON without our marker → not an export; a newer schema → refused. */
export function parseDocument(text: string): Sections {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    if (text.trimStart().startsWith(`{"format":"${EXPORT_FORMAT}"`)) throw corrupt("The export is not valid JSON (truncated or damaged)");
    throw new InputError("BACKUP_NOT_AN_EXPORT", "The file is not a JSON export of this application");
  }
  if (typeof doc !== "object" || doc === null || (doc as Record<string, unknown>).format !== EXPORT_FORMAT) {
    throw new InputError("BACKUP_NOT_AN_EXPORT", "The file is not a JSON export of this application");
  }
  const version = (doc as Record<string, unknown>).schema_version;
  if (typeof version === "number" && version > BACKUP_SCHEMA_VERSION) {
    throw new InputError("BACKUP_SCHEMA_TOO_NEW", `The export has schema_version ${version}; this server reads up to ${BACKUP_SCHEMA_VERSION}`,
      { schema_version: version, supported: BACKUP_SCHEMA_VERSION });
  }
  const head = documentHead.safeParse(doc);
  if (!head.success) throw corrupt("The export's header is damaged", { issues: head.error.issues.map((i) => ({ path: i.path, msg: i.message })) });
  for (const [name, rows] of Object.entries(head.data.sections)) {
    if (head.data.row_counts[name] !== rows.length) {
      throw corrupt(`Section ${name} has ${rows.length} rows, the export recorded ${head.data.row_counts[name] ?? "none"}`, { section: name });
    }
  }
  return head.data.sections as Sections;
}

/** At most this many issues are listed in a refusal; `params.issue_count` counts them all. */
export const MAX_ROW_ISSUES = 100;

/**
 * Every row of a known section against its schema, which holds each column to its write route's
 * rule (sections.ts); unknown sections are ignored with a warning. Every row is checked: any
 * failure refuses the whole restore with 422 BACKUP_ROWS_INVALID, listing the first
 * {@link MAX_ROW_ISSUES} issues (section, row index, column; the row's id in the message) and
 * counting all. Yields to the event loop every few thousand rows: a large export has hundreds of
 * thousands of price rows, and the server keeps answering meanwhile.
 */
async function checkRows(sections: Sections): Promise<string[]> {
  const warnings: string[] = [];
  const known = new Set(SECTIONS.map((s) => s.name));
  for (const name of Object.keys(sections)) {
    if (!known.has(name)) {
      warnings.push(`Section ${name} is not known to this server and was ignored`);
      delete sections[name];
    }
  }
  const issues: Issue[] = [];
  let issueCount = 0;
  let invalidRows = 0;
  for (const section of SECTIONS) {
    const rows = sections[section.name];
    if (!rows) continue;
    for (let i = 0; i < rows.length; i++) {
      const parsed = section.row.safeParse(rows[i]);
      if (parsed.success) rows[i] = parsed.data;
      else {
        invalidRows++;
        issueCount += parsed.error.issues.length;
        for (const issue of parsed.error.issues) {
          if (issues.length < MAX_ROW_ISSUES) issues.push(rowIssue(section.name, i, rows[i], issue));
        }
      }
      if (i % ROWS_PER_YIELD === ROWS_PER_YIELD - 1) await yieldToEventLoop();
    }
  }
  if (issueCount > 0) {
    throw new ValidationError(issues, `${invalidRows} row(s) of the export break the input rules; nothing was restored`, "BACKUP_ROWS_INVALID",
      { issue_count: issueCount, invalid_row_count: invalidRows, shown: issues.length });
  }
  return warnings;
}

/** One refused value: `loc` is `["file", "sections", <section>, <row index>, <column>]`; a limit is `out_of_range`, as in a transaction batch. */
function rowIssue(section: string, index: number, row: unknown, issue: z.core.$ZodIssue): Issue {
  const rowId = typeof row === "object" && row !== null && typeof (row as Record<string, unknown>).id === "number" ? (row as Record<string, unknown>).id : null;
  const outOfRange = isLimitMessage(issue.message) || issue.message === COMPUTED_MESSAGE;
  return {
    loc: ["file", "sections", section, index, ...issue.path.map((p) => (typeof p === "number" ? p : String(p)))],
    msg: rowId === null ? issue.message : `${issue.message} (row id ${rowId})`,
    type: outOfRange ? "out_of_range" : issue.code,
  };
}

/**
 * Ids a row refers to must be in the document (optional references may point outside it), and no
 * row repeats its table's unique key (else the write would fail half-way on the database's key).
 */
function checkReferences(sections: Sections): void {
  const ids = new Map<string, Set<number>>();
  const idsOf = (name: string) => {
    let set = ids.get(name);
    if (!set) ids.set(name, (set = new Set((sections[name] ?? []).map((r) => r.id as number))));
    return set;
  };
  for (const section of SECTIONS) {
    const rows = sections[section.name] ?? [];
    if (rows.length && "id" in rows[0]! && idsOf(section.name).size !== rows.length) {
      throw corrupt(`Section ${section.name} repeats an id`, { section: section.name });
    }
  }
  for (const section of SECTIONS) {
    if (!section.unique) continue;
    const seen = new Set<string>();
    const rows = sections[section.name] ?? [];
    for (let i = 0; i < rows.length; i++) {
      const key = section.unique.map((c) => String(rows[i]![c])).join(" ");
      if (seen.has(key)) {
        throw corrupt(`Row ${i} of ${section.name} repeats the ${section.unique.join(", ")} of an earlier row (${key})`,
          { section: section.name, index: i, fields: [...section.unique] });
      }
      seen.add(key);
    }
  }
  for (const section of SECTIONS) {
    for (const [column, ref] of Object.entries(section.refs ?? {})) {
      if (ref.optional) continue;
      const target = idsOf(ref.section);
      const rows = sections[section.name] ?? [];
      const bad = rows.findIndex((r) => r[column] !== null && r[column] !== undefined && !target.has(r[column]));
      if (bad >= 0) {
        throw corrupt(`Row ${bad} of ${section.name} refers to ${ref.section} ${rows[bad]![column]}, which is not in the export`,
          { section: section.name, index: bad, field: column });
      }
    }
  }
}
