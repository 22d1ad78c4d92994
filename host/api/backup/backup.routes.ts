import { Elysia } from "elysia";
import { randomUUID } from "node:crypto";
import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import pkg from "../../../package.json" with { type: "json" };
import { resolveExportPlan } from "../../../core/backup/export-plan.ts";
import { today } from "../../../core/dates/calendar.ts";
import { streamJsonExport } from "../../../core/backup/json-export.ts";
import { BackupRestoreService } from "../../../core/backup/restore.service.ts";
import { assetSeries, pairSeries, type SeriesSpec, seriesFileName, streamSeries } from "../../../core/backup/series-export.ts";
import { ConflictError, NotAllowedError } from "../../../core/errors/domain-error.ts";
import { uploadsDir } from "../../../core/uploads/paths.ts";
import { databaseFile, databaseTarget } from "../../db/data-source.ts";
import { openSnapshot, type OpenSnapshot, snapshotDatabase } from "../../db/snapshot.ts";
import type { HttpDeps } from "../../http/deps.ts";
import { ErrorBody, errorResponses } from "../../http/errors.ts";
import { STREAMED_BODY_HEADER } from "../../http/gzip.ts";
import type { SessionPlugin } from "../../http/session.ts";
import { contentDisposition } from "../uploads/uploads.routes.ts";
import {
  AssetParams, ExportBody, FormatList, FORMATS, PairParams, RestoreBody, RestoreResponse, SeriesQuery, StatusResponse,
} from "./backup.schema.ts";

const CONTENT_TYPES = { csv: "text/csv; charset=utf-8", json: "application/json" } as const;
const binary = { schema: { type: "string", format: "binary" } };
const field = (type: unknown, description: string, extra: Record<string, unknown> = {}) => ({ type, description, ...extra });
/** OpenAPI of the streamed downloads (their bodies are built by hand, so no response schema validates them). */
const seriesDownload: Record<string, any> = {
  200: {
    description: "The series, streamed: CSV (default) or the JSON envelope",
    content: {
      "text/csv": binary,
      "application/json": { schema: { type: "object", required: ["scope", "entity", "exported_at", "columns", "rows", "row_count"],
        properties: {
          scope: field("string", "What the file holds: `prices`, `events` or `fx_rates` (the file name's prefix)."),
          entity: field("string", "The asset's name as a slug, or the pair (`eur-usd`); the file name's middle part."),
          exported_at: field("string", "When the export was read (UTC ISO timestamp)."),
          columns: field("array", "The column names, in the order of the CSV form.", { items: { type: "string" } }),
          rows: field("array", "One object per stored row, keyed by column; decimals are the exact stored strings, absent values null.",
            { items: { type: "object", additionalProperties: { type: ["string", "integer", "null"] } } }),
          row_count: field("integer", "How many rows were sent (written last, so the envelope can be streamed)."),
          asset_id: field("integer", "The asset of a price or event series."),
          base: field("string", "The pair's stored base currency (alphabetically first)."),
          quote: field("string", "The pair's stored quote currency."),
          inverted: field("boolean", "True when the path named the pair the other way round; the rows stay in the stored orientation (1 base = rate quote)."),
        } } },
    },
  },
};
const exportDownload: Record<string, any> = {
  200: {
    description: "The export, streamed as an attachment: the JSON document (docs/backup.md) or the SQLite database file",
    content: {
      "application/json": {
        schema: { type: "object", required: ["format", "schema_version", "app_version", "exported_at", "sections", "row_counts"],
          properties: {
            format: field("string", "Marks the file as an export of this application.", { enum: ["portfolio-tracker-export"] }),
            schema_version: field("integer", "Version of the document's layout; a restore refuses a newer one."),
            app_version: field("string", "Version of the server that wrote the export."),
            exported_at: field("string", "When the export was read (UTC ISO timestamp)."),
            scope: field("array", "The scopes asked for.", { items: { type: "string" } }),
            include_price_history: field("boolean", "Whether price rows were included."),
            broker_ids: field(["array", "null"], "The brokers asked for; null for every broker the caller can read.", { items: { type: "integer" } }),
            sections: field("object", "Stored rows per table (docs/backup.md lists the sections), in restore order.",
              { additionalProperties: { type: "array", items: { type: "object" } } }),
            row_counts: field("object", "Rows per section, written last: a file cut short is told apart from a short one.",
              { additionalProperties: { type: "integer" } }),
          } },
        example: {
          format: "portfolio-tracker-export", schema_version: 1, app_version: "0.1.0", exported_at: "2026-11-25T19:00:00.000Z",
          scope: ["all"], include_price_history: false, broker_ids: null,
          sections: { brokers: [{ id: 1, name: "Degiro", description: null, portal_url: null, icon_url: null, default_import_plugin: null,
            allow_cash_overdraft: 0, allow_asset_shorting: 0, is_active: 1, opened_at: "2024-01-02", created_at: "2024-01-02 10:00:00",
            updated_at: "2024-01-02 10:00:00" }], broker_access: [{ broker_id: 1, role: "OWNER", share_percentage: "1.000000" }] },
          row_counts: { brokers: 1, broker_access: 1 },
        },
      },
      "application/vnd.sqlite3": binary,
    },
  },
};

