/**
 * The slice of a read-only connection the backup readers need. The host opens one for each export
 * inside a read transaction, so every table is read at the same committed state while the server
 * keeps writing (SQLite's WAL, or a PostgreSQL snapshot), and rows are pulled a few at a time
 * (constant memory: bun:sqlite's iterator, or a PostgreSQL cursor fetched in pages).
 */
export interface SnapshotReader {
  all<T>(sql: string, params?: unknown[]): Promise<T[]>;
  iterate<T>(sql: string, params?: unknown[]): Iterable<T> | AsyncIterable<T>;
}

/** Rows between two yields to the event loop: bun:sqlite is synchronous, and the server must stay responsive. */
export const ROWS_PER_YIELD = 2_000;
/** Text collected before a chunk is handed to the response stream. */
export const CHUNK_CHARS = 64 * 1024;

export { yieldToEventLoop } from "../async/yield-to-event-loop.ts";

/**
 * Buffers text and hands it out in chunks of about {@link CHUNK_CHARS}; `tick()` counts a row and
 * tells when to yield to the event loop.
 */
export class ChunkBuffer {
  private parts: string[] = [];
  private size = 0;
  private rows = 0;

  push(text: string): void {
    this.parts.push(text);
    this.size += text.length;
  }

  get full(): boolean {
    return this.size >= CHUNK_CHARS;
  }

  take(): string {
    const out = this.parts.join("");
    this.parts = [];
    this.size = 0;
    return out;
  }

  /** Counts a row; true every {@link ROWS_PER_YIELD} rows. */
  tick(): boolean {
    this.rows++;
    return this.rows % ROWS_PER_YIELD === 0;
  }
}
