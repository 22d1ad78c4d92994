import { Elysia } from "elysia";
import type { z } from "zod";
import { yieldToEventLoop } from "../../../../core/async/yield-to-event-loop.ts";
import { BrimCommitService, type CommitOutcome } from "../../../../core/brim/brim-commit.service.ts";
import { brimDir, BrimFileService } from "../../../../core/brim/brim-file.service.ts";
import { BrimParseService } from "../../../../core/brim/brim-parse.service.ts";
import { IMPORT_PLUGINS, type ImportPluginDirectory } from "../../../../core/brim/import-plugins.ts";
import { InputError, NotFoundError, ValidationError } from "../../../../core/errors/domain-error.ts";
import { UploadService } from "../../../../core/uploads/upload.service.ts";
import type { HttpDeps } from "../../../http/deps.ts";
import { ErrorBody, errorResponses } from "../../../http/errors.ts";
import { gzippedJson, STREAMED_BODY_HEADER } from "../../../http/gzip.ts";
import type { SessionPlugin } from "../../../http/session.ts";
import { contentDisposition, readUploadBody, RefusedBody } from "../../uploads/uploads.routes.ts";
import { JSON_BODY_DOC, jsonBodyReadBy, validatedInWorker, WorkerJsonBody } from "../../../http/worker-json-body.ts";
import { isPdf, MAX_UPLOAD_FILES, packPdfs } from "./pdf-batch.ts";
import { runCalculation } from "../../run-calculation.ts";
import { bulkLimits, type Limit, limitExceeded, listLength } from "../../../http/bulk-limits.ts";
import { commitAsset, CommitBody, commitDuplicate, commitIssue, CommitResult, commitRow, toCommitDecisions, toCommitResult } from "./brim-commit.schema.ts";
import type { DuplicatesBodyRead } from "./brim-parse.task.ts";
import {
  CandidatesAnswer, CandidatesBody, MAX_BROKER_FILTER, MAX_CANDIDATE_HINTS, MAX_DUPLICATE_ROWS, DeleteAnswer, DownloadQuery, DuplicateReport, DuplicatesBody, duplicatesRequest, FileInfo, FileList, FileParams,
  ListQuery, ParseBody, ParseResult, PdfTextAnswer, PdfTextQuery, PluginList, PreviewAnswer, PreviewQuery, toFileInfo, UploadBody, UploadQuery,
} from "./brim.schema.ts";

/** Downloads never run as a page of our origin and are never sniffed into something else. */
const SAFE_HEADERS = {
  "cache-control": "private, no-store",
  "content-security-policy": "default-src 'none'; sandbox",
  "x-content-type-options": "nosniff",
} as const;

/** Types served as they are; anything else goes out as an opaque octet stream. */
const SERVABLE = new Set(["text/csv", "text/plain", "application/json", "application/zip", "application/pdf",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"]);

/** Answers listing more entries than this (rows, duplicates, skips, issues) are written out in slices (see {@link sliced}). */
const SLICED_ROWS = 2000;
/** Entries mapped and serialised per turn: 250 rows are a few ms of the request thread. */
const SLICE_ROWS = 250;

type ListKey = "assets" | "duplicates" | "issues" | "rows" | "skipped";
interface AnswerList { key: ListKey; map: (item: unknown) => unknown; of: (o: CommitOutcome) => readonly unknown[] }
const list = <T>(key: ListKey, of: (o: CommitOutcome) => readonly T[], map: (item: T) => unknown): AnswerList =>
  ({ key, of, map: map as (item: unknown) => unknown });

/** The lists of a commit answer, in the schema's order, each with its mapping to the answer's shape. */
const LISTS: readonly AnswerList[] = [
  list("rows", (o) => o.rows, commitRow),
  list("assets", (o) => o.assets, commitAsset),
  list("skipped", (o) => o.skipped, (s) => s),
  list("duplicates", (o) => o.duplicates, commitDuplicate),
  list("issues", (o) => o.issues, commitIssue),
];

const listed = (o: CommitOutcome) => LISTS.reduce((n, l) => n + l.of(o).length, 0);

/**
 * A large commit answer (50,000 rows are ~15 MB of JSON; a re-import of them lists 50,000
 * duplicates and 50,000 skips) as a stream of slices of each list, each mapped and serialised when
 * the connection asks for more, after a turn of the event loop, and compressed as it goes: made
 * whole, its mapping, serialisation, validation and gzip held the request loop ~0.6 s, and slices
 * pulled back to back still held it tens of ms. The shape is the route's schema.
 */
function sliced(outcome: CommitOutcome): Response {
  const head = toCommitResult({ ...outcome, rows: [], assets: [], skipped: [], duplicates: [], issues: [] });
  for (const { key } of LISTS) delete (head as Partial<typeof head>)[key];
  // The pieces in order: the head, then each list as its opening, its slices and its close.
  const pieces: (() => string)[] = [() => JSON.stringify(head).slice(0, -1)];
  for (const { key, map, of } of LISTS) {
    const items = of(outcome);
    pieces.push(() => `,${JSON.stringify(key)}:[`);
    for (let i = 0; i < items.length; i += SLICE_ROWS) {
      const from = i;
      pieces.push(() => `${from === 0 ? "" : ","}${items.slice(from, from + SLICE_ROWS).map((x) => JSON.stringify(map(x))).join(",")}`);
    }
    pieces.push(() => "]");
  }
  pieces.push(() => "}");
  const encoder = new TextEncoder();
  let next = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      await yieldToEventLoop();
      controller.enqueue(encoder.encode(pieces[next++]!()));
      if (next === pieces.length) controller.close();
    },
  });
  return new Response(stream, { headers: { "content-type": "application/json", "cache-control": "private, no-store", [STREAMED_BODY_HEADER]: "1" } });
}