/**
 * A streamed download: chunks are pulled one at a time (so memory stays flat), `done` runs once
 * when the body ended, failed or the client went away. Marked as a stream, so the gzip wrapper
 * compresses it as one instead of buffering it (and Elysia passes the bytes through untouched).
 */
export function streamedDownload(chunks: AsyncGenerator<string | Uint8Array>, headers: Record<string, string>, done: () => void): Response {
  const encoder = new TextEncoder();
  let finished = false;
  let sinceCollect = 0;
  const finish = () => { if (!finished) { finished = true; done(); } };
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done) {
          finish();
          controller.close();
        } else {
          const bytes = typeof next.value === "string" ? encoder.encode(next.value) : next.value;
          controller.enqueue(bytes);
          // A long export turns over many times its size in short-lived strings and rows; collecting
          // every few MB keeps the process flat instead of letting the heap grow to the GC's next step.
          sinceCollect += bytes.byteLength;
          if (sinceCollect >= COLLECT_EVERY_BYTES) {
            sinceCollect = 0;
            Bun.gc(false);
          }
        }
      } catch (error) {
        finish();
        controller.error(error);
      }
    },
    async cancel() {
      await chunks.return(undefined);
      finish();
    },
  });
  return new Response(stream, { headers: { ...headers, [STREAMED_BODY_HEADER]: "1", "cache-control": "no-store" } });
}

const COLLECT_EVERY_BYTES = 2 * 1024 * 1024;


export function backupRoutes(deps: HttpDeps, session: SessionPlugin) {
  const restores = deps.container.resolve(BackupRestoreService);
  const dbFile = databaseFile(deps.config.dataDir);
  const dbTarget = databaseTarget(deps.config.dataDir);
  removeStaleSnapshots(deps.config.dataDir);
  const lastExport = new Map<number, Date>();
  const lastRestore = new Map<number, Date>();

  /** Opens a snapshot, builds the spec on it (which may refuse), and streams; the snapshot closes with the stream. */
  const series = async (build: (snap: OpenSnapshot) => SeriesSpec | Promise<SeriesSpec>, format: "csv" | "json") => {
    const snap = await openSnapshot(dbTarget);
    try {
      const spec = await build(snap);
      const exportedAt = new Date();
      return streamedDownload(streamSeries(snap, spec, format, exportedAt), {
        "content-type": CONTENT_TYPES[format],
        "content-disposition": contentDisposition("attachment", seriesFileName(spec, format, exportedAt.toISOString().slice(0, 10))),
      }, () => void snap.close());
    } catch (error) {
      await snap.close();
      throw error;
    }
  };

  return new Elysia({ prefix: "/backup", tags: ["backup"] })
    .use(session)
    .get("/asset/:asset_id/prices", ({ params, query }) => series((s) => assetSeries(s, "prices", params.asset_id), query.format), {
      auth: true,
      params: AssetParams,
      query: SeriesQuery,
      detail: { summary: "An asset's price history (any signed-in user: assets are shared), CSV or JSON envelope, streamed", responses: seriesDownload },
    })
    .get("/asset/:asset_id/events", ({ params, query }) => series((s) => assetSeries(s, "events", params.asset_id), query.format), {
      auth: true,
      params: AssetParams,
      query: SeriesQuery,
      detail: { summary: "An asset's events, manual and provider (source MANUAL|PROVIDER), CSV or JSON envelope, streamed", responses: seriesDownload },
    })
    .get("/fx/:base/:quote/rates", ({ params, query }) => series(() => pairSeries(params.base, params.quote), query.format), {
      auth: true,
      params: PairParams,
      query: SeriesQuery,
      detail: {
        summary: "A pair's stored rates, every provider, in the stored orientation (base < quote); the JSON envelope flags `inverted` "
          + "when the path named the pair the other way round. Streamed",
        responses: seriesDownload,
      },
    })
    .get("/formats", () => ({ items: FORMATS }), {
      auth: true,
      response: { 200: FormatList, ...errorResponses },
      detail: { summary: "Export formats: json for everybody, sqlite for administrators" },
    })
    .get("/status", ({ user }) => ({
      status: "ready" as const,
      formats: FORMATS,
      last_export_at: lastExport.get(user.id)?.toISOString() ?? null,
      last_restore_at: lastRestore.get(user.id)?.toISOString() ?? null,
    }), {
      auth: true,
      response: { 200: StatusResponse, ...errorResponses },
      detail: { summary: "Backup availability and the caller's last export and restore through this server process" },
    })
    .post("/export", async ({ body, user }) => {
      const exportedAt = new Date();
      if (body.format === "sqlite") {
        if (!user.isSuperuser) throw new NotAllowedError("ADMIN_REQUIRED", "Admin access required");
        if (dbTarget.kind === "postgres") {
          throw new ConflictError("EXPORT_FORMAT_UNAVAILABLE", "The sqlite export copies the SQLite database; this server runs on PostgreSQL (back it up with pg_dump, docs/deploy.md)");
        }
        const temp = join(deps.config.dataDir, `.backup-${randomUUID()}.sqlite`);
        await snapshotDatabase(dbFile, temp);
        const file = Bun.file(temp);
        lastExport.set(user.id, exportedAt);
        deps.audit.record("backup.export.sqlite", user, { bytes: file.size });
        return streamedDownload(fileChunks(file), {
          // No content-length: the body is a marked stream, so the gzip wrapper streams it instead of buffering the database.
          "content-type": "application/vnd.sqlite3",
          "content-disposition": contentDisposition("attachment", `portfolio_${today()}.sqlite`),
        }, () => rmSync(temp, { force: true }));
      }
      const snap = await openSnapshot(dbTarget);
      try {
        const request = { brokerIds: body.broker_ids ?? null, includePriceHistory: body.include_price_history, scope: body.scope, userId: user.id };
        const plan = await resolveExportPlan(snap, request);
        lastExport.set(user.id, exportedAt);
        return streamedDownload(streamJsonExport(snap, plan, { appVersion: pkg.version, exportedAt, request }), {
          "content-type": CONTENT_TYPES.json,
          "content-disposition": contentDisposition("attachment", `portfolio-export_${today()}.json`),
        }, () => void snap.close());
      } catch (error) {
        await snap.close();
        throw error;
      }
    }, {
      auth: true,
      body: ExportBody,
      detail: {
        summary: "Download an export: json (any user; everything the caller owns or can read in scope, streamed) or sqlite "
          + "(administrators; a consistent snapshot of the whole database while writes continue)",
        responses: exportDownload,
      },
    })
    .post("/restore", async ({ body, user }) => {
      const started = performance.now();
      const outcome = await restores.restore({
        fileId: body.file_id,
        isSuperuser: user.isSuperuser,
        overwrite: body.overwrite_existing,
        uploadsDir: uploadsDir(deps.config.dataDir),
        userId: user.id,
        onStage: restoreStageHook(deps),
      });
      lastRestore.set(user.id, new Date());
      deps.logger.info("backup restored", {
        user_id: user.id, file_id: body.file_id, ms: Math.round(performance.now() - started), restored: outcome.restored, skipped: outcome.skipped,
      });
      return outcome;
    }, {
      auth: true,
      body: RestoreBody,
      response: { 200: RestoreResponse, ...errorResponses, 404: ErrorBody, 409: ErrorBody },
      detail: {
        summary: "Restore a json export uploaded through /uploads (by the caller), all or nothing: ids remapped, assets matched by ISIN, "
          + "ticker or name, brokers recreated with the caller as OWNER; duplicates skipped, or replaced with overwrite_existing",
      },
    });
}

