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
import { es } from "../i18n/es.ts";
import { fr } from "../i18n/fr.ts";
import { it } from "../i18n/it.ts";
import { nl } from "../i18n/nl.ts";
import { pt } from "../i18n/pt.ts";

export type Catalog = Readonly<Record<string, string>>;

/** Languages with a catalog, besides English. */
export const CATALOGS: Readonly<Record<string, Catalog>> = { de, es, fr, it, nl, pt };

let catalog: Catalog | null = null;
let current = "en";
/** Text of lazily loaded pages, per language, added when their chunk loads (see addCatalogs). */
const extra: Record<string, Record<string, string>> = {};

/**
 * Adds the text of a lazily loaded page (`i18n/lab.ts`), so the first load does not carry it.
 * Called at the top of the page's module, before it renders.
 */
export function addCatalogs(catalogs: Readonly<Record<string, Catalog>>): void {
  for (const [language, entries] of Object.entries(catalogs)) extra[language] = { ...extra[language], ...entries };
}

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
  const s = catalog?.[text] ?? extra[current]?.[text] ?? text;
  if (!params) return s;
  return s.replace(/\{(\w+)\}/g, (whole, key: string) => key in params ? String(params[key]) : whole);
}

/** Marks a text for translation where it is declared (module-level tables); translate it with t() when shown. */
export function msg(text: string): string {
  return text;
}
