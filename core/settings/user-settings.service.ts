import { inject, injectable } from "tsyringe";
import type { EntityManager } from "typeorm";
import { Database } from "../db/database.ts";
import { GLOBAL_DEFAULTS_BY_KEY, parseGlobalValue } from "./global-defaults.ts";
import { GlobalSetting } from "./global-setting.entity.ts";
import { UserSettings } from "./user-settings.entity.ts";

export interface UserSettingsPatch {
  avatarUrl?: string | null;
  baseCurrency?: string;
  language?: string;
  theme?: string;
}

/** Fallback when neither a settings row nor the global default_currency exists. */
export const FALLBACK_BASE_CURRENCY = "EUR";

async function globalString(tx: EntityManager, key: string): Promise<string | undefined> {
  const row = await tx.findOneBy(GlobalSetting, { key });
  const value = row ? parseGlobalValue(row.value, row.valueType) : undefined;
  return typeof value === "string" && value !== "" ? value : undefined;
}

@injectable()
export class UserSettingsService {
  constructor(@inject(Database) private readonly db: Database) {}

  /** The stored row, or null; never creates one. */
  find(userId: number): Promise<UserSettings | null> {
    return this.db.reads.findOneBy(UserSettings, { userId });
  }

  /** The user's row, created on first use and seeded from the global defaults. */
  async get(userId: number): Promise<UserSettings> {
    const row = await this.db.reads.findOneBy(UserSettings, { userId });
    return row ?? this.db.write((tx) => this.ensure(tx, userId));
  }

  update(userId: number, patch: UserSettingsPatch): Promise<UserSettings> {
    return this.db.write(async (tx) => {
      const row = await this.ensure(tx, userId);
      for (const [k, v] of Object.entries(patch)) if (v !== undefined) (row as any)[k] = v;
      return tx.save(UserSettings, row);
    });
  }

  /**
   * Effective base currency: the user's row when it exists, else the global
   * default_currency, else EUR. Never creates a row.
   */
  async effectiveBaseCurrency(userId: number): Promise<string> {
    const row = await this.db.reads.findOneBy(UserSettings, { userId });
    if (row) return row.baseCurrency;
    return (await globalString(this.db.reads, "default_currency")) ?? FALLBACK_BASE_CURRENCY;
  }

  /** Inside a write: returns the row, creating it from the global defaults when missing. */
  async ensure(tx: EntityManager, userId: number): Promise<UserSettings> {
    const existing = await tx.findOneBy(UserSettings, { userId });
    if (existing) return existing;
    const seed = async (key: string) => (await globalString(tx, key)) ?? GLOBAL_DEFAULTS_BY_KEY.get(key)!.value;
    const row = Object.assign(new UserSettings(), {
      userId,
      baseCurrency: (await globalString(tx, "default_currency")) ?? FALLBACK_BASE_CURRENCY,
      language: await seed("default_language"),
      theme: await seed("default_theme"),
      avatarUrl: null,
    });
    return tx.save(UserSettings, row);
  }
}
