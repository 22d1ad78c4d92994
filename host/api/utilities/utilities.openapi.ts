import type { AreaDocs } from "../../http/openapi/operations.ts";

/** OpenAPI text of the utilities area, listed in host/api/openapi.ts (docs/architecture.md "Where to add"). */
export const utilitiesDocs: AreaDocs = {
  tag: { name: "utilities", description: "Reference data: countries, currencies, sectors" },
  fields: {
    countries: "Countries",
    currencies: "Currencies",
    sectors: "Sectors",
    iso2: "ISO 3166-1 alpha-2 code",
    iso3: "ISO 3166-1 alpha-3 code",
    iso3_codes: "Matching ISO 3166-1 alpha-3 codes",
    iso_codes: "Matching ISO 4217 codes",
    flag_emoji: "Flag emoji",
    match_type: "How the text matched",
  },
};
