/**
 * The signed-in account and its preferences, shared by every page through a context.
 * Language drives number and date formats; base currency is the dashboard's default target;
 * theme is applied to <html data-theme>.
 */
import { createContext } from "preact";
import { useContext } from "preact/hooks";

export interface Me {
  id: number;
  username: string;
  email: string;
  is_superuser: boolean;
}

export interface Prefs {
  language: string;
  base_currency: string;
  theme: string;
}

export interface AppState {
  me: Me;
  prefs: Prefs;
  /** Masks every amount on screen (kept in localStorage per browser). */
  privacy: boolean;
  setPrivacy(on: boolean): void;
  /** Applies the preferences; resolves once a newly chosen language's text is here. */
  setPrefs(p: Partial<Prefs>): Promise<void>;
  logout(): Promise<void>;
}

export const AppContext = createContext<AppState | null>(null);

export function useApp(): AppState {
  const s = useContext(AppContext);
  if (!s) throw new Error("useApp outside the signed-in shell");
  return s;
}

/** The locale for Intl from the user's language setting ("en", "de", "it-CH"). */
export function localeOf(prefs: Prefs): string {
  const lang = (prefs.language || "en").replace("_", "-");
  try { return Intl.getCanonicalLocales(lang)[0] ?? "en"; } catch { return "en"; }
}

/** Applies the theme setting ("light", "dark", or anything else: follow the system). */
export function applyTheme(theme: string): void {
  const root = document.documentElement;
  if (theme === "light" || theme === "dark") root.dataset.theme = theme;
  else delete root.dataset.theme;
}
