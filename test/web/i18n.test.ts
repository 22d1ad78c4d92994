import { afterEach, expect, test } from "bun:test";
import { Glob } from "bun";
import { join } from "node:path";
import { isValidElement, type VNode } from "preact";
import { MainNav } from "../../web/src/app.tsx";
import { LAB } from "../../web/src/i18n/lab.ts";
import { de } from "../../web/src/i18n/de.ts";
import { es } from "../../web/src/i18n/es.ts";
import { fr } from "../../web/src/i18n/fr.ts";
import { it as itCatalog } from "../../web/src/i18n/it.ts";
import { nl } from "../../web/src/i18n/nl.ts";
import { pt } from "../../web/src/i18n/pt.ts";
import { CATALOG_LANGUAGES, catalogLanguage, loadLanguage, setLanguage, t } from "../../web/src/lib/i18n.ts";
import { LANGUAGES } from "../../web/src/pages/settings.tsx";
import { ROOT } from "../helpers/server.ts";

/** Every catalog file, read here directly (the app fetches each on first use). */
const CATALOGS = { de, es, fr, it: itCatalog, nl, pt };

afterEach(() => setLanguage("en"));

/** Every text of web/src marked for translation: the first argument of t("…") and msg("…"). */
async function markedTexts(): Promise<Set<string>> {
  const keys = new Set<string>();
  for await (const file of new Glob("web/src/**/*.{ts,tsx}").scan(ROOT)) {
    if (file.includes("/i18n/") || file.endsWith(".d.ts")) continue;
    const src = await Bun.file(join(ROOT, file)).text();
    for (const m of src.matchAll(/\b(?:t|msg)\(\s*"((?:[^"\\]|\\.)*)"/g)) keys.add(JSON.parse(`"${m[1]}"`));
  }
  return keys;
}

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

/** The visible text of a rendered tree (strings and numbers, depth first). */
function textOf(node: unknown): string[] {
  if (typeof node === "string" || typeof node === "number") return [String(node)];
  if (Array.isArray(node)) return node.flatMap(textOf);
  if (isValidElement(node)) return textOf((node as VNode<{ children?: unknown }>).props.children);
  return [];
}

test("every catalog translates every marked text, with the same placeholders, and holds no stale text", async () => {
  const keys = await markedTexts();
  expect(keys.size).toBeGreaterThan(300);
  // Every language the settings offer besides English has a catalog.
  expect(Object.keys(CATALOGS).sort()).toEqual(LANGUAGES.map(([code]) => code).filter((c) => c !== "en").sort());
  expect([...CATALOG_LANGUAGES].sort()).toEqual(Object.keys(CATALOGS).sort());
  // The lazily loaded pages' text (i18n/lab.ts) counts with each language's catalog.
  expect(Object.keys(LAB).sort()).toEqual(Object.keys(CATALOGS).sort());
  for (const [language, main] of Object.entries(CATALOGS)) {
    const catalog = { ...main, ...LAB[language] };
    const missing = [...keys].filter((k) => !(k in catalog));
    const stale = Object.keys(catalog).filter((k) => !keys.has(k));
    expect({ language, missing, stale }).toEqual({ language, missing: [], stale: [] });
    for (const [k, v] of Object.entries(catalog)) {
      expect({ k, placeholders: placeholders(v) }).toEqual({ k, placeholders: placeholders(k) });
      expect(v.trim()).not.toBe("");
    }
  }
});

test("switching the language preference changes the navigation's text", async () => {
  setLanguage("en");
  const english = textOf(MainNav({ path: "/" }));
  expect(english).toEqual(["Dashboard", "Holdings", "Performance", "Income", "Realised gains", "Risk lab", "Tools", "Brokers", "Transactions", "Assets", "FX", "Import", "Uploads", "Settings"]);
  await loadLanguage("de");
  expect(textOf(MainNav({ path: "/" }))).toEqual(["Übersicht", "Bestände", "Wertentwicklung", "Erträge", "Realisierte Gewinne", "Risikolabor", "Werkzeuge", "Broker", "Buchungen", "Anlagen", "Devisen", "Import", "Dateien", "Einstellungen"]);
  await loadLanguage("it-CH");
  expect(textOf(MainNav({ path: "/" }))).toEqual(["Riepilogo", "Posizioni", "Rendimento", "Proventi", "Plusvalenze realizzate", "Laboratorio di rischio", "Strumenti", "Broker", "Transazioni", "Titoli", "Cambi", "Importa", "File", "Impostazioni"]);
  await loadLanguage("fr");
  expect(textOf(MainNav({ path: "/" }))).toEqual(["Tableau de bord", "Positions", "Performance", "Revenus", "Plus-values réalisées", "Labo de risque", "Outils", "Courtiers", "Opérations", "Actifs", "Change", "Importer", "Fichiers", "Paramètres"]);
  await loadLanguage("es-MX");
  expect(textOf(MainNav({ path: "/" }))).toEqual(["Panel", "Posiciones", "Rentabilidad", "Ingresos", "Ganancias realizadas", "Laboratorio de riesgo", "Herramientas", "Brókers", "Operaciones", "Activos", "Divisas", "Importar", "Archivos", "Ajustes"]);
  await loadLanguage("nl-BE");
  expect(textOf(MainNav({ path: "/" }))).toEqual(["Overzicht", "Posities", "Rendement", "Inkomsten", "Gerealiseerde winsten", "Risicolab", "Hulpmiddelen", "Brokers", "Transacties", "Effecten", "Valuta", "Importeren", "Bestanden", "Instellingen"]);
  await loadLanguage("pt_BR");
  expect(textOf(MainNav({ path: "/" }))).toEqual(["Painel", "Posições", "Desempenho", "Proventos", "Ganhos realizados", "Laboratório de risco", "Ferramentas", "Corretoras", "Transações", "Ativos", "Câmbio", "Importar", "Arquivos", "Configurações"]);
  setLanguage("en");
  expect(textOf(MainNav({ path: "/" }))).toEqual(english);
});

test("regional and unknown languages, placeholders", async () => {
  expect(catalogLanguage("de-CH")).toBe("de");
  expect(catalogLanguage("DE_at")).toBe("de");
  expect(catalogLanguage("it")).toBe("it");
  expect(catalogLanguage("fr-CA")).toBe("fr");
  expect(catalogLanguage("ja")).toBe("en");
  expect(catalogLanguage(undefined)).toBe("en");
  await loadLanguage("de-CH");
  expect(t("Import {n} rows", { n: 3 })).toBe("3 Zeilen importieren");
  expect(t("Delete the broker \"{name}\" and all its transactions? This cannot be undone.", { name: "<b>{n}</b>" }))
    .toBe("Den Broker „<b>{n}</b>“ und alle seine Buchungen löschen? Das kann nicht rückgängig gemacht werden.");
  await loadLanguage("fr");
  expect(t("Import {n} rows", { n: 3 })).toBe("Importer 3 lignes");
  await loadLanguage("ja");
  expect(t("Import {n} rows", { n: 3 })).toBe("Import 3 rows");
  expect(t("A text nobody translated")).toBe("A text nobody translated");
});
