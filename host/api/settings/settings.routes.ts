import { Elysia } from "elysia";
import { z } from "zod";
import { CacheRegistry } from "../../../core/cache/cache-registry.ts";
import { GlobalSettingsService } from "../../../core/settings/global-settings.service.ts";
import { UserSettingsService } from "../../../core/settings/user-settings.service.ts";
import { toUserSettings, UserSettingsBody } from "../auth/auth.schema.ts";
import type { HttpDeps } from "../../http/deps.ts";
import { bulkLimits, type Limit, listLength } from "../../http/bulk-limits.ts";
import { ErrorBody, errorResponses } from "../../http/errors.ts";
import type { SessionPlugin } from "../../http/session.ts";
import {
  CacheClearResponse, CacheStatusList, GlobalBulkRequest, GlobalSettingRead, GlobalSettingsList, MAX_SETTING_ITEMS,
  SchedulerLog, SchedulerLogQuery, SchedulerState, toCacheStatus, toGlobalSettingRead, toJobInfo, UserSettingsUpdate,
} from "./settings.schema.ts";

const SETTINGS_ITEMS: Limit = { max: MAX_SETTING_ITEMS, unit: "settings", count: ({ body }) => listLength(body?.items) };

export function settingsRoutes(deps: HttpDeps, session: SessionPlugin) {
  const globals = deps.container.resolve(GlobalSettingsService);
  const userSettings = deps.container.resolve(UserSettingsService);
  const caches = deps.container.resolve(CacheRegistry);
  const audit = deps.audit;

  return new Elysia({ prefix: "/settings", tags: ["settings"] })
    .use(session)
    .use(bulkLimits)
    .get("/user", async ({ user }) => toUserSettings(await userSettings.get(user.id)), {
      auth: true,
      response: { 200: UserSettingsBody, ...errorResponses },
      detail: { summary: "The current user's settings (created with the global defaults on first read)" },
    })
    .put("/user", async ({ user, body }) => toUserSettings(await userSettings.update(user.id, {
      language: body.language, baseCurrency: body.base_currency, theme: body.theme, avatarUrl: body.avatar_url,
    })), {
      auth: true,
      body: UserSettingsUpdate,
      response: { 200: UserSettingsBody, ...errorResponses },
      detail: { summary: "Update the current user's settings; omitted fields stay as they are" },
    })
    .get("/global", async () => ({ items: (await globals.list()).map(toGlobalSettingRead) }), {
      auth: true,
      response: { 200: GlobalSettingsList, ...errorResponses },
      detail: { summary: "Global settings with their stored string values" },
    })
    .get("/global/:key", async ({ params }) => toGlobalSettingRead(await globals.get(params.key)), {
      auth: true,
      params: z.object({ key: z.string().min(1).max(100) }),
      response: { 200: GlobalSettingRead, ...errorResponses },
      detail: { summary: "One global setting (404 for an unknown key)" },
    })
    .patch("/global/bulk", async ({ body, user }) => {
      const rows = await globals.updateMany(body.items, user.id);
      audit.record("settings.global.update", user, { keys: rows.map((r) => r.key) });
      await deps.settingsChanged();
      return { items: rows.map(toGlobalSettingRead) };
    }, {
      admin: true,
      limits: [SETTINGS_ITEMS],
      body: GlobalBulkRequest,
      response: { 200: GlobalSettingsList, ...errorResponses, 413: ErrorBody },
      detail: { summary: "Store global values as sent, with no type or range check (admin; all or nothing)" },
    })
    .post("/global/initialize", async ({ user }) => {
      const created = await globals.initialize();
      audit.record("settings.global.initialize", user, { created });
      await deps.settingsChanged();
      return { message: created.length ? `Created ${created.length} missing settings` : "All settings already exist", created };
    }, {
      admin: true,
      response: { 200: z.object({ message: z.string(), created: z.array(z.string()) }), ...errorResponses },
      detail: { summary: "Create missing global setting rows with their defaults (admin; idempotent)" },
    })
    .get("/scheduler/state", async () => ({
      current_price: toJobInfo(deps.scheduler.jobInfo("current_price"), deps.scheduler.nextRun("current_price")),
      history_sync: toJobInfo(deps.scheduler.jobInfo("history_sync"), deps.scheduler.nextRun("history_sync")),
      server_tz: "UTC",
      server_now_utc: new Date().toISOString().slice(11, 16),
      scheduler_timezone: await globals.str("scheduler_timezone"),
      scheduler_enabled: await globals.bool("scheduler_enabled"),
    }), {
      admin: true,
      response: { 200: SchedulerState, ...errorResponses },
      detail: { summary: "Last run of the price and history jobs, server time and scheduler time zone (admin)" },
    })
    .get("/scheduler/log", ({ query }) => ({
      items: deps.scheduler.log(query.since ? new Date(query.since) : undefined),
    }), {
      admin: true,
      query: SchedulerLogQuery,
      response: { 200: SchedulerLog, ...errorResponses },
      detail: { summary: "Scheduler job runs, newest first; `since` (ISO date-time) keeps later ones (admin)" },
    })
    .get("/cache/status", async () => {
      // Sizes as a read would find them: the writes declared since the last read are applied first.
      await caches.sync();
      return { items: caches.status().map(toCacheStatus) };
    }, {
      auth: true,
      response: { 200: CacheStatusList, ...errorResponses },
      detail: { summary: "Caches created so far in this process, with sizes and TTLs" },
    })
    .post("/cache/clear-all", ({ user }) => {
      const cleared = caches.clearAll();
      audit.record("cache.clear_all", user, { cleared_count: cleared });
      return { cleared_count: cleared, message: `Cleared ${cleared} caches` };
    }, {
      admin: true,
      response: { 200: CacheClearResponse, ...errorResponses },
      detail: { summary: "Clear every cache of this process (admin)" },
    })
    .post("/cache/clear/:name", ({ params, user }) => {
      caches.clear(params.name);
      audit.record("cache.clear", user, { cache: params.name });
      return { cleared_count: 1, name: params.name, message: `Cleared cache '${params.name}'` };
    }, {
      admin: true,
      params: z.object({ name: z.string().min(1).max(100) }),
      response: { 200: CacheClearResponse, ...errorResponses },
      detail: { summary: "Clear one cache of this process (admin; 404 for an unknown name)" },
    });
}
