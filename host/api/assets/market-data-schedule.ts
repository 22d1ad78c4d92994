import type { GlobalSettingsService } from "../../../core/settings/global-settings.service.ts";
import type { Logger } from "../../logger.ts";
import { planSchedule, type SchedulePlan, type SchedulerSettings } from "./schedule-plan.ts";
import type { JobOutcome, Scheduler } from "../../scheduler/scheduler.ts";

export interface MarketDataJobs {
  currentPrice(): Promise<JobOutcome>;
  historySync(horizonDays: number): Promise<JobOutcome>;
}

/** How often the settings are re-read, so a change made anywhere (API, another process) applies. */
const WATCH_PATTERN = "30 * * * * *";

/**
 * Keeps the price jobs in step with the global scheduler settings, read fresh on every reload:
 * `scheduler_enabled` switches them on and off; a changed frequency, time, day, horizon or time
 * zone reschedules them without a restart; values that make no sense are logged and the last good
 * schedule stays. Reloaded at start, after each settings write and every minute.
 */
export class MarketDataSchedule {
  private applied: string | null = null;
  private lastGood: SchedulePlan | null = null;
  private reported = "";

  constructor(
    private readonly scheduler: Scheduler,
    private readonly settings: GlobalSettingsService,
    private readonly jobs: MarketDataJobs,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    await this.reload();
    this.scheduler.add({ name: "scheduler_settings_watch", patterns: [WATCH_PATTERN], housekeeping: true, run: async () => {
      await this.reload();
      return { itemsOk: 0, itemsErr: 0 };
    } });
  }

  async reload(): Promise<void> {
    const s = await this.read();
    const { plan, problems } = planSchedule(s);
    if (problems.length && problems.join("|") !== this.reported) {
      this.logger.warn("scheduler settings ignored; keeping the last good schedule", { problems });
    }
    this.reported = problems.join("|");
    if (plan) this.lastGood = plan;
    const key = JSON.stringify({ enabled: s.enabled, plan: this.lastGood });
    if (key === this.applied) return;
    this.applied = key;
    this.apply(s.enabled ? this.lastGood : null);
  }

  private apply(plan: SchedulePlan | null): void {
    if (!plan) {
      this.scheduler.remove("current_price");
      this.scheduler.remove("history_sync");
      this.logger.info("price jobs off");
      return;
    }
    this.scheduler.add({
      name: "current_price", patterns: [plan.currentPrice.pattern], intervalSeconds: plan.currentPrice.intervalSeconds,
      run: () => this.jobs.currentPrice(),
    });
    const { horizonDays, patterns, timezone } = plan.historySync;
    this.scheduler.add({ name: "history_sync", patterns, timezone, run: () => this.jobs.historySync(horizonDays) });
    this.logger.info("price jobs scheduled", { every_minutes: plan.currentPrice.intervalSeconds / 60, history_sync: patterns, timezone });
  }

  private async read(): Promise<SchedulerSettings> {
    return {
      enabled: await this.settings.bool("scheduler_enabled"),
      frequencyMinutes: await this.settings.int("scheduler_current_price_frequency_minutes"),
      horizonDays: await this.settings.int("scheduler_history_sync_horizon_days"),
      syncDays: String(await this.settings.str("scheduler_history_sync_days")),
      syncTimes: String(await this.settings.str("scheduler_history_sync_times")),
      timezone: String(await this.settings.str("scheduler_timezone")),
    };
  }
}
