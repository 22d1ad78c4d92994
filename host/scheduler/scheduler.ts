import { Cron } from "croner";
import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "../logger.ts";

/** Jobs whose last run the settings page shows, registered or not (reference: scheduler state). */
export const REPORTED_JOBS = ["current_price", "history_sync"] as const;

export interface JobOutcome {
  itemsErr: number;
  itemsOk: number;
}

export interface ScheduledJob {
  readonly name: string;
  /** Cron pattern (croner syntax, seconds optional). */
  readonly pattern: string;
  readonly timezone?: string;
  run(): Promise<JobOutcome>;
}

export interface JobInfo {
  lastDurationS: number | null;
  lastItemsErr: number;
  lastItemsOk: number;
  lastRunAt: string | null;
  lastStatus: "ok" | "partial" | "error" | null;
}

export interface JobLogEntry {
  duration_s: number;
  error?: string;
  items_err: number;
  items_ok: number;
  job: string;
  started_at: string;
  status: "ok" | "partial" | "error";
}

const MAX_LOG_ENTRIES = 500;

/**
 * The croner scheduler. Areas register their jobs; `protect` keeps a slow run from overlapping
 * the next. Each run updates the job's last-run info and appends one line to
 * DATA_DIR/logs/scheduler.jsonl. Stopped on shutdown so the process can exit.
 */
export class Scheduler {
  private readonly crons = new Map<string, Cron>();
  private readonly info = new Map<string, JobInfo>();
  readonly logFile: string;

  constructor(dataDir: string, private readonly logger: Logger) {
    this.logFile = join(dataDir, "logs", "scheduler.jsonl");
  }

  add(job: ScheduledJob): void {
    this.crons.get(job.name)?.stop();
    const cron = new Cron(job.pattern, { protect: true, timezone: job.timezone, name: job.name }, async () => {
      await this.runNow(job);
    });
    this.crons.set(job.name, cron);
  }

  /** Runs a job once, recording its outcome; never throws. */
  async runNow(job: ScheduledJob): Promise<JobLogEntry> {
    const started = new Date();
    let entry: JobLogEntry;
    try {
      const { itemsOk, itemsErr } = await job.run();
      const status = itemsErr === 0 ? "ok" : itemsOk > 0 ? "partial" : "error";
      entry = { job: job.name, started_at: started.toISOString(), duration_s: (Date.now() - started.getTime()) / 1000, status, items_ok: itemsOk, items_err: itemsErr };
    } catch (error) {
      this.logger.error("job failed", { job: job.name, error: error as Error });
      entry = { job: job.name, started_at: started.toISOString(), duration_s: (Date.now() - started.getTime()) / 1000, status: "error", items_ok: 0, items_err: 0, error: (error as Error).message };
    }
    this.info.set(job.name, {
      lastRunAt: entry.started_at, lastDurationS: entry.duration_s, lastStatus: entry.status,
      lastItemsOk: entry.items_ok, lastItemsErr: entry.items_err,
    });
    mkdirSync(join(this.logFile, ".."), { recursive: true });
    appendFileSync(this.logFile, JSON.stringify(entry) + "\n");
    this.logger.info("job finished", { ...entry });
    return entry;
  }

  jobInfo(name: string): JobInfo {
    return this.info.get(name) ?? { lastRunAt: null, lastDurationS: null, lastStatus: null, lastItemsOk: 0, lastItemsErr: 0 };
  }

  /** Log entries newest first, optionally only those started at or after `since`. */
  log(since?: Date): JobLogEntry[] {
    if (!existsSync(this.logFile)) return [];
    const entries = readFileSync(this.logFile, "utf8").split("\n").filter(Boolean).flatMap((line) => {
      try { return [JSON.parse(line) as JobLogEntry]; } catch { return []; }
    });
    return entries
      .filter((e) => !since || Date.parse(e.started_at) >= since.getTime())
      .reverse()
      .slice(0, MAX_LOG_ENTRIES);
  }

  names(): string[] {
    return [...this.crons.keys()];
  }

  stop(): void {
    for (const cron of this.crons.values()) cron.stop();
    this.crons.clear();
  }
}
