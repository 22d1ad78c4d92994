import { Database } from "bun:sqlite";
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, normalize, relative, resolve, sep } from "node:path";
import pkg from "../../../package.json" with { type: "json" };
import { migrations } from "../../../migrations/index.ts";
import type { AppConfig } from "../../config.ts";
import { databaseFile, isPostgres } from "../../db/data-source.ts";
import { snapshotDatabase } from "../../db/snapshot.ts";

/**
 * `backup create` / `backup restore` of the command line: a `.tar.gz` with a consistent snapshot
 * of the database (VACUUM INTO, safe while the server runs), the uploads, the BRIM files and
 * the plugin configuration, plus a manifest. Restore goes into an empty DATA_DIR (or, with
 * --force, replaces those parts of a non-empty one) and checks the archive before touching it.
 */
export const ARCHIVE_FORMAT = "portfolio-tracker-archive";
const ARCHIVE_VERSION = 1;
/** Folders of DATA_DIR that travel whole. */
const FOLDERS = ["uploads", "brim"] as const;
const DB_ENTRY = "portfolio.sqlite";
const PLUGINS_ENTRY = "plugins.json";
const MANIFEST_ENTRY = "manifest.json";

export class BackupCliError extends Error {}

interface Manifest {
  format: string;
  archive_version: number;
  app_version: string;
  created_at: string;
  migrations: string[];
  files: number;
}

