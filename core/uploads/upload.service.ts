import { createHash, randomUUID } from "node:crypto";
import { mkdir, realpath, stat, unlink, writeFile } from "node:fs/promises";
import { isAbsolute, join, resolve, sep } from "node:path";
import { inject, injectable } from "tsyringe";
import { CacheRegistry } from "../cache/cache-registry.ts";
import { Database } from "../db/database.ts";
import { InputError, NotFoundError, PayloadTooLargeError } from "../errors/domain-error.ts";
import { GlobalSettingsService } from "../settings/global-settings.service.ts";
import { sniffUpload } from "./mime-sniff.ts";
import { UploadedFile } from "./uploaded-file.entity.ts";

const MIB = 1024 * 1024;
/** Room for the multipart envelope and the description when the declared length is checked before parsing. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
const MAX_NAME_LENGTH = 255;

export interface NewUpload {
  bytes: Uint8Array;
  description: string | null;
  /** The uploads folder (DATA_DIR/uploads). */
  dir: string;
  filename: string;
  userId: number;
}

export interface UploadActor {
  id: number;
  isSuperuser: boolean;
}

/** The client's file name as metadata only: path components, control characters and excess length removed. */
export function displayName(name: string): string {
  const base = name.split(/[/\\]/).pop() ?? "";
  const clean = base.replace(/[\0-\x1f\x7f]/g, "").trim().slice(0, MAX_NAME_LENGTH);
  return clean === "" || clean === "." || clean === ".." ? "upload" : clean;
}

/**
 * Generic uploaded files (docs/security.md "Uploads"): content-sniffed, executable content refused, size capped
 * by `max_file_upload_mb` read on every request. Bytes live under a random server-chosen name.
 */
@injectable()
export class UploadService {
  constructor(
    @inject(Database) private readonly db: Database,
    @inject(GlobalSettingsService) private readonly settings: GlobalSettingsService,
    @inject(CacheRegistry) private readonly caches: CacheRegistry,
  ) {}

  private get cache() {
    return this.caches.get<UploadedFile>("upload_metadata");
  }

  /** The current cap in bytes (an unparsable setting reads as 0 MiB, so nothing is accepted). */
  async limit(): Promise<{ maxBytes: number; maxMb: number }> {
    const maxMb = Math.max(0, await this.settings.int("max_file_upload_mb"));
    return { maxBytes: maxMb * MIB, maxMb };
  }

  /**
   * The refusal for a request whose declared length cannot fit (so its body need not be read),
   * or null. Returned rather than thrown: the HTTP layer decides when to raise it.
   */
  async checkDeclaredLength(contentLength: number | null): Promise<PayloadTooLargeError | null> {
    if (contentLength === null || !Number.isFinite(contentLength)) return null;
    const { maxBytes, maxMb } = await this.limit();
    return contentLength > maxBytes + MULTIPART_OVERHEAD_BYTES ? tooLarge(maxMb, maxBytes) : null;
  }

  /** The most bytes a multipart body may hold: the cap plus the multipart envelope's allowance. */
  async maxBodyBytes(): Promise<number> {
    return (await this.limit()).maxBytes + MULTIPART_OVERHEAD_BYTES;
  }

  /** The 413 `FILE_TOO_LARGE` refusal with the current cap. */
  async tooLargeError(): Promise<PayloadTooLargeError> {
    const { maxBytes, maxMb } = await this.limit();
    return tooLarge(maxMb, maxBytes);
  }

  async create(input: NewUpload): Promise<UploadedFile> {
    const { maxBytes, maxMb } = await this.limit();
    if (input.bytes.byteLength > maxBytes) throw tooLarge(maxMb, maxBytes);
    if (input.bytes.byteLength === 0) throw new InputError("EMPTY_FILE", "The uploaded file is empty");
    const filename = displayName(input.filename);
    const sniffed = sniffUpload(input.bytes, filename);
    if (sniffed.blocked) throw new InputError("BLOCKED_FILE_TYPE", `File type not allowed: ${sniffed.reason}`, { reason: sniffed.reason });

    const storedName = randomUUID();
    await mkdir(input.dir, { recursive: true });
    const path = join(input.dir, storedName);
    await writeFile(path, input.bytes, { flag: "wx", mode: 0o600 });
    let row: UploadedFile;
    try {
      row = await this.db.write(async (tx) => {
        const { id } = await tx.save(UploadedFile, Object.assign(new UploadedFile(), {
          userId: input.userId,
          originalName: filename,
          storedName,
          contentType: sniffed.contentType,
          sizeBytes: input.bytes.byteLength,
          sha256: createHash("sha256").update(input.bytes).digest("hex"),
          description: input.description,
        }));
        return tx.findOneByOrFail(UploadedFile, { id });
      });
    } catch (error) {
      await unlink(path).catch(() => undefined);
      throw error;
    }
    this.cache.set(String(row.id), row);
    return row;
  }