/** A worker's reading of a JSON body: its failure rethrown (a 500), else what it read (never null: that was a 400 in parse). */
function workerRead<T>(body: WorkerJsonBody<T | null>): T {
  if (body.read === undefined) throw body.error;
  return body.read!;
}

const CANDIDATE_HINTS: Limit = {
  max: MAX_CANDIDATE_HINTS, unit: "hints", count: ({ body }) => listLength(body?.items), hint: "Send the hints in several requests",
};
const BROKER_FILTER: Limit = { max: MAX_BROKER_FILTER, unit: "broker ids", count: ({ query }) => listLength(query?.broker_ids) };
/** Counted here on a body Elysia parsed (a form); a JSON body's lists are counted by the worker that reads it. */
const DUPLICATE_ROWS: Limit[] = (["transactions", "asset_mappings"] as const).map((key) => ({
  max: MAX_DUPLICATE_ROWS, unit: key.replace("_", " "), count: ({ body }) => listLength(body?.[key]), hint: "Check the rows in several requests",
}));
const UPLOAD_FILES: Limit = {
  max: MAX_UPLOAD_FILES, unit: "files", count: ({ body }) => listLength(body?.file), hint: "Upload the documents in several batches",
};

/**
 * The bytes and name to store: one file as it is; several (PDFs only) packed as one ZIP named after
 * the first, which the parser reads as it reads an uploaded ZIP of PDFs.
 */
async function uploadedBytes(file: File | File[]): Promise<{ bytes: Uint8Array; name: string }> {
  if (!Array.isArray(file)) return { bytes: new Uint8Array(await file.arrayBuffer()), name: file.name };
  const parts = await Promise.all(file.map(async (f) => ({ name: f.name, bytes: new Uint8Array(await f.arrayBuffer()) })));
  if (parts.length === 1) return parts[0]!;
  const other = parts.find((p) => !isPdf(p.bytes));
  if (other) {
    const message = `Only PDFs can be uploaded together; ${other.name} is not a PDF. Upload it on its own`;
    throw new ValidationError([{ loc: ["body", "file", parts.indexOf(other)], msg: message, type: "not_pdf" }], message, "ONLY_PDFS_TOGETHER", { filename: other.name });
  }
  const first = parts[0]!.name.replace(/\.pdf$/i, "");
  return { bytes: packPdfs(parts), name: `${first} and ${parts.length - 1} more.zip` };
}

const limited = { ...errorResponses, 413: ErrorBody };

const binaryResponse = {
  200: { description: "The file's bytes", content: { "*/*": { schema: { type: "string", format: "binary" } } } },
} as const;

/**
 * Broker report import (BRIM) under /brokers/import (docs/import.md): VIEWER
 * reads, EDITOR uploads, parses and deletes; a file of a broker without an access row is 404.
 */
