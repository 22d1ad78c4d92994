import { inject, injectable } from "tsyringe";
import { Database } from "../db/database.ts";
import { NotFoundError } from "../errors/domain-error.ts";
import { GLOBAL_DEFAULTS, GLOBAL_DEFAULTS_BY_KEY, parseGlobalValue } from "./global-defaults.ts";
import { GlobalSetting } from "./global-setting.entity.ts";

/** Global key-value settings. Read fresh from the database on every call, so a saved value applies at once. */
@injectable()
export class GlobalSettingsService {
  constructor(@inject(Database) private readonly db: Database) {}

  /** Creates the rows that are missing (idempotent); returns the keys created. */
  initialize(): Promise<string[]> {
    return this.db.write(async (tx) => {
      const existing = new Set((await tx.find(GlobalSetting, { select: { key: true } })).map((r) => r.key));
      const missing = GLOBAL_DEFAULTS.filter((d) => !existing.has(d.key));
      for (const d of missing) {
        await tx.insert(GlobalSetting, {
          key: d.key, value: d.value, valueType: d.valueType, description: d.description, updatedAt: null, updatedBy: null,
        });
      }
      return missing.map((d) => d.key);
    });
  }

  list(): Promise<GlobalSetting[]> {
    return this.db.reads.find(GlobalSetting, { order: { key: "ASC" } });
  }

  async get(key: string): Promise<GlobalSetting> {
    const row = await this.db.reads.findOneBy(GlobalSetting, { key });
    if (row) return row;
    const fallback = GLOBAL_DEFAULTS_BY_KEY.get(key);
    if (!fallback) throw new NotFoundError("SETTING_NOT_FOUND", `Setting '${key}' not found`, { key });
    return Object.assign(new GlobalSetting(), { ...fallback, updatedAt: null, updatedBy: null });
  }

  /** Typed value of a known key; a missing row falls back to its default. */
  async value<T = unknown>(key: string): Promise<T> {
    const row = await this.get(key);
    return parseGlobalValue(row.value, row.valueType) as T;
  }

  int(key: string): Promise<number> {
    return this.value<number>(key);
  }

  bool(key: string): Promise<boolean> {
    return this.value<boolean>(key);
  }

  str(key: string): Promise<string> {
    return this.value<string>(key);
  }

  /**
   * Stores each value exactly as sent, with no type or range check (reads parse it). All or nothing:
   * an unknown key refuses the whole batch.
   */
  updateMany(items: { key: string; value: string }[], byUserId: number): Promise<GlobalSetting[]> {
    return this.db.write(async (tx) => {
      const out: GlobalSetting[] = [];
      for (const { key, value } of items) {
        const known = GLOBAL_DEFAULTS_BY_KEY.get(key);
        let row = await tx.findOneBy(GlobalSetting, { key });
        if (!row && !known) throw new NotFoundError("SETTING_NOT_FOUND", `Setting '${key}' not found`, { key });
        row ??= Object.assign(new GlobalSetting(), {
          key, valueType: known!.valueType, description: known!.description,
        });
        row.value = value;
        row.updatedAt = new Date();
        row.updatedBy = byUserId;
        out.push(await tx.save(GlobalSetting, row));
      }
      return out;
    });
  }
}
