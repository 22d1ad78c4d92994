/**
 * Turns the scheduler's global settings into cron patterns. The API stores
 * whatever it is sent, so every value is checked here: a plan with problems is not applied and
 * the scheduler keeps its last good schedule.
 */
export interface SchedulerSettings {
  enabled: boolean;
  frequencyMinutes: number;
  horizonDays: number;
  syncDays: string;
  syncTimes: string;
  timezone: string;
}

export interface SchedulePlan {
  /** Every minute, at most once per `intervalSeconds` (croner's interval option). */
  currentPrice: { intervalSeconds: number; pattern: string };
  historySync: { horizonDays: number; patterns: string[]; timezone: string };
}

const DAY_NUMBERS: Record<string, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

function validTimezone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: tz });
    return tz.trim() !== "";
  } catch {
    return false;
  }
}

export function planSchedule(s: SchedulerSettings): { plan: SchedulePlan | null; problems: string[] } {
  const problems: string[] = [];
  if (!Number.isInteger(s.frequencyMinutes) || s.frequencyMinutes < 1) {
    problems.push(`scheduler_current_price_frequency_minutes must be a whole number of minutes ≥ 1, got ${s.frequencyMinutes}`);
  }
  if (!Number.isInteger(s.horizonDays) || s.horizonDays < 1) {
    problems.push(`scheduler_history_sync_horizon_days must be a whole number of days ≥ 1, got ${s.horizonDays}`);
  }
  const times = s.syncTimes.split(",").map((t) => t.trim()).filter(Boolean);
  const badTimes = times.filter((t) => !TIME.test(t));
  if (times.length === 0 || badTimes.length) problems.push(`scheduler_history_sync_times must list HH:MM times, got "${s.syncTimes}"`);
  const days = s.syncDays.split(",").map((d) => d.trim().toLowerCase()).filter(Boolean);
  const badDays = days.filter((d) => !(d in DAY_NUMBERS));
  if (days.length === 0 || badDays.length) problems.push(`scheduler_history_sync_days must list mon..sun, got "${s.syncDays}"`);
  if (!validTimezone(s.timezone)) problems.push(`scheduler_timezone is not a known time zone: "${s.timezone}"`);
  if (problems.length) return { plan: null, problems };

  const dayList = [...new Set(days.map((d) => DAY_NUMBERS[d]!))].sort().join(",");
  return {
    plan: {
      currentPrice: { pattern: "0 * * * * *", intervalSeconds: s.frequencyMinutes * 60 },
      historySync: {
        horizonDays: s.horizonDays,
        timezone: s.timezone,
        patterns: [...new Set(times)].map((t) => `0 ${Number(t.slice(3))} ${Number(t.slice(0, 2))} * * ${dayList}`),
      },
    },
    problems,
  };
}