  /**
   * The files `actor` may see, newest first (docs/security.md "Uploads"): a user's own only; an administrator's
   * list covers everyone's (for cleanup) unless `mine` is set.
   */
  listFor(actor: UploadActor, mine = false): Promise<UploadedFile[]> {
    return this.list(actor.isSuperuser && !mine ? {} : { userId: actor.id });
  }

  /**
   * The record of one upload as `actor` may see it: the uploader's, or any for an administrator
   * when `adminMay` (records, not bytes); another user's id is 404, as if it did not exist.
   */
  async getFor(id: number, actor: UploadActor, adminMay = true): Promise<UploadedFile> {
    const row = await this.get(id);
    if (row.userId === actor.id || (adminMay && actor.isSuperuser)) return row;
    throw notFound(id);
  }

  /** Every user's files, or only `userId`'s, newest first. */
  list(filter: { userId?: number } = {}): Promise<UploadedFile[]> {
    return this.db.reads.find(UploadedFile, {
      where: filter.userId === undefined ? {} : { userId: filter.userId },
      order: { createdAt: "DESC", id: "DESC" },
    });
  }

  async get(id: number): Promise<UploadedFile> {
    await this.caches.sync();
    const cached = this.cache.get(String(id));
    if (cached) return cached;
    const generation = this.caches.generation("upload_metadata");
    const row = await this.db.reads.findOneBy(UploadedFile, { id });
    if (!row) throw notFound(id);
    if (this.caches.generation("upload_metadata") === generation) this.cache.set(String(id), row);
    return row;
  }

  /** Where the bytes of `file` are stored. */
  pathOf(dir: string, file: UploadedFile): string {
    return join(dir, file.storedName);
  }

  /**
   * The uploader or a superuser only (another user's id is 404, docs/security.md "Uploads"); the row goes first
   * (in a write), then the bytes. Returns the deleted record.
   */
  async delete(dir: string, id: number, actor: UploadActor): Promise<UploadedFile> {
    const file = await this.db.write(async (tx) => {
      const row = await tx.findOneBy(UploadedFile, { id });
      if (!row) throw notFound(id);
      if (row.userId !== actor.id && !actor.isSuperuser) throw notFound(id);
      await tx.delete(UploadedFile, { id });
      return row;
    });
    this.cache.delete(String(id));
    await unlink(this.pathOf(dir, file)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT") throw error;
    });
    return file;
  }

  /** Rows already deleted by another write (an account deletion): drop them from the cache and remove their bytes. */
  async forget(dir: string, rows: UploadedFile[]): Promise<void> {
    for (const row of rows) this.cache.delete(String(row.id));
    await Promise.all(rows.map((row) => unlink(this.pathOf(dir, row)).catch(() => undefined)));
  }
}

function notFound(id: number): NotFoundError {
  return new NotFoundError("UPLOAD_NOT_FOUND", `Upload ${id} not found`, { file_id: id });
}

export function tooLarge(maxMb: number, maxBytes: number): PayloadTooLargeError {
  return new PayloadTooLargeError("FILE_TOO_LARGE", `File exceeds the upload limit of ${maxMb} MB`, {
    max_bytes: maxBytes, max_file_upload_mb: maxMb,
  });
}

/**
 * A file inside `root` named by an untrusted relative path, or null. Refuses NUL, backslashes,
 * absolute paths and `..` segments, then resolves symlinks and requires the result to stay inside
 * `root` (a symlink pointing out is refused) and to be a regular file.
 */
export async function containedFile(root: string, relative: string): Promise<string | null> {
  if (relative === "" || /[\0\\]/.test(relative) || isAbsolute(relative) || /^[a-z]:/i.test(relative)) return null;
  if (relative.split("/").some((segment) => segment === "..")) return null;
  try {
    const realRoot = await realpath(root);
    const target = await realpath(resolve(realRoot, relative));
    if (!target.startsWith(realRoot + sep)) return null;
    return (await stat(target)).isFile() ? target : null;
  } catch {
    return null;
  }
}
