/**
 * Interface text in the user's language (the `language` preference). Messages are keyed by their
 * English text, so English needs no catalog and a missing translation shows the English words.
 * `{name}` placeholders are filled from `params`. Catalogs live in web/src/i18n/<language>.ts;
 * test/web/i18n.test.ts checks that every t()/msg() text of web/src has a translation in each.
 *
 * The shell calls setLanguage() before rendering; a language change re-renders the whole tree
 * (AppContext changes), so every t() call picks the new catalog up.
 */
import { de } from "../i18n/de.ts";
import { it } from "../i18n/it.ts";

export type Catalog = Readonly<Record<string, string>>;

/** Languages with a catalog, besides English. */
export const CATALOGS: Readonly<Record<string, Catalog>> = { de, it };

let catalog: Catalog | null = null;
let current = "en";

/** The catalog's language for a preference ("de", "de-CH", "pt_BR"); English when there is none. */
export function catalogLanguage(tag: string | null | undefined): string {
  const base = (tag ?? "").toLowerCase().split(/[-_]/)[0] ?? "";
  return base in CATALOGS ? base : "en";
}

export function setLanguage(tag: string | null | undefined): void {
  current = catalogLanguage(tag);
  catalog = CATALOGS[current] ?? null;
}

export function currentLanguage(): string {
  return current;
}

/** The text in the current language, with `{name}` placeholders filled in. */
export function t(text: string, params?: Record<string, string | number>): string {
  const s = catalog?.[text] ?? text;
  if (!params) return s;
  return s.replace(/\{(\w+)\}/g, (whole, key: string) => key in params ? String(params[key]) : whole);
}

/** Marks a text for translation where it is declared (module-level tables); translate it with t() when shown. */
export function msg(text: string): string {
  return text;
}
