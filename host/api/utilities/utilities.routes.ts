import { Elysia } from "elysia";
import { listCountries, normalizeCountry } from "../../../core/reference/countries.ts";
import { listCurrencies, normalizeCurrency } from "../../../core/reference/currencies.ts";
import { listSectors } from "../../../core/reference/sectors.ts";
import { ValidationErrorBody } from "../../http/errors.ts";
import {
  CountryList, CountryNormalizeQuery, CountryNormalizeResult, CurrencyList, CurrencyNormalizeQuery,
  CurrencyNormalizeResult, LanguageQuery, SectorList, SectorsQuery, flagOf, languageOf, toCountry,
} from "./utilities.schema.ts";

/** Reference data: public (`GET /utilities/*` needs no session), static, no user data. */
export function utilitiesRoutes() {
  return new Elysia({ prefix: "/utilities", tags: ["utilities"] })
    .get("/currencies", ({ query }) => {
      const language = languageOf(query.language);
      const currencies = [...listCurrencies(language)];
      return { currencies, count: currencies.length, language };
    }, {
      query: LanguageQuery,
      response: { 200: CurrencyList, 422: ValidationErrorBody },
      detail: { summary: "Active ISO 4217 currencies with name and symbol in the language (public)" },
    })
    .get("/currencies/normalize", ({ query }) => {
      const match = normalizeCurrency({ language: languageOf(query.language), name: query.name });
      return {
        query: query.name,
        iso_codes: match.codes,
        match_type: match.matchType,
        ...(match.matchType === "not_found" ? { error: `No currency matches '${query.name}'` } : {}),
      };
    }, {
      query: CurrencyNormalizeQuery,
      response: { 200: CurrencyNormalizeResult, 422: ValidationErrorBody },
      detail: { summary: "Resolve a currency code, name or symbol to ISO 4217 codes (public)" },
    })
    .get("/countries", ({ query }) => {
      const language = languageOf(query.language);
      const countries = listCountries(language).map(toCountry);
      return { countries, count: countries.length, language };
    }, {
      query: LanguageQuery,
      response: { 200: CountryList, 422: ValidationErrorBody },
      detail: { summary: "ISO 3166 countries with name in the language and flag emoji, sorted by name (public)" },
    })
    .get("/countries/normalize", ({ query }) => {
      const match = normalizeCountry({ language: languageOf(query.language), name: query.name });
      return {
        query: query.name,
        iso3_codes: match.iso3,
        match_type: match.matchType,
        ...(match.matchType === "not_found" ? { error: `No country or region matches '${query.name}'` } : {}),
      };
    }, {
      query: CountryNormalizeQuery,
      response: { 200: CountryNormalizeResult, 422: ValidationErrorBody },
      detail: { summary: "Resolve a country code, name or named region (EU, Eurozone, ...) to ISO alpha-3 codes (public)" },
    })
    .get("/sectors", ({ query }) => {
      const sectors = listSectors({ includeOther: flagOf(query.include_other) });
      return { sectors, count: sectors.length };
    }, {
      query: SectorsQuery,
      response: { 200: SectorList, 422: ValidationErrorBody },
      detail: { summary: "The 11 GICS sectors, plus Other when include_other=true (public)" },
    });
}
