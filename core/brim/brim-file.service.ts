import { createHash, randomUUID } from "node:crypto";
import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { inject, injectable } from "tsyringe";
import { In } from "typeorm";
import { decodeText, readCsv, readWorkbook, sniffFormat } from "../../sdk/import/index.ts";
import { BrokerAccessService } from "../brokers/broker-access.service.ts";
import type { BrokerRole } from "../brokers/broker-access.entity.ts";
import { Database } from "../db/database.ts";
import { InputError, NotFoundError, UnsupportedMediaError } from "../errors/domain-error.ts";
import { sniffUpload } from "../uploads/mime-sniff.ts";
import { displayName, tooLarge, UploadService } from "../uploads/upload.service.ts";
import { describeFile } from "../../sdk/import/meta.ts";
import { BrimFile, type BrimFileStatus } from "./brim-file.entity.ts";
import { compatibleCodes, detect, type DetectVerdict } from "./detect.calc.ts";
import { IMPORT_PLUGINS, type ImportPluginDirectory } from "./import-plugins.ts";


/** Folder of BRIM files under DATA_DIR. */
export function brimDir(dataDir: string): string {
  return join(dataDir, "brim");
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Prefix of an upload's bytes until its row committed (not a file id: `sweep` leaves them). */
const PENDING_PREFIX = ".pending-";
export const PREVIEW_ROWS = 100;

export function brimFileNotFound(fileId: string): NotFoundError {
  return new NotFoundError("BRIM_FILE_NOT_FOUND", `Import file ${fileId} not found`, { file_id: fileId });
}

/** A structured preview of a file: a table of its first rows (REFERENCE-API 1.8 `preview`). */
export interface FilePreview {
  columns: string[];
  kind: "table";
  rows: string[][];
  sheets?: string[];
}

/**
 * BRIM files (SPEC Brokers and BRIM, API-SHAPES "Broker report import"): stored under
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
  detect(bytes: Uint8Array, filename: string): DetectVerdict[] {
    const meta = describeFile(bytes, filename);
    return detect(meta, this.plugins.list().map((p) => ({
      code: p.code, detectionPriority: p.detectionPriority, instance: p.instance, supportedExtensions: p.supportedExtensions,
    })));
  }

  async upload(dir: string, input: { brokerId: number; bytes: Uint8Array; filename: string; userId: number }): Promise<BrimFile> {
    await this.access.require(input.userId, input.brokerId, "EDITOR");
    const { maxBytes, maxMb } = await this.uploads.limit();
    if (input.bytes.byteLength > maxBytes) throw tooLarge(maxMb, maxBytes);
    if (input.bytes.byteLength === 0) throw new InputError("EMPTY_FILE", "The uploaded file is empty");
    const filename = displayName(input.filename);
    const sniffed = sniffUpload(input.bytes, filename);
    if (sniffed.blocked) throw new UnsupportedMediaError("UPLOAD_REFUSED", `File type not allowed: ${sniffed.reason}`, { reason: sniffed.reason });
    const compatible = compatibleCodes(this.detect(input.bytes, filename));

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
      row = await this.db.write(async (tx) => {
        await tx.insert(BrimFile, {
          id, brokerId: input.brokerId, uploadedByUserId: input.userId, filename, contentType: sniffed.contentType,
          sizeBytes: input.bytes.byteLength, sha256: createHash("sha256").update(input.bytes).digest("hex"), status: "uploaded",
          compatiblePlugins: JSON.stringify(compatible), errorMessage: null, parsedPluginCode: null, parsedPluginVersion: null,
          uploadedAt: new Date(), processedAt: null,
        });
        return tx.findOneByOrFail(BrimFile, { id });
      });
      await rename(pending, path);
      return row;
    } catch (error) {
      await unlink(pending).catch(() => undefined);
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

  async bytesOf(dir: string, file: BrimFile): Promise<Uint8Array> {
    try {
      return new Uint8Array(await readFile(this.pathOf(dir, file)));
    } catch {
      throw brimFileNotFound(file.id);
    }
  }

  async delete(dir: string, userId: number, fileId: string): Promise<void> {
    const file = await this.get(userId, fileId, "EDITOR");
    await this.db.write((tx) => tx.delete(BrimFile, { id: file.id }));
    await Promise.all([this.pathOf(dir, file), lastParsePath(dir, file.id)].map((p) => unlink(p).catch(() => undefined)));
  }

  /** The first {@link PREVIEW_ROWS} rows of the file as a table; spreadsheets by sheet (`sheetName`, default the first). */
  async preview(dir: string, userId: number, fileId: string, sheetName?: string): Promise<FilePreview> {
    const file = await this.get(userId, fileId);
    const bytes = await this.bytesOf(dir, file);
    const format = sniffFormat(bytes);
    if (format === "xlsx" || format === "xls") {
      let sheets;
      try {
        sheets = await readWorkbook(bytes, PREVIEW_ROWS + 1);
      } catch {
        throw new InputError("PREVIEW_UNAVAILABLE", "The spreadsheet cannot be read");
      }
      const sheet = sheetName === undefined ? sheets[0] : sheets.find((s) => s.name === sheetName);
      if (!sheet) throw new NotFoundError("SHEET_NOT_FOUND", `No sheet named ${sheetName}`, { sheet_name: sheetName });
      const [head = [], ...rest] = sheet.rows.map((r) => r.map((c) => c ?? ""));
      return { kind: "table", sheets: sheets.map((s) => s.name), columns: head, rows: rest.slice(0, PREVIEW_ROWS) };
    }
    if (format === "text") {
      const slice = bytes.subarray(0, 256 * 1024);
      const rows = readCsv(slice).rows.slice(0, PREVIEW_ROWS + 1).map((r) => [...r]);
      const [head = [], ...rest] = rows;
      return { kind: "table", columns: head, rows: rest };
    }
    if (format === "xml") {
      const lines = decodeText(bytes.subarray(0, 64 * 1024)).text.split(/\r?\n/).slice(0, PREVIEW_ROWS);
      return { kind: "table", columns: ["line"], rows: lines.map((l) => [l]) };
    }
    throw new InputError("PREVIEW_UNAVAILABLE", format === "pdf" ? "A PDF has no table preview" : "The file is not text or a spreadsheet");
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
    // Uploads a crash left before their rename: removed after an hour.
    const stale = Date.now() - 3600_000;
    for (const n of names.filter((n) => n.startsWith(PENDING_PREFIX))) {
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
