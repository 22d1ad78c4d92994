import countries from "i18n-iso-countries";
import { NameIndex, memoByLocale } from "./normalize.ts";

export interface CountryRecord {
  flagEmoji: string;
  iso2: string;
  iso3: string;
  name: string;
}

/** ISO 3166-1 alpha-2 → alpha-3, as shipped by i18n-iso-countries (includes Kosovo, XK/XKK). */
const ALPHA3 = countries.getAlpha2Codes();
const ISO2_CODES = Object.keys(ALPHA3).sort();
const ISO3_CODES = new Set(Object.values(ALPHA3));

/** Names in these languages are matched too, after English and the caller's language. */
const EXTRA_LANGUAGES = ["de", "fr", "it", "es", "pt", "nl"];

/** Common English names that neither ISO nor CLDR lists, mapped to alpha-2. */
const ALIASES: Record<string, string> = {
  America: "US", "United States": "US", Britain: "GB", England: "GB", Scotland: "GB", Wales: "GB",
  "Northern Ireland": "GB", Holland: "NL", UAE: "AE", "North Korea": "KP", "South Korea": "KR",
  Korea: "KR", Russia: "RU", Vietnam: "VN", Iran: "IR", Syria: "SY", Laos: "LA", Bolivia: "BO",
  Venezuela: "VE", Tanzania: "TZ", Moldova: "MD", Macedonia: "MK", Swaziland: "SZ", Burma: "MM",
  "Cape Verde": "CV", Vatican: "VA", "Vatican City": "VA", Palestine: "PS", "East Timor": "TL",
  Brunei: "BN", Micronesia: "FM", "Czech Republic": "CZ", Turkey: "TR", "Ivory Coast": "CI",
};

/**
 * Named regions for `/utilities/countries/normalize` (kept short on purpose). EU and euro area
 * follow treaty membership as of 2026 (Croatia joined the euro in 2023, Bulgaria on 2026-01-01);
 * G7 is the fixed group; Europe, Asia and North America follow the UN M49 geoscheme, with Cyprus
 * (an EU member that M49 files under Western Asia) also counted in Europe and Taiwan, which M49
 * does not list, in Asia. "Emerging markets" is left out: its membership belongs to index
 * providers and changes every year.
 */
export const REGIONS: readonly { iso3: readonly string[]; names: readonly string[] }[] = [
  {
    names: ["European Union", "EU", "EU27", "EU-27"],
    iso3: ["AUT", "BEL", "BGR", "CYP", "CZE", "DEU", "DNK", "ESP", "EST", "FIN", "FRA", "GRC", "HRV", "HUN",
      "IRL", "ITA", "LTU", "LUX", "LVA", "MLT", "NLD", "POL", "PRT", "ROU", "SVK", "SVN", "SWE"],
  },
  {
    names: ["Eurozone", "Euro zone", "Euro area", "Euroarea"],
    iso3: ["AUT", "BEL", "BGR", "CYP", "DEU", "ESP", "EST", "FIN", "FRA", "GRC", "HRV", "IRL", "ITA", "LTU",
      "LUX", "LVA", "MLT", "NLD", "PRT", "SVK", "SVN"],
  },
  {
    names: ["Europe"],
    iso3: ["ALA", "ALB", "AND", "AUT", "BEL", "BGR", "BIH", "BLR", "CHE", "CYP", "CZE", "DEU", "DNK", "ESP",
      "EST", "FIN", "FRA", "FRO", "GBR", "GGY", "GIB", "GRC", "HRV", "HUN", "IMN", "IRL", "ISL", "ITA", "JEY",
      "LIE", "LTU", "LUX", "LVA", "MCO", "MDA", "MKD", "MLT", "MNE", "NLD", "NOR", "POL", "PRT", "ROU", "RUS",
      "SJM", "SMR", "SRB", "SVK", "SVN", "SWE", "UKR", "VAT"],
  },
  {
    names: ["North America", "Northern America"],
    iso3: ["BMU", "CAN", "GRL", "SPM", "USA"],
  },
  {
    names: ["Asia"],
    iso3: ["AFG", "ARE", "ARM", "AZE", "BGD", "BHR", "BRN", "BTN", "CHN", "CYP", "GEO", "HKG", "IDN", "IND",
      "IRN", "IRQ", "ISR", "JOR", "JPN", "KAZ", "KGZ", "KHM", "KOR", "KWT", "LAO", "LBN", "LKA", "MAC", "MDV",
      "MMR", "MNG", "MYS", "NPL", "OMN", "PAK", "PHL", "PRK", "PSE", "QAT", "SAU", "SGP", "SYR", "THA", "TJK",
      "TKM", "TLS", "TUR", "TWN", "UZB", "VNM", "YEM"],
  },
  {
    names: ["G7", "Group of Seven"],
    iso3: ["CAN", "DEU", "FRA", "GBR", "ITA", "JPN", "USA"],
  },
];

