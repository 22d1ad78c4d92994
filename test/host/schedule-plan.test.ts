import { describe, expect, test } from "bun:test";
import { Cron } from "croner";
import { planSchedule, type SchedulerSettings } from "../../host/api/assets/schedule-plan.ts";

const defaults: SchedulerSettings = {
  enabled: true, frequencyMinutes: 10, horizonDays: 14, syncDays: "mon,tue,wed,thu,fri,sat", syncTimes: "06:00,23:00", timezone: "UTC",
};

/** The next firing after `from` of any of the patterns (croner, with an injected start instant). */
function nextAfter(patterns: string[], timezone: string, from: string): string {
  const next = patterns.map((p) => new Cron(p, { timezone, paused: true }).nextRun(new Date(from))!.getTime());
  return new Date(Math.min(...next)).toISOString();
}

describe("scheduler plan from the global settings", () => {
  test("history sync fires at each listed time on the listed days, in the scheduler time zone", () => {
    const { plan } = planSchedule(defaults);
    // Saturday 2026-11-21 23:30 UTC: Sunday is not a sync day, so the next run is Monday 06:00
    expect(nextAfter(plan!.historySync.patterns, "UTC", "2026-11-21T23:30:00Z")).toBe("2026-11-23T06:00:00.000Z");
    expect(nextAfter(plan!.historySync.patterns, "UTC", "2026-11-23T06:00:01Z")).toBe("2026-11-23T23:00:00.000Z");
    const rome = planSchedule({ ...defaults, timezone: "Europe/Rome" }).plan!;
    expect(nextAfter(rome.historySync.patterns, "Europe/Rome", "2026-11-23T00:00:00Z")).toBe("2026-11-23T05:00:00.000Z");
  });

  test("the current-price job runs every N minutes", () => {
    expect(planSchedule({ ...defaults, frequencyMinutes: 15 }).plan!.currentPrice.intervalSeconds).toBe(900);
  });

  test("nonsensical values are reported, not applied", () => {
    for (const bad of [
      { frequencyMinutes: 0 }, { frequencyMinutes: -5 }, { horizonDays: 0 }, { syncTimes: "25:00" }, { syncTimes: "" },
      { syncTimes: "6am" }, { syncDays: "someday" }, { syncDays: "" }, { timezone: "Mars/Olympus" },
    ]) {
      const { plan, problems } = planSchedule({ ...defaults, ...bad });
      expect(plan).toBeNull();
      expect(problems.length).toBeGreaterThan(0);
    }
  });

  test("day names are case-insensitive and duplicates collapse", () => {
    const { plan } = planSchedule({ ...defaults, syncDays: "MON,mon,Sun", syncTimes: "07:30,07:30" });
    expect(plan!.historySync.patterns).toEqual(["0 30 7 * * 0,1"]);
  });
});