/** A sqlite download the process never finished (it crashed mid-stream) leaves its copy behind; a day later it goes. */
export const STALE_SNAPSHOT_MS = 24 * 3600 * 1000;
function removeStaleSnapshots(dataDir: string): void {
  try {
    for (const name of readdirSync(dataDir)) {
      if (!/^\.backup-[0-9a-f-]+\.sqlite$/.test(name)) continue;
      const path = join(dataDir, name);
      if (Date.now() - statSync(path).mtimeMs > STALE_SNAPSHOT_MS) rmSync(path, { force: true });
    }
  } catch {
    // Best effort: a missing DATA_DIR or a file removed meanwhile is fine.
  }
}

async function* fileChunks(file: Bun.BunFile): AsyncGenerator<Uint8Array> {
  const reader = file.stream().getReader();
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) return;
      // A copy: the file reader may reuse its buffer for the next read while this chunk is still queued.
      yield value.slice();
    }
  } finally {
    reader.releaseLock();
  }
}

/**
 * Logs each restore stage at debug level, with the time the previous one took.
 * `BACKUP_TEST_HOLD_STAGE` (tests only) names a stage at which the restore logs
 * `backup restore held` and waits forever, so a test can kill the process in the middle of the
 * write transaction.
 */
function restoreStageHook(deps: HttpDeps) {
  const hold = process.env.BACKUP_TEST_HOLD_STAGE;
  let previous: { stage: string; at: number } | null = null;
  return async (stage: string) => {
    const now = performance.now();
    if (previous) deps.logger.debug("backup restore stage done", { stage: previous.stage, ms: Math.round(now - previous.at) });
    previous = { stage, at: now };
    if (hold && stage === hold) {
      deps.logger.info("backup restore held", { stage });
      await new Promise<never>(() => {});
    }
  };
}