function filesUnder(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

/** A file deleted by the running server since it was listed is simply left out. */
async function readIfPresent(path: string): Promise<Uint8Array | null> {
  try {
    return await Bun.file(path).bytes();
  } catch {
    return null;
  }
}

function pluginsConfigFile(config: AppConfig): string {
  return config.pluginsConfigFile ?? join(config.dataDir, PLUGINS_ENTRY);
}

/** The archive carries the SQLite file: on PostgreSQL (DATABASE_URL) the database is backed up with pg_dump. */
function refuseOnPostgres(): void {
  if (isPostgres()) throw new BackupCliError("backup archives hold the SQLite database; this installation runs on PostgreSQL (DATABASE_URL): back it up with pg_dump and copy DATA_DIR");
}

export async function createArchive(config: AppConfig, target: string, out: (line: string) => void): Promise<void> {
  refuseOnPostgres();
  const dbFile = databaseFile(config.dataDir);
  if (!existsSync(dbFile)) throw new BackupCliError(`No database in ${config.dataDir} (start the server once, or set DATA_DIR)`);
  const work = join(tmpdir(), `pt-backup-${randomUUID()}`);
  mkdirSync(work, { recursive: true });
  try {
    const snapshot = join(work, DB_ENTRY);
    await snapshotDatabase(dbFile, snapshot);
    // Bytes, not Bun.file() blobs: Bun.Archive (1.4.5) writes lazy file blobs as empty entries.
    const entries: Record<string, Uint8Array | string> = { [DB_ENTRY]: await Bun.file(snapshot).bytes() };
    for (const folder of FOLDERS) {
      const root = join(config.dataDir, folder);
      for (const file of filesUnder(root)) {
        const bytes = await readIfPresent(file);
        if (bytes) entries[`${folder}/${relative(root, file).split(sep).join("/")}`] = bytes;
      }
    }
    const plugins = await readIfPresent(pluginsConfigFile(config));
    if (plugins) entries[PLUGINS_ENTRY] = plugins;
    const manifest: Manifest = {
      format: ARCHIVE_FORMAT,
      archive_version: ARCHIVE_VERSION,
      app_version: pkg.version,
      created_at: new Date().toISOString(),
      migrations: appliedMigrations(snapshot),
      files: Object.keys(entries).length,
    };
    entries[MANIFEST_ENTRY] = JSON.stringify(manifest, null, 2);
    const final = resolve(target);
    mkdirSync(dirname(final), { recursive: true });
    const partial = `${final}.partial-${process.pid}`;
    try {
      await Bun.Archive.write(partial, entries, { compress: "gzip" });
      renameSync(partial, final);
    } finally {
      rmSync(partial, { force: true });
    }
    out(`Backup written to ${final} (${manifest.files} files, ${statSync(final).size} bytes)`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function appliedMigrations(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return (db.query(`SELECT name FROM migrations ORDER BY id`).all() as { name: string }[]).map((m) => m.name);
  } finally {
    db.close();
  }
}

/** Only the entries we write, as plain relative paths (no absolute paths, no `..`). */
function allowedEntry(path: string): boolean {
  const clean = normalize(path);
  if (clean !== path || clean.startsWith("/") || clean.split("/").includes("..")) return false;
  return [DB_ENTRY, PLUGINS_ENTRY, MANIFEST_ENTRY].includes(path) || FOLDERS.some((f) => path.startsWith(`${f}/`));
}

export async function restoreArchive(config: AppConfig, source: string, force: boolean, out: (line: string) => void): Promise<void> {
  refuseOnPostgres();
  const dataDir = config.dataDir;
  if (!existsSync(source)) throw new BackupCliError(`No such archive: ${source}`);
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0 && !force) {
    throw new BackupCliError(`DATA_DIR ${dataDir} is not empty; stop the server and add --force to replace its database, uploads, BRIM files and plugin configuration`);
  }
  await checkUnpackedSize(source);
  let files: Map<string, File>;
  try {
    files = await new Bun.Archive(await Bun.file(source).bytes()).files();
  } catch {
    throw new BackupCliError(`${source} is not a .tar.gz archive`);
  }
  const manifest = await readManifest(files);
  const known = new Set(migrations.map((m) => m.name));
  const unknown = manifest.migrations.filter((name) => !known.has(name));
  if (unknown.length) throw new BackupCliError(`The archive comes from a newer version (${manifest.app_version}): unknown migrations ${unknown.join(", ")}`);
  const bad = [...files.keys()].find((path) => !allowedEntry(path));
  if (bad !== undefined) throw new BackupCliError(`The archive holds an unexpected entry: ${bad}`);
  if (!files.has(DB_ENTRY)) throw new BackupCliError("The archive holds no database");

  mkdirSync(dataDir, { recursive: true });
  const staging = join(dataDir, `.restore-${randomUUID()}`);
  try {
    for (const [path, file] of files) {
      if (path === MANIFEST_ENTRY) continue;
      const to = join(staging, path);
      mkdirSync(dirname(to), { recursive: true });
      await Bun.write(to, file);
    }
    checkDatabase(join(staging, DB_ENTRY));
    // Checked: now replace. Everything the archive carries goes away first, then moves in.
    const db = databaseFile(dataDir);
    for (const suffix of ["", "-wal", "-shm"]) rmSync(`${db}${suffix}`, { force: true });
    for (const folder of FOLDERS) rmSync(join(dataDir, folder), { recursive: true, force: true });
    rmSync(join(dataDir, PLUGINS_ENTRY), { force: true });
    renameSync(join(staging, DB_ENTRY), db);
    for (const folder of FOLDERS) if (existsSync(join(staging, folder))) renameSync(join(staging, folder), join(dataDir, folder));
    if (existsSync(join(staging, PLUGINS_ENTRY))) renameSync(join(staging, PLUGINS_ENTRY), join(dataDir, PLUGINS_ENTRY));
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  out(`Restored ${source} (created ${manifest.created_at} by version ${manifest.app_version}) into ${dataDir}`);
  if (config.pluginsConfigFile && files.has(PLUGINS_ENTRY)) out(`Note: PLUGINS_CONFIG points at ${config.pluginsConfigFile}; the archived plugin configuration is in ${join(dataDir, PLUGINS_ENTRY)}`);
}

/**
 * Restore unpacks the archive in memory (Bun.Archive needs about 2.5 times its unpacked size), so
 * a decompression bomb (a few megabytes of gzip unpacking to many gigabytes) would take the machine's
 * memory. Backups compress 3 to 10 times; an archive unpacking to more than {@link MAX_UNPACK_RATIO}
 * times its size, past the first {@link UNPACK_FLOOR_BYTES}, or holding more than {@link MAX_ARCHIVE_ENTRIES}
 * entries, is not one of ours.
 */
export const MAX_UNPACK_RATIO = 100;
export const UNPACK_FLOOR_BYTES = 256 * 1024 * 1024;
export const MAX_ARCHIVE_ENTRIES = 1_000_000;

/**
 * Reads the archive once as a stream (gunzip, then the tar headers every 512-byte block
 * announces), counting the bytes it unpacks to and its entries, and refuses it at the first
 * limit passed: memory stays flat whatever the archive claims, and nothing is written.
 */
async function checkUnpackedSize(source: string): Promise<void> {
  const maxBytes = Math.max(UNPACK_FLOOR_BYTES, statSync(source).size * MAX_UNPACK_RATIO);
  const reader = Bun.file(source).stream().pipeThrough(new DecompressionStream("gzip")).getReader();
  const header = new Uint8Array(512);
  let filled = 0; // bytes of the current header read so far
  let skip = 0; // bytes of entry data (rounded up to blocks) still to pass
  let unpacked = 0;
  let entries = 0;
  let ended = false;
  try {
    while (!ended) {
      let chunk: Uint8Array | undefined;
      try {
        const next = await reader.read();
        if (next.done) break;
        chunk = next.value;
      } catch {
        return; // not gzip, or cut short: the archive reader below says so
      }
      unpacked += chunk.byteLength;
      if (unpacked > maxBytes) {
        throw new BackupCliError(`The archive unpacks to more than ${Math.round(maxBytes / 1024 / 1024)} MB (${MAX_UNPACK_RATIO} times its size): `
          + "not a backup archive of this application (a decompression bomb?); nothing was restored");
      }
      for (let at = 0; at < chunk.byteLength && !ended;) {
        if (skip > 0) {
          const step = Math.min(skip, chunk.byteLength - at);
          skip -= step;
          at += step;
          continue;
        }
        const step = Math.min(512 - filled, chunk.byteLength - at);
        header.set(chunk.subarray(at, at + step), filled);
        filled += step;
        at += step;
        if (filled < 512) continue;
        filled = 0;
        if (header.every((b) => b === 0)) { ended = true; break; }
        if (++entries > MAX_ARCHIVE_ENTRIES) {
          throw new BackupCliError(`The archive holds more than ${MAX_ARCHIVE_ENTRIES.toLocaleString("en-US")} entries: not a backup archive of this application; nothing was restored`);
        }
        skip = Math.ceil(tarSize(header) / 512) * 512;
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** An entry's size from its tar header: octal text, or base-256 when the first byte's high bit is set. */
function tarSize(header: Uint8Array): number {
  const field = header.subarray(124, 136);
  if (field[0]! & 0x80) {
    let size = field[0]! & 0x7f;
    for (let i = 1; i < field.length; i++) size = size * 256 + field[i]!;
    return size;
  }
  const text = new TextDecoder().decode(field).replace(/\0.*$/s, "").trim();
  return /^[0-7]+$/.test(text) ? Number.parseInt(text, 8) : 0;
}

async function readManifest(files: Map<string, File>): Promise<Manifest> {
  const entry = files.get(MANIFEST_ENTRY);
  let manifest: Partial<Manifest> | null = null;
  try {
    manifest = entry ? JSON.parse(await entry.text()) : null;
  } catch {
    manifest = null;
  }
  if (!manifest || manifest.format !== ARCHIVE_FORMAT || !Array.isArray(manifest.migrations)) {
    throw new BackupCliError("Not a backup archive of this application (no valid manifest.json)");
  }
  if ((manifest.archive_version ?? 0) > ARCHIVE_VERSION) throw new BackupCliError(`Archive version ${manifest.archive_version} is newer than this version reads (${ARCHIVE_VERSION})`);
  return manifest as Manifest;
}

function checkDatabase(file: string): void {
  let db: Database | null = null;
  try {
    db = new Database(file, { readonly: true });
    const result = db.query("PRAGMA integrity_check").get() as { integrity_check: string };
    if (result.integrity_check !== "ok") throw new Error(result.integrity_check);
  } catch (error) {
    throw new BackupCliError(`The archived database is damaged: ${(error as Error).message}`);
  } finally {
    db?.close();
  }
}
