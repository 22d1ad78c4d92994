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
  /**
   * Internal upkeep (the minutely settings watch): a successful run is not written to the job log
   * or the state, so the log the settings page shows holds the jobs users care about; a failed run
   * still is.
   */
  readonly housekeeping?: boolean;
  /** Minimum seconds between two runs (croner's interval), for "every N minutes" jobs. */
  readonly intervalSeconds?: number;
  readonly name: string;
  /** Cron patterns (croner syntax, seconds optional); several for "at 06:00 and 23:00". */
  readonly patterns: readonly string[];
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
 * Claims one slot of a job for this process (several processes on one database): true when this
 * process won and must run it, false when another one already did.
 */
export type SlotClaim = (job: string, slot: Date) => Promise<boolean>;

/**
 * The croner scheduler. Areas register their jobs; `protect` keeps a slow run from overlapping
 * the next. Each run updates the job's last-run info and appends one line to
 * DATA_DIR/logs/scheduler.jsonl. Stopped on shutdown so the process can exit.
 */
export class Scheduler {
  private readonly crons = new Map<string, Cron[]>();
  private readonly info = new Map<string, JobInfo>();
  readonly logFile: string;

  constructor(dataDir: string, private readonly logger: Logger, private readonly claim?: SlotClaim) {
    this.logFile = join(dataDir, "logs", "scheduler.jsonl");
  }

  /** Registers (or replaces) a job. Runs of one job never overlap, even across its patterns. */
  add(job: ScheduledJob): void {
    this.remove(job.name);
    let running = false;
    const fire = async (cron: Cron) => {
      if (running) return;
      running = true;
      try {
        if (await this.claimed(job, cron)) await this.runNow(job);
      } finally {
        running = false;
      }
    };
    this.crons.set(job.name, job.patterns.map((pattern) => new Cron(pattern, {
      protect: true, timezone: job.timezone, interval: job.intervalSeconds,
    }, fire)));
  }

  /**
   * Whether this process runs this firing: a housekeeping job runs in every process (it keeps the
   * process's own schedule); any other job runs in the one process that claims its slot (the
   * pattern match the firing belongs to) first.
   */
  private async claimed(job: ScheduledJob, cron: Cron): Promise<boolean> {
    if (!this.claim || job.housekeeping) return true;
    let slot = cron.previousRuns(1, new Date(Date.now() + 1))[0] ?? new Date(Math.floor(Date.now() / 1000) * 1000);
    // "Every N minutes" fires at a phase set by each process's start: the slot is the N-minute
    // bucket of the clock instead, so processes started at different times still share slots.
    if (job.intervalSeconds) slot = new Date(Math.floor(slot.getTime() / (job.intervalSeconds * 1000)) * job.intervalSeconds * 1000);
    try {
      const won = await this.claim(job.name, slot);
      if (!won) this.logger.debug("job slot taken by another process", { job: job.name, slot: slot.toISOString() });
      return won;
    } catch (error) {
      this.logger.error("job slot claim failed; skipping this run", { job: job.name, error: error as Error });
      return false;
    }
  }

  remove(name: string): void {
    for (const cron of this.crons.get(name) ?? []) cron.stop();
    this.crons.delete(name);
  }

  /** The next time the job fires, or null when it is not scheduled. */
  nextRun(name: string): Date | null {
    const next = (this.crons.get(name) ?? []).map((c) => c.nextRun()).filter((d): d is Date => d !== null);
    return next.length ? new Date(Math.min(...next.map((d) => d.getTime()))) : null;
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
    if (job.housekeeping && entry.status === "ok") {
      this.logger.debug("job finished", { ...entry });
      return entry;
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

  /**
   * The job's last run: this process's, or a later one from the job log, which every process on
   * one DATA_DIR shares (another process may have claimed the latest slot; docs/deploy.md).
   */
  jobInfo(name: string): JobInfo {
    const own = this.info.get(name);
    const logged = this.claim ? this.log().find((e) => e.job === name) : undefined;
    if (logged && (!own?.lastRunAt || Date.parse(logged.started_at) > Date.parse(own.lastRunAt))) {
      return {
        lastRunAt: logged.started_at, lastDurationS: logged.duration_s, lastStatus: logged.status,
        lastItemsOk: logged.items_ok, lastItemsErr: logged.items_err,
      };
    }
    return own ?? { lastRunAt: null, lastDurationS: null, lastStatus: null, lastItemsOk: 0, lastItemsErr: 0 };
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
    for (const name of [...this.crons.keys()]) this.remove(name);
  }
}