export function brimRoutes(deps: HttpDeps, session: SessionPlugin) {
  const files = deps.container.resolve(BrimFileService);
  const parser = deps.container.resolve(BrimParseService);
  const committer = deps.container.resolve(BrimCommitService);
  const plugins = deps.container.resolve<ImportPluginDirectory>(IMPORT_PLUGINS);
  const uploads = deps.container.resolve(UploadService);
  const dir = brimDir(deps.config.dataDir);
  const info = (f: Parameters<typeof toFileInfo>[0]) => toFileInfo(f, files.isStale(f));

  return new Elysia({ prefix: "/brokers/import", tags: ["brokers"] })
    .use(session)
    .use(bulkLimits)
    .macro({
      brimUploadBody: {
        parse: ({ request }) => readUploadBody(request, uploads),
        transform: ({ body }) => {
          if (body instanceof RefusedBody) throw body.error;
        },
      },
      multipart: { parse: "multipart/form-data" as unknown as () => void },
      // 50,000 rows are ~5 MB of JSON: parsed and validated in the worker, not on the request thread,
      // and moved there rather than copied (the bytes are not used here afterwards).
      duplicatesBody: {
        parse: jsonBodyReadBy(async (bytes) => (await runCalculation("brimDuplicatesBody", { bytes }, undefined, [bytes.buffer as ArrayBuffer])).result),
      },
    })
    .post("/upload", async ({ body, query, status, user }) => {
      const brokerId = query.broker_id ?? body.broker_id;
      if (brokerId === undefined) throw new InputError("BROKER_ID_REQUIRED", "broker_id is required (query or form field)");
      const upload = await uploadedBytes(body.file);
      const file = await files.upload(dir, {
        brokerId,
        bytes: upload.bytes,
        filename: body.custom_filename?.trim() || upload.name,
        userId: user.id,
      });
      return status(201, info(file));
    }, {
      auth: true,
      brimUploadBody: true,
      multipart: true,
      limits: [UPLOAD_FILES],
      query: UploadQuery,
      body: UploadBody,
      response: { 201: FileInfo, 413: ErrorBody, 415: ErrorBody, ...errorResponses, 400: ErrorBody, 404: ErrorBody },
      detail: {
        summary: "Upload a broker report (EDITOR or OWNER on broker_id); compatible_plugins from detection, best first. "
          + "Several `file` parts must all be PDFs (else 422 ONLY_PDFS_TOGETHER) and are stored as one ZIP of them. "
          + "Over max_file_upload_mb → 413 FILE_TOO_LARGE; executable content → 415 UPLOAD_REFUSED",
      },
    })
    .get("/files", async ({ query, user }) => {
      void files.sweep(dir).catch(() => undefined);
      return { items: (await files.list(user.id, { status: query.status, brokerIds: query.broker_ids })).map(info) };
    }, {
      auth: true,
      limits: [BROKER_FILTER],
      query: ListQuery,
      response: { 200: FileList, ...limited, 404: ErrorBody },
      detail: { summary: "Import files of the brokers the caller can access, newest first (filters: status, broker_ids repeated)" },
    })
    .get("/files/:file_id", async ({ params, user }) => info(await files.get(user.id, params.file_id)), {
      auth: true,
      params: FileParams,
      response: { 200: FileInfo, ...errorResponses },
      detail: { summary: "One import file (VIEWER or better; 404 BRIM_FILE_NOT_FOUND without access)" },
    })
    .get("/files/:file_id/preview", async ({ params, query, user }) => files.preview(dir, user.id, params.file_id, query.sheet_name), {
      auth: true,
      params: FileParams,
      query: PreviewQuery,
      response: { 200: PreviewAnswer, ...errorResponses, 400: ErrorBody },
      detail: { summary: "The first 100 rows as a table (spreadsheets: sheets listed, sheet_name picks one)" },
    })
    .get("/files/:file_id/pdf-text", async ({ params, query, user }) => ({
      file_id: params.file_id,
      anonymised: query.anonymise,
      documents: await files.pdfTexts(dir, user.id, params.file_id, query.anonymise),
    }), {
      auth: true,
      params: FileParams,
      query: PdfTextQuery,
      response: { 200: PdfTextAnswer, ...errorResponses, 400: ErrorBody },
      detail: {
        summary: "The text of a PDF (or of each PDF of a ZIP) as importers read it, anonymised by default, for a bug report "
          + "(EDITOR or OWNER); 400 NOT_A_PDF for any other file",
      },
    })
    .get("/files/:file_id/download", async ({ params, query, user }) => {
      const record = await files.get(user.id, params.file_id);
      const bytes = Bun.file(files.pathOf(dir, record));
      if (!(await bytes.exists())) throw new NotFoundError("BRIM_FILE_NOT_FOUND", `Import file ${record.id} not found`, { file_id: record.id });
      const type = SERVABLE.has(record.contentType) ? record.contentType : "application/octet-stream";
      return new Response(bytes, {
        headers: {
          ...SAFE_HEADERS,
          "content-type": type.startsWith("text/") ? `${type}; charset=utf-8` : type,
          "content-length": String(bytes.size),
          "content-disposition": contentDisposition(query.download === false && type !== "application/octet-stream" ? "inline" : "attachment", record.filename),
        },
      });
    }, {
      auth: true,
      params: FileParams,
      query: DownloadQuery,
      detail: { summary: "The stored bytes (attachment unless download=false); nosniff, sandboxed, safe content type", responses: binaryResponse },
    })
    .get("/files/:file_id/last-parse", async ({ params, request, user }) => {
      const stored = await files.lastParse(dir, user.id, params.file_id);
      return stored === null ? new Response("null", { headers: { "content-type": "application/json" } }) : gzippedJson(stored, request);
    }, {
      auth: true,
      params: FileParams,
      // Documents the body; the stored bytes are sent as they are (a Response is not re-validated).
      response: { 200: ParseResult.nullable(), ...errorResponses },
      detail: { summary: "The last parse result of the file exactly as the parse answered it (gzipped when accepted), or null" },
    })
    .delete("/files/:file_id", async ({ params, user }) => {
      await files.delete(dir, user.id, params.file_id);
      return { success: true, file_id: params.file_id };
    }, {
      auth: true,
      params: FileParams,
      response: { 200: DeleteAnswer, ...errorResponses },
      detail: { summary: "Delete an import file, its bytes and its last parse (EDITOR or OWNER)" },
    })
    .post("/files/:file_id/parse", async ({ body, params, request, user }) => gzippedJson(await parser.parse(dir, {
      userId: user.id, fileId: params.file_id, brokerId: body.broker_id, pluginCode: body.plugin_code, options: body.options,
    }), request), {
      auth: true,
      params: FileParams,
      body: ParseBody,
      response: { 200: ParseResult, ...errorResponses },
      detail: {
        summary: "Parse a file into a preview (EDITOR or OWNER): commit creates with fake asset ids, asset mappings, duplicates, "
          + "warnings, validation issues and field todos. Nothing is written to the ledger. A file the plugin cannot read "
          + "→ 400 PARSE_FAILED and the file's status failed",
      },
    })
    .post("/files/:file_id/commit", async ({ body, params, user }) => {
      const outcome = await committer.commit(dir, {
        userId: user.id, fileId: params.file_id, dryRun: body.dry_run, parseToken: body.parse_token ?? null, decisions: toCommitDecisions(body),
      });
      // A large answer goes out in slices, its lists mapped as they are sent (a Response is not
      // re-validated; its shape is the schema's, by type).
      if (listed(outcome) > SLICED_ROWS) return sliced(outcome) as unknown as z.infer<typeof CommitResult>;
      return toCommitResult(outcome);
    }, {
      auth: true,
      params: FileParams,
      body: CommitBody,
      response: { 200: CommitResult, ...errorResponses, 409: ErrorBody },
      detail: {
        summary: "Import the stored parse into the ledger with the user's decisions (edits, skips, kept duplicates, asset choices), all or "
          + "nothing: new assets and rows in one database transaction, every ledger rule applied, likely duplicates left out unless kept. "
          + "dry_run answers exactly what would be written and writes nothing. EDITOR or OWNER on the file's and the target broker; "
          + "no parse or a parse by another plugin version → 409 PARSE_MISSING / PARSE_STALE; a parse_token of an older parse → 409 PARSE_CHANGED",
      },
    })
    .post("/duplicates", async ({ body, request, user }) => {
      const read = body instanceof WorkerJsonBody ? workerRead(body as WorkerJsonBody<DuplicatesBodyRead>) : duplicatesRequest(body);
      if ("over" in read) throw limitExceeded(read.over.limit, read.over.requested, read.over.unit, "Check the rows in several requests");
      if ("issues" in read) throw new ValidationError(read.issues);
      return gzippedJson(await parser.duplicates(user.id, read.brokerId, read.json), request);
    }, {
      auth: true,
      limits: DUPLICATE_ROWS,
      duplicatesBody: true,
      // Documents the body and checks a body that is not JSON; a JSON body was checked by the worker with this schema.
      body: validatedInWorker(DuplicatesBody),
      // Documents the body; the worker's gzipped JSON is sent as it is (a Response is not re-validated).
      response: { 200: DuplicateReport, ...limited, 404: ErrorBody },
      detail: { summary: "Duplicate detection of edited rows against the broker's ledger (EDITOR or OWNER)", [JSON_BODY_DOC]: DuplicatesBody },
    })
    .post("/asset-candidates", async ({ body, request }) => gzippedJson(await parser.candidates(body.items), request), {
      auth: true,
      limits: [CANDIDATE_HINTS],
      body: CandidatesBody,
      // Documents the body; the worker's gzipped JSON is sent as it is (a Response is not re-validated).
      response: { 200: CandidatesAnswer, ...limited },
      detail: { summary: "Asset candidates per hint: ISIN → exact, ticker → high, name similarity → medium or low" },
    })
    .get("/plugins", () => ({
      items: plugins.list().sort((a, b) => a.detectionPriority - b.detectionPriority || a.code.localeCompare(b.code)).map((p) => ({
        code: p.code, name: p.name, description: p.description, supported_extensions: [...p.supportedExtensions],
        icon_url: p.iconUrl, docs_url: p.docsUrl, plugin_version: p.version, detection_priority: p.detectionPriority,
      })),
    }), {
      auth: true,
      response: { 200: PluginList, ...errorResponses },
      detail: { summary: "The import plugins (codes broker_<name>, fallback broker_generic_csv)" },
    });
}
