import { Database } from "bun:sqlite";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { SnapshotReader } from "../../core/backup/snapshot-reader.ts";

/**
 * A read-only connection of its own inside one read transaction: every query sees the same
 * committed state (WAL) while the server keeps writing, and no other request shares it.
 */
export interface OpenSnapshot extends SnapshotReader {
  close(): void;
}

export function openSnapshot(file: string): OpenSnapshot {
  const db = new Database(file, { readonly: true });
  db.exec("PRAGMA busy_timeout = 5000");
  db.exec("BEGIN");
  // The read transaction starts at the first read: pin it now, before anything else is asked.
  db.query("SELECT count(*) FROM sqlite_master").get();
  let open = true;
  return {
    all: <T>(sql: string, params: unknown[] = []) => db.query(sql).all(...(params as any[])) as T[],
    iterate: <T>(sql: string, params: unknown[] = []) => db.query(sql).iterate(...(params as any[])) as Iterable<T>,
    close() {
      if (!open) return;
      open = false;
      try { db.exec("COMMIT"); } finally { db.close(); }
    },
  };
}

/**
 * A consistent copy of the live database at `target` (LIBS 6: `VACUUM INTO` with a bound path; it
 * refuses an existing file, so the copy goes to a fresh name beside the target and is renamed).
 * Uncommitted writes of other connections are not in the copy; the copy is not in WAL mode.
 */
export async function snapshotDatabase(file: string, target: string): Promise<void> {
  const temp = join(dirname(target), `.snapshot-${randomUUID()}.sqlite`);
  const db = new Database(file, { readonly: true });
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    db.query("VACUUM INTO ?").run(temp);
  } finally {
    db.close();
  }
  try {
    await rename(temp, target);
  } catch (error) {
    if (existsSync(temp)) await rm(temp, { force: true });
    throw error;
  }
}
