import { describe, expect, test } from "bun:test";
import { createLogger } from "../../host/logger.ts";
import { Scheduler } from "../../host/scheduler/scheduler.ts";
import { tempDataDir } from "../helpers/server.ts";

describe("scheduler", () => {
  test("a run records last-run info and appends to the job log; partial when some items failed", async () => {
    const s = new Scheduler(tempDataDir(), createLogger("silent"));
    expect(s.jobInfo("current_price")).toMatchObject({ lastRunAt: null, lastStatus: null });
    await s.runNow({ name: "current_price", patterns: ["* * * * *"], run: async () => ({ itemsOk: 3, itemsErr: 0 }) });
    await s.runNow({ name: "current_price", patterns: ["* * * * *"], run: async () => ({ itemsOk: 2, itemsErr: 1 }) });
    expect(s.jobInfo("current_price")).toMatchObject({ lastStatus: "partial", lastItemsOk: 2, lastItemsErr: 1 });
    const log = s.log();
    expect(log.map((e) => e.status)).toEqual(["partial", "ok"]);
    expect(s.log(new Date(Date.now() + 60_000))).toEqual([]);
  });

  test("a housekeeping job (the minutely settings watch) leaves the job log to the price jobs unless it fails", async () => {
    const s = new Scheduler(tempDataDir(), createLogger("silent"));
    await s.runNow({ name: "scheduler_settings_watch", housekeeping: true, patterns: ["* * * * *"], run: async () => ({ itemsOk: 0, itemsErr: 0 }) });
    expect(s.log()).toEqual([]);
    expect(s.jobInfo("scheduler_settings_watch").lastRunAt).toBeNull();
    await s.runNow({ name: "scheduler_settings_watch", housekeeping: true, patterns: ["* * * * *"], run: async () => { throw new Error("settings unreadable"); } });
    expect(s.log().map((e) => [e.job, e.status, e.error])).toEqual([["scheduler_settings_watch", "error", "settings unreadable"]]);
  });

  test("a throwing job is recorded as error and never throws out of the scheduler", async () => {
    const s = new Scheduler(tempDataDir(), createLogger("silent"));
    const entry = await s.runNow({ name: "history_sync", patterns: ["* * * * *"], run: async () => { throw new Error("upstream down"); } });
    expect(entry).toMatchObject({ status: "error", error: "upstream down" });
    expect(s.jobInfo("history_sync").lastStatus).toBe("error");
  });

  test("registered jobs fire on their cron pattern and stop with the scheduler", async () => {
    const s = new Scheduler(tempDataDir(), createLogger("silent"));
    let runs = 0;
    s.add({ name: "tick", patterns: ["* * * * * *"], run: async () => (runs++, { itemsOk: 1, itemsErr: 0 }) });
    expect(s.names()).toEqual(["tick"]);
    await Bun.sleep(2200);
    s.stop();
    const seen = runs;
    expect(seen).toBeGreaterThanOrEqual(1);
    await Bun.sleep(1200);
    expect(runs).toBe(seen);
  });
});
