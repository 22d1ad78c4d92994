import { z } from "zod";
import type { UserSettings } from "../../../core/settings/user-settings.entity.ts";
import type { User } from "../../../core/users/user.entity.ts";
import { CurrencyField, LanguageField } from "../../http/fields.ts";

export const Account = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  is_active: z.boolean(),
  is_superuser: z.boolean(),
  created_at: z.string(),
});

export const UserSettingsBody = z.object({
  language: z.string(),
  base_currency: z.string(),
  theme: z.string(),
  avatar_url: z.string().nullable(),
});

export const RegisterRequest = z.object({
  username: z.string().trim().min(3).max(50).regex(/^[A-Za-z0-9_.-]+$/, "letters, digits, '_', '.' and '-' only"),
  email: z.email().max(254),
  password: z.string().min(8).max(1024),
}).strict();

export const LoginRequest = z.object({
  username: z.string().min(1).max(254),
  password: z.string().min(1).max(1024),
}).strict();

export const ChangePasswordRequest = z.object({
  current_password: z.string().min(1).max(1024),
  new_password: z.string().min(8).max(1024),
}).strict();

export const AuthResponse = z.object({
  user: Account,
  user_settings: UserSettingsBody.optional(),
  message: z.string(),
});

export const MeResponse = z.object({ user: Account });
export const MessageResponse = z.object({ message: z.string() });

export const PreferencesRequest = z.object({
  language: LanguageField.optional(),
  currency: CurrencyField.optional(),
}).strict().refine((b) => b.language !== undefined || b.currency !== undefined, "Send language, currency or both");

export const PreferencesResponse = z.object({ language: z.string(), currency: z.string() });

export function toAccount(u: User): z.infer<typeof Account> {
  return {
    id: u.id,
    username: u.username,
    email: u.email,
    is_active: u.isActive,
    is_superuser: u.isSuperuser,
    created_at: new Date(u.createdAt).toISOString(),
  };
}

export function toUserSettings(s: UserSettings): z.infer<typeof UserSettingsBody> {
  return { language: s.language, base_currency: s.baseCurrency, theme: s.theme, avatar_url: s.avatarUrl };
}
