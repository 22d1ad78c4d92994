import { z } from "zod";
import type { GlobalSetting } from "../../../core/settings/global-setting.entity.ts";
import type { CacheStatus } from "../../../core/cache/cache-registry.ts";
import type { JobInfo } from "../../scheduler/scheduler.ts";
import { CurrencyField, LanguageField } from "../../http/fields.ts";

export const GlobalSettingRead = z.object({
  key: z.string(),
  value: z.string(),
  value_type: z.enum(["str", "int", "bool", "json"]),
  description: z.string().nullable(),
  updated_at: z.string().nullable(),
  updated_by: z.number().int().nullable(),
});

export const GlobalSettingsList = z.object({ items: z.array(GlobalSettingRead) });

/** Settings per bulk update (docs/security.md "Bulk-read limits"); beyond it 413 LIMIT_EXCEEDED. */
export const MAX_SETTING_ITEMS = 100;
export const GlobalBulkRequest = z.object({
  items: z.array(z.object({
    key: z.string().min(1).max(100),
    value: z.string().max(65536),
  }).strict()).min(1).max(MAX_SETTING_ITEMS),
}).strict();

export const UserSettingsUpdate = z.object({
  language: LanguageField.optional(),
  base_currency: CurrencyField.optional(),
  theme: z.enum(["light", "dark", "auto"]).optional(),
  avatar_url: z.string().max(500).nullable().optional(),
}).strict();

export const CacheStatusList = z.object({
  items: z.array(z.object({
    name: z.string(),
    current_size: z.number().int(),
    maxsize: z.number().int(),
    ttl_seconds: z.number().int(),
  })),
});

export const CacheClearResponse = z.object({
  cleared_count: z.number().int(),
  name: z.string().optional(),
  message: z.string(),
});

export function toGlobalSettingRead(s: GlobalSetting): z.infer<typeof GlobalSettingRead> {
  return {
    key: s.key,
    value: s.value,
    value_type: s.valueType,
    description: s.description,
    updated_at: s.updatedAt ? new Date(s.updatedAt).toISOString() : null,
    updated_by: s.updatedBy,
  };
}

export function toCacheStatus(c: CacheStatus) {
  return { name: c.name, current_size: c.currentSize, maxsize: c.maxsize, ttl_seconds: c.ttlSeconds };
}

const JobInfoBody = z.object({
  last_run_at: z.string().nullable(),
  last_duration_s: z.number().nullable(),
  last_status: z.enum(["ok", "partial", "error"]).nullable(),
  last_items_ok: z.number().int(),
  last_items_err: z.number().int(),
  next_run_at: z.string().nullable(),
});

export const SchedulerState = z.object({
  current_price: JobInfoBody,
  history_sync: JobInfoBody,
  server_tz: z.string(),
  server_now_utc: z.string(),
  scheduler_timezone: z.string(),
  scheduler_enabled: z.boolean(),
});

export const SchedulerLog = z.object({
  items: z.array(z.object({
    job: z.string(),
    started_at: z.string(),
    duration_s: z.number(),
    status: z.enum(["ok", "partial", "error"]),
    items_ok: z.number().int(),
    items_err: z.number().int(),
    error: z.string().optional(),
  })),
});

export const SchedulerLogQuery = z.object({
  since: z.iso.datetime({ offset: true }).optional(),
});

export function toJobInfo(j: JobInfo, nextRun: Date | null): z.infer<typeof JobInfoBody> {
  return {
    next_run_at: nextRun ? nextRun.toISOString() : null,
    last_run_at: j.lastRunAt,
    last_duration_s: j.lastDurationS,
    last_status: j.lastStatus,
    last_items_ok: j.lastItemsOk,
    last_items_err: j.lastItemsErr,
  };
}
