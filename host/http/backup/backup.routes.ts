import { Elysia } from "elysia";
import { randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import pkg from "../../../package.json" with { type: "json" };
import { resolveExportPlan } from "../../../core/backup/export-plan.ts";
import { streamJsonExport } from "../../../core/backup/json-export.ts";
import { BackupRestoreService } from "../../../core/backup/restore.service.ts";
import { assetSeries, pairSeries, type SeriesSpec, seriesFileName, streamSeries } from "../../../core/backup/series-export.ts";
import { NotAllowedError } from "../../../core/errors/domain-error.ts";
import { uploadsDir } from "../../../core/uploads/paths.ts";
import { databaseFile } from "../../db/data-source.ts";
import { openSnapshot, type OpenSnapshot, snapshotDatabase } from "../../db/snapshot.ts";
import type { HttpDeps } from "../deps.ts";
import { errorResponses } from "../errors.ts";
import type { SessionPlugin } from "../session.ts";
import { contentDisposition } from "../uploads/uploads.routes.ts";
import {
  AssetParams, ExportBody, FormatList, FORMATS, PairParams, RestoreBody, RestoreResponse, SeriesQuery, StatusResponse,
} from "./backup.schema.ts";

const CONTENT_TYPES = { csv: "text/csv; charset=utf-8", json: "application/json" } as const;
const download = { 200: { description: "The file, streamed", content: { "*/*": { schema: { type: "string", format: "binary" } } } } } as const;

/**
 * A streamed download: chunks are pulled one at a time (so memory stays flat), `done` runs once
 * when the body ended, failed or the client went away. Marked chunked, so the gzip wrapper
 * compresses it as a stream instead of buffering it.
 */
export function streamedDownload(chunks: AsyncGenerator<string | Uint8Array>, headers: Record<string, string>, done: () => void): Response {
  const encoder = new TextEncoder();
  let finished = false;
  const finish = () => { if (!finished) { finished = true; done(); } };
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done) {
          finish();
          controller.close();
        } else controller.enqueue(typeof next.value === "string" ? encoder.encode(next.value) : next.value);
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
  return new Response(stream, { headers: { ...headers, "transfer-encoding": "chunked", "cache-control": "no-store" } });
}

const today = () => new Date().toISOString().slice(0, 10);

export function backupRoutes(deps: HttpDeps, session: SessionPlugin) {
  const restores = deps.container.resolve(BackupRestoreService);
  const dbFile = databaseFile(deps.config.dataDir);
  const lastExport = new Map<number, Date>();
  const lastRestore = new Map<number, Date>();

  /** Opens a snapshot, builds the spec on it (which may refuse), and streams; the snapshot closes with the stream. */
  const series = (build: (snap: OpenSnapshot) => SeriesSpec, format: "csv" | "json") => {
    const snap = openSnapshot(dbFile);
    try {
      const spec = build(snap);
      const exportedAt = new Date();
      return streamedDownload(streamSeries(snap, spec, format, exportedAt), {
        "content-type": CONTENT_TYPES[format],
        "content-disposition": contentDisposition("attachment", seriesFileName(spec, format, exportedAt.toISOString().slice(0, 10))),
      }, () => snap.close());
    } catch (error) {
      snap.close();
      throw error;
    }
  };

  return new Elysia({ prefix: "/backup", tags: ["backup"] })
    .use(session)
    .get("/asset/:asset_id/prices", ({ params, query }) => series((s) => assetSeries(s, "prices", params.asset_id), query.format), {
      auth: true,
      params: AssetParams,
      query: SeriesQuery,
      detail: { summary: "An asset's price history (any signed-in user: assets are shared), CSV or JSON envelope, streamed", responses: download },
    })
    .get("/asset/:asset_id/events", ({ params, query }) => series((s) => assetSeries(s, "events", params.asset_id), query.format), {
      auth: true,
      params: AssetParams,
      query: SeriesQuery,
      detail: { summary: "An asset's events, manual and provider (source MANUAL|PROVIDER), CSV or JSON envelope, streamed", responses: download },
    })
    .get("/fx/:base/:quote/rates", ({ params, query }) => series(() => pairSeries(params.base, params.quote), query.format), {
      auth: true,
      params: PairParams,
      query: SeriesQuery,
      detail: {
        summary: "A pair's stored rates, every provider, in the stored orientation (base < quote); the JSON envelope flags `inverted` "
          + "when the path named the pair the other way round. Streamed",
        responses: download,
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
        const temp = join(deps.config.dataDir, `.backup-${randomUUID()}.sqlite`);
        await snapshotDatabase(dbFile, temp);
        const file = Bun.file(temp);
        lastExport.set(user.id, exportedAt);
        deps.audit.record("backup.export.sqlite", user, { bytes: file.size });
        return streamedDownload(fileChunks(file), {
          "content-type": "application/vnd.sqlite3",
          "content-length": String(file.size),
          "content-disposition": contentDisposition("attachment", `portfolio_${today()}.sqlite`),
        }, () => void rm(temp, { force: true }));
      }
      const snap = openSnapshot(dbFile);
      try {
        const request = { brokerIds: body.broker_ids ?? null, includePriceHistory: body.include_price_history, scope: body.scope, userId: user.id };
        const plan = resolveExportPlan(snap, request);
        lastExport.set(user.id, exportedAt);
        return streamedDownload(streamJsonExport(snap, plan, { appVersion: pkg.version, exportedAt, request }), {
          "content-type": CONTENT_TYPES.json,
          "content-disposition": contentDisposition("attachment", `portfolio-export_${today()}.json`),
        }, () => snap.close());
      } catch (error) {
        snap.close();
        throw error;
      }
    }, {
      auth: true,
      body: ExportBody,
      detail: {
        summary: "Download an export: json (any user; everything the caller owns or can read in scope, streamed) or sqlite "
          + "(administrators; a consistent snapshot of the whole database while writes continue)",
        responses: download,
      },
    })
    .post("/restore", async ({ body, user }) => {
      const outcome = await restores.restore({
        fileId: body.file_id,
        overwrite: body.overwrite_existing,
        uploadsDir: uploadsDir(deps.config.dataDir),
        userId: user.id,
        onStage: restoreStageHook(deps),
      });
      lastRestore.set(user.id, new Date());
      deps.logger.info("backup restored", { user_id: user.id, file_id: body.file_id, restored: outcome.restored, skipped: outcome.skipped });
      return outcome;
    }, {
      auth: true,
      body: RestoreBody,
      response: { 200: RestoreResponse, ...errorResponses },
      detail: {
        summary: "Restore a json export uploaded through /uploads (by the caller), all or nothing: ids remapped, assets matched by ISIN, "
          + "ticker or name, brokers recreated with the caller as OWNER; duplicates skipped, or replaced with overwrite_existing",
      },
    });
}

async function* fileChunks(file: Bun.BunFile): AsyncGenerator<Uint8Array> {
  const reader = file.stream().getReader();
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/**
 * Logs each restore stage at debug level. `BACKUP_TEST_HOLD_STAGE` (tests only) names a stage at
 * which the restore logs `backup restore held` and waits forever, so a test can kill the process
 * in the middle of the write transaction.
 */
function restoreStageHook(deps: HttpDeps) {
  const hold = process.env.BACKUP_TEST_HOLD_STAGE;
  return async (stage: string) => {
    deps.logger.debug("backup restore stage", { stage });
    if (hold && stage === hold) {
      deps.logger.info("backup restore held", { stage });
      await new Promise<never>(() => {});
    }
  };
}
