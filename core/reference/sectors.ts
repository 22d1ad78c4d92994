/** The 11 GICS sectors (MSCI/S&P, since the 2018 revision), alphabetical. */
export const GICS_SECTORS: readonly string[] = [
  "Communication Services",
  "Consumer Discretionary",
  "Consumer Staples",
  "Energy",
  "Financials",
  "Health Care",
  "Industrials",
  "Information Technology",
  "Materials",
  "Real Estate",
  "Utilities",
];

/** For holdings no GICS sector fits (cash, funds, bonds); listed only on request. */
export const OTHER_SECTOR = "Other";

export function listSectors(params: { includeOther: boolean }): string[] {
  return params.includeOther ? [...GICS_SECTORS, OTHER_SECTOR] : [...GICS_SECTORS];
}
