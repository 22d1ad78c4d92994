import { z } from "zod";
import { canonicalLanguage } from "../../../core/reference/normalize.ts";
import type { CountryRecord } from "../../../core/reference/countries.ts";

/** A BCP 47 tag of language, optional script and optional region: en, pt-BR, zh-Hant-TW, es-419. */
const LANGUAGE_TAG = /^[A-Za-z]{2,3}(-[A-Za-z]{4})?(-([A-Za-z]{2}|\d{3}))?$/;

/*
 * Query schemas stay free of transforms and defaults: z.toJSONSchema cannot express transforms
 * (the OpenAPI generator then drops every parameter) and lists defaulted fields as required.
 * Handlers apply defaults and conversions (languageOf, flagOf).
 */
const Language = z.string()
  .regex(LANGUAGE_TAG, "a BCP 47 language tag such as en, it or pt-BR")
  .optional()
  .meta({ description: "Language of the names (BCP 47)", default: "en" });

const Name = z.string().trim().min(1).max(100).meta({ description: "Free text to resolve (1-100 characters)" });

/** Query booleans: true/false/1/0, nothing else. */
const QueryBoolean = z.enum(["true", "false", "1", "0"]).optional();

export const flagOf = (value: z.infer<typeof QueryBoolean>): boolean => value === "true" || value === "1";
export const languageOf = (value: string | undefined): string => canonicalLanguage(value ?? "en");

export const LanguageQuery = z.object({ language: Language });
export const CurrencyNormalizeQuery = z.object({ name: Name, language: Language });
export const CountryNormalizeQuery = z.object({ name: Name, language: Language });
export const SectorsQuery = z.object({
  include_other: QueryBoolean.meta({ description: "Append Other (true/false/1/0)", default: "false" }),
});

export const CurrencyList = z.object({
  currencies: z.array(z.object({ code: z.string(), name: z.string(), symbol: z.string() })),
  count: z.number().int(),
  language: z.string(),
});

export const CurrencyNormalizeResult = z.object({
  query: z.string(),
  iso_codes: z.array(z.string()),
  match_type: z.enum(["exact", "symbol", "symbol_ambiguous", "not_found"]),
  error: z.string().optional(),
});

const Country = z.object({
  iso3: z.string(),
  iso2: z.string(),
  name: z.string(),
  flag_emoji: z.string(),
});

export const CountryList = z.object({
  countries: z.array(Country),
  count: z.number().int(),
  language: z.string(),
});

export const CountryNormalizeResult = z.object({
  query: z.string(),
  iso3_codes: z.array(z.string()),
  match_type: z.enum(["exact", "region", "not_found"]),
  error: z.string().optional(),
});

export const SectorList = z.object({
  sectors: z.array(z.string()),
  count: z.number().int(),
});

export function toCountry(c: CountryRecord): z.infer<typeof Country> {
  return { iso3: c.iso3, iso2: c.iso2, name: c.name, flag_emoji: c.flagEmoji };
}
