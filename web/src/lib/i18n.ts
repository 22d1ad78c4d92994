/**
 * Interface text in the user's language (the `language` preference). Messages are keyed by their
 * English text, so English needs no catalog and a missing translation shows the English words.
 * `{name}` placeholders are filled from `params`. Catalogs live in web/src/i18n/<language>.ts;
 * test/web/i18n.test.ts checks that every t()/msg() text of web/src has a translation in each.
 *
 * Each language's catalog is its own chunk, fetched when that language is first asked for
 * (`loadLanguage`): a first load carries none of the six (together ~60 KB gzipped), an English
 * user never fetches one. The shell awaits loadLanguage() before rendering; a language change
 * re-renders the whole tree (AppContext changes), so every t() call picks the new catalog up.
 */
export type Catalog = Readonly<Record<string, string>>;

/** Languages with a catalog, besides English: each loads on first use. */
const LOADERS: Readonly<Record<string, () => Promise<Catalog>>> = {
  de: () => import("../i18n/de.ts").then((m) => m.de),
  es: () => import("../i18n/es.ts").then((m) => m.es),
  fr: () => import("../i18n/fr.ts").then((m) => m.fr),
  it: () => import("../i18n/it.ts").then((m) => m.it),
  nl: () => import("../i18n/nl.ts").then((m) => m.nl),
  pt: () => import("../i18n/pt.ts").then((m) => m.pt),
};

/** The languages with a catalog, besides English. */
export const CATALOG_LANGUAGES: readonly string[] = Object.keys(LOADERS);

/** Catalogs fetched so far. */
const loaded: Record<string, Catalog> = {};

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
  return base in LOADERS ? base : "en";
}

/**
 * Fetches the preference's catalog if it is not here yet, then makes it the current language. A
 * catalog that cannot be fetched (offline after an upgrade) leaves the text in English.
 */
export async function loadLanguage(tag: string | null | undefined): Promise<void> {
  const language = catalogLanguage(tag);
  if (language !== "en" && !loaded[language]) {
    try {
      loaded[language] = await LOADERS[language]!();
    } catch {
      // English words are shown rather than no page at all.
    }
  }
  setLanguage(tag);
}

/** Makes a language current, with its catalog if fetched already (loadLanguage), else English words. */
export function setLanguage(tag: string | null | undefined): void {
  current = catalogLanguage(tag);
  catalog = loaded[current] ?? null;
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