/** 🇮🇹 from "IT": each letter becomes its regional indicator symbol. */
export function flagEmoji(iso2: string): string {
  return String.fromCodePoint(...[...iso2.toUpperCase()].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
}

/** Every country with its name in `language` (English as fallback), sorted by that name. */
export const listCountries = memoByLocale((language: string): readonly CountryRecord[] => {
  const names = new Intl.DisplayNames(language, { type: "region", fallback: "none" });
  const collator = new Intl.Collator(language);
  return ISO2_CODES
    .map((iso2) => ({
      flagEmoji: flagEmoji(iso2),
      iso2,
      iso3: ALPHA3[iso2]!,
      name: names.of(iso2) ?? countries.getName(iso2, "en") ?? iso2,
    }))
    .sort((a, b) => collator.compare(a.name, b.name) || a.iso2.localeCompare(b.iso2));
});

/** All names of every country in `language`: CLDR's, ISO's and, without parentheses, both again. */
function nameIndex(language: string, extra: Record<string, string> = {}): NameIndex {
  const index = new NameIndex();
  const display = new Intl.DisplayNames(language, { type: "region", fallback: "none" });
  const primary = language.split("-")[0]!.toLowerCase();
  const iso = countries.langs().includes(primary) ? countries.getNames(primary, { select: "all" }) : {};
  for (const iso2 of ISO2_CODES) {
    for (const name of [display.of(iso2), ...(iso[iso2] ?? [])]) {
      if (!name) continue;
      index.add(name, iso2);
      index.add(name.replace(/\s*\(.*\)\s*/g, " "), iso2);
    }
  }
  for (const [alias, iso2] of Object.entries(extra)) index.add(alias, iso2);
  return index;
}

const englishIndex = nameIndex("en", ALIASES);
const countryIndex = memoByLocale((language: string) => nameIndex(language));
const REGION_INDEX = new NameIndex();
for (const [i, region] of REGIONS.entries()) for (const name of region.names) REGION_INDEX.add(name, String(i));

export interface CountryMatch {
  iso3: string[];
  matchType: "exact" | "region" | "not_found";
}

/**
 * Resolves free text to alpha-3 codes: an ISO code or a country name (English first, with common
 * aliases; then `language`, then a few major European languages) is `exact`; a named region
 * gives its members, sorted, as `region`.
 */
export function normalizeCountry(params: { language?: string; name: string }): CountryMatch {
  const text = params.name.trim();
  const code = text.toUpperCase();
  if (ALPHA3[code]) return { iso3: [ALPHA3[code]!], matchType: "exact" };
  if (ISO3_CODES.has(code)) return { iso3: [code], matchType: "exact" };
  const region = REGION_INDEX.get(text)[0];
  if (region !== undefined) return { iso3: [...REGIONS[Number(region)]!.iso3].sort(), matchType: "region" };
  const languages = new Set([params.language ?? "en", ...EXTRA_LANGUAGES]);
  languages.delete("en");
  for (const index of [englishIndex, ...[...languages].map(countryIndex)]) {
    const found = index.get(text);
    if (found.length) return { iso3: found.map((iso2) => ALPHA3[iso2]!).sort(), matchType: "exact" };
  }
  return { iso3: [], matchType: "not_found" };
}
