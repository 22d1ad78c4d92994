import { createHash, randomUUID } from "node:crypto";
import { mkdir, open, readdir, readFile, rename, stat, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { inject, injectable } from "tsyringe";
import { In } from "typeorm";
import { eventLoopBreather, IMPORT_SLICE_MS } from "../async/yield-to-event-loop.ts";
import { BrokerAccessService } from "../brokers/broker-access.service.ts";
import type { BrokerRole } from "../brokers/broker-access.entity.ts";
import { Database } from "../db/database.ts";
import { InputError, NotFoundError, PayloadTooLargeError, UnsupportedMediaError } from "../errors/domain-error.ts";
import { sniffUpload } from "../uploads/mime-sniff.ts";
import { displayName, tooLarge, UploadService } from "../uploads/upload.service.ts";
import { describeFile, HEAD_BYTES } from "../../sdk/import/meta.ts";
import { looksLikeZip } from "../../sdk/import/zip.ts";
import type { ImportFileMeta } from "../../sdk/index.ts";
import { BrimFile, type BrimFileStatus } from "./brim-file.entity.ts";
import { compatibleCodes, detectInTurns, type DetectVerdict } from "./detect.calc.ts";
import { IMPORT_PLUGINS, type ImportPluginDirectory, type PdfDocumentText, pdfTextPath } from "./import-plugins.ts";
import type { FilePreview } from "./preview.calc.ts";
import type { UnpackRefusal } from "./unpack-check.calc.ts";


/** Folder of BRIM files under DATA_DIR. */
export function brimDir(dataDir: string): string {
  return join(dataDir, "brim");
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Uploads up to this size are sniffed and hashed on the request thread (a few ms); larger ones in the worker pool. */
const INLINE_INSPECT_BYTES = 1024 * 1024;
/** Prefix of an upload's bytes until its row committed (not a file id: `sweep` leaves them). */
const PENDING_PREFIX = ".pending-";

/** The message of a file refused for an unpacking limit (upload, preview, parse). */
export function beyondLimits(refusal: UnpackRefusal): string {
  return `The file is beyond the import's limits: ${refusal.message}`;
}

export function brimFileNotFound(fileId: string): NotFoundError {
  return new NotFoundError("BRIM_FILE_NOT_FOUND", `Import file ${fileId} not found`, { file_id: fileId });
}

/**
 * BRIM files (docs/import.md): stored under
 * DATA_DIR/brim/<uuid>, visible through the broker's access rows only (a file of a broker without
 * a row is 404), size capped by `max_file_upload_mb`, executable content refused (415).
 */
@injectable()
export class BrimFileService {
  constructor(
    @inject(Database) private readonly db: Database,
    @inject(BrokerAccessService) private readonly access: BrokerAccessService,
    @inject(UploadService) private readonly uploads: UploadService,
    @inject(IMPORT_PLUGINS) private readonly plugins: ImportPluginDirectory,
  ) {}

  /** Detection verdicts of every import plugin on `bytes` named `filename`, best first. */
  detect(bytes: Uint8Array, filename: string): Promise<DetectVerdict[]> {
    return this.detectMeta(describeFile(bytes, filename));
  }

  /**
   * Detection verdicts on a file's meta (which holds only its head), best first. The importers'
   * `accepts()` run on the request thread with a turn for other requests every 5 ms of work
   * (docs/import.md "Performance").
   */
  detectMeta(meta: ImportFileMeta): Promise<DetectVerdict[]> {
    return detectInTurns(meta, this.plugins.list().map((p) => ({
      code: p.code, detectionPriority: p.detectionPriority, instance: p.instance, supportedExtensions: p.supportedExtensions,
    })), eventLoopBreather(IMPORT_SLICE_MS));
  }

  async upload(dir: string, input: { brokerId: number; bytes: Uint8Array; filename: string; userId: number }): Promise<BrimFile> {
    await this.access.require(input.userId, input.brokerId, "EDITOR");
    const { maxBytes, maxMb } = await this.uploads.limit();
    if (input.bytes.byteLength > maxBytes) throw tooLarge(maxMb, maxBytes);
    if (input.bytes.byteLength === 0) throw new InputError("EMPTY_FILE", "The uploaded file is empty");
    const filename = displayName(input.filename);

    const id = randomUUID();
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const path = join(dir, id);
    // Written under a name `sweep` ignores and renamed once the row committed: a sweep running
    // meanwhile (a listing here, or in another process on the same DATA_DIR) would otherwise take
    // the bytes of a row not committed yet for an orphan (docs/deploy.md).
    const pending = join(dir, `${PENDING_PREFIX}${id}`);
    await writeFile(pending, input.bytes, { flag: "wx", mode: 0o600 });
    let row: BrimFile | undefined;
    try {
      // Sniffing decodes the whole file: a large one is sniffed and hashed off the request thread, and
      // so is every ZIP (an XLSX), which is unpacked there to check its limits. A refused file is removed.
      const { sha256, sniffed, unpack } = input.bytes.byteLength <= INLINE_INSPECT_BYTES && !looksLikeZip(input.bytes)
        ? { sha256: createHash("sha256").update(input.bytes).digest("hex"), sniffed: sniffUpload(input.bytes, filename), unpack: null }
        : await this.plugins.inspect(pending, filename);
      if (sniffed.blocked) throw new UnsupportedMediaError("UPLOAD_REFUSED", `File type not allowed: ${sniffed.reason}`, { reason: sniffed.reason });
      if (unpack) throw new PayloadTooLargeError("FILE_TOO_LARGE", beyondLimits(unpack), { limit: unpack.limit, max: unpack.max });
      const compatible = compatibleCodes(await this.detectMeta(await this.withSheets(describeFile(input.bytes, filename), pending)));
      row = await this.db.write(async (tx) => {
        await tx.insert(BrimFile, {
          id, brokerId: input.brokerId, uploadedByUserId: input.userId, filename, contentType: sniffed.contentType,
          sizeBytes: input.bytes.byteLength, sha256, status: "uploaded",
          compatiblePlugins: JSON.stringify(compatible), errorMessage: null, parsedPluginCode: null, parsedPluginVersion: null,
          uploadedAt: new Date(), processedAt: null,
        });
        return tx.findOneByOrFail(BrimFile, { id });
      });
      await rename(pending, path);
      // The PDF text detection read (docs/import.md "Text read once") follows its file.
      await rename(pdfTextPath(pending), pdfTextPath(path)).catch(() => undefined);
      return row;
    } catch (error) {
      await Promise.all([pending, pdfTextPath(pending)].map((p) => unlink(p).catch(() => undefined)));
      if (row) await this.db.write((tx) => tx.delete(BrimFile, { id })).catch(() => undefined);
      throw error;
    }
  }

  /** Files of brokers the caller can see (optionally only `brokerIds` among them, and one `status`), newest first. */
  async list(userId: number, filter: { brokerIds?: number[]; status?: BrimFileStatus }): Promise<BrimFile[]> {
    const visible = [...(await this.access.roles(userId, "VIEWER")).keys()];
    const ids = filter.brokerIds?.length ? visible.filter((id) => filter.brokerIds!.includes(id)) : visible;
    if (ids.length === 0) return [];
    return this.db.reads.find(BrimFile, {
      where: { brokerId: In(ids), ...(filter.status ? { status: filter.status } : {}) },
      order: { uploadedAt: "DESC", id: "ASC" },
    });
  }

  /** The file when the caller's role on its broker is at least `min` (404 without a row, 403 below `min`). */
  async get(userId: number, fileId: string, min: BrokerRole = "VIEWER"): Promise<BrimFile> {
    if (!UUID.test(fileId)) throw brimFileNotFound(fileId);
    const file = await this.db.reads.findOneBy(BrimFile, { id: fileId });
    if (!file) throw brimFileNotFound(fileId);
    const row = await this.access.find(userId, file.brokerId);
    if (!row) throw brimFileNotFound(fileId);
    await this.access.require(userId, file.brokerId, min);
    return file;
  }

  pathOf(dir: string, file: BrimFile): string {
    return join(dir, file.id);
  }

  /**
   * The stored file's meta for detection and plugins (format, decoded head, size), reading only its
   * first bytes: the whole file is read by the parse worker, never by the request thread.
   */
  async metaOf(dir: string, file: BrimFile): Promise<ImportFileMeta> {
    let handle;
    try {
      handle = await open(this.pathOf(dir, file), "r");
    } catch {
      throw brimFileNotFound(file.id);
    }
    try {
      const size = (await handle.stat()).size;
      // One byte past the head tells describeFile the head was cut (so a split character is dropped).
      const head = new Uint8Array(Math.min(size, HEAD_BYTES + 1));
      const { bytesRead } = await handle.read(head, 0, head.length, 0);
      return await this.withSheets({ ...describeFile(head.subarray(0, bytesRead), file.filename), sizeBytes: size }, this.pathOf(dir, file));
    } finally {
      await handle.close();
    }
  }

  /** A workbook's meta with the first rows of its sheets, a PDF's with the start of its text (read off the request thread), so detection sees its content. */
  private async withSheets(meta: ImportFileMeta, path: string): Promise<ImportFileMeta> {
    // A PDF's head is the start of its text (read in the worker pool), so `accepts()` sees its content as a CSV's.
    if (meta.format === "pdf") {
      const read = this.plugins.pdfHead ? await this.plugins.pdfHead(path) : null;
      return read?.ok ? { ...meta, head: read.head } : meta;
    }
    // A ZIP of PDF documents (contract notes, dividend notices) is offered to the PDF importers, its first document's text as its head.
    if (meta.format === "xlsx" && meta.extension === "zip" && this.plugins.pdfHead) {
      const read = await this.plugins.pdfHead(path);
      if (read.ok) return { ...meta, format: "pdf", head: read.head };
    }
    if ((meta.format !== "xlsx" && meta.format !== "xls") || !this.plugins.sheets) return meta;
    const sheets = await this.plugins.sheets(path);
    return sheets ? { ...meta, sheets } : meta;
  }

  /** Why the stored PDF gives no text (`reason` a `PDF_*` code), or null when it reads. */
  async pdfProblem(dir: string, file: BrimFile): Promise<{ message: string; reason: string } | null> {
    if (!this.plugins.pdfHead) return null;
    const read = await this.plugins.pdfHead(this.pathOf(dir, file));
    return read.ok ? null : { message: read.message, reason: read.reason };
  }

  async delete(dir: string, userId: number, fileId: string): Promise<void> {
    const file = await this.get(userId, fileId, "EDITOR");
    await this.db.write((tx) => tx.delete(BrimFile, { id: file.id }));
    const path = this.pathOf(dir, file);
    await Promise.all([path, lastParsePath(dir, file.id), pdfTextPath(path)].map((p) => unlink(p).catch(() => undefined)));
  }

  /** The first 100 rows of the file as a table (`previewOf`, made in the worker pool); spreadsheets by sheet (`sheetName`, default the first). */
  async preview(dir: string, userId: number, fileId: string, sheetName?: string): Promise<FilePreview> {
    const file = await this.get(userId, fileId);
    const run = await this.plugins.preview(this.pathOf(dir, file), sheetName);
    if (run === null) throw brimFileNotFound(file.id);
    if (run.ok) return run.preview;
    if (run.code === "SHEET_NOT_FOUND") throw new NotFoundError("SHEET_NOT_FOUND", `No sheet named ${run.sheetName}`, { sheet_name: run.sheetName });
    if (run.code === "UNPACK_LIMIT") {
      throw new InputError("PARSE_FAILED", beyondLimits(run.refusal), { file_id: file.id, limit: run.refusal.limit, max: run.refusal.max });
    }
    throw new InputError("PREVIEW_UNAVAILABLE", run.message);
  }

  /**
   * The text of each PDF of the file as importers read it, anonymised unless `anonymise` is false
   * (EDITOR or OWNER: it is the document's content). 400 NOT_A_PDF for a file that is neither a PDF
   * nor a ZIP of PDFs.
   */
  async pdfTexts(dir: string, userId: number, fileId: string, anonymise: boolean): Promise<PdfDocumentText[]> {
    const file = await this.get(userId, fileId, "EDITOR");
    const texts = this.plugins.pdfTexts ? await this.plugins.pdfTexts(this.pathOf(dir, file), file.filename, anonymise) : null;
    if (texts === null) throw new InputError("NOT_A_PDF", "The file is not a PDF nor a ZIP of PDFs: it has no PDF text", { file_id: file.id });
    return texts;
  }

  /** The last parse result as stored (gzipped JSON), or null when the file has none. */
  async lastParse(dir: string, userId: number, fileId: string): Promise<Uint8Array | null> {
    const file = await this.get(userId, fileId);
    if (file.status !== "parsed") return null;
    try {
      return new Uint8Array(await readFile(lastParsePath(dir, file.id)));
    } catch {
      return null;
    }
  }

  /** Whether the plugin that made the last parse now has another version (or is gone). */
  isStale(file: BrimFile): boolean {
    if (!file.parsedPluginCode) return false;
    return this.plugins.get(file.parsedPluginCode)?.version !== file.parsedPluginVersion;
  }

  /**
   * Removes bytes whose row is gone (rows go with their broker through the foreign key when a
   * broker is deleted, which happens in several places). Run at boot and on each listing.
   */
  async sweep(dir: string): Promise<number> {
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      return 0;
    }
    const stale = Date.now() - 3600_000;
    // Uploads a crash left before their rename, and artefacts a crash left half-written: removed after an hour.
    for (const n of names.filter((n) => n.startsWith(PENDING_PREFIX) || n.endsWith(".tmp"))) {
      const info = await stat(join(dir, n)).catch(() => null);
      if (info && info.mtimeMs < stale) await unlink(join(dir, n)).catch(() => undefined);
    }
    const ids = new Set(names.map((n) => n.slice(0, 36)).filter((n) => UUID.test(n)));
    if (ids.size === 0) return 0;
    const kept = new Set((await this.db.reads.find(BrimFile, { select: { id: true }, where: { id: In([...ids]) } })).map((f) => f.id));
    const gone = names.filter((n) => UUID.test(n.slice(0, 36)) && !kept.has(n.slice(0, 36)));
    await Promise.all(gone.map((n) => unlink(join(dir, n)).catch(() => undefined)));
    return gone.length;
  }
}

/** Where a file's last parse result is kept. */
export function lastParsePath(dir: string, fileId: string): string {
  return join(dir, `${fileId}.parse.json.gz`);
}
