import { Decimal } from "../money/decimal.ts";
import { normalizeCountry } from "../reference/countries.ts";
import { foldName } from "../reference/normalize.ts";
import { GICS_SECTORS, OTHER_SECTOR } from "../reference/sectors.ts";

/** Weight per key (ISO 3166 alpha-3 code or sector name), decimal strings with 4 decimals summing to 1. */
export type Distribution = Record<string, string>;

/** An asset's classification (the API's `classification_params`), normalised. */
export interface Classification {
  geographicArea: Distribution | null;
  sectorArea: Distribution | null;
  shortDescription: string | null;
}

/** The classification as sent: weights as decimal strings, keys as sent. */
export interface ClassificationInput {
  geographicArea?: Record<string, string> | null;
  sectorArea?: Record<string, string> | null;
  shortDescription?: string | null;
}

/** A refusal with its path inside `classification_params` (wire names). */
export interface ClassificationIssue {
  message: string;
  path: (number | string)[];
}

export type ClassificationResult = { ok: true; value: Classification } | { issues: ClassificationIssue[]; ok: false };

/** Weights must sum to 1 within this tolerance before they are renormalised. */
export const WEIGHT_SUM_TOLERANCE = new Decimal("0.01");
const PLACES = 4;

type KeyResolution = { key: string } | { error: string };

const SECTOR_BY_FOLDED = new Map([...GICS_SECTORS, OTHER_SECTOR].map((s) => [foldName(s), s]));

/** A country name, alpha-2 or alpha-3 code → alpha-3; regions and unknown names are refused. */
export function resolveCountryKey(raw: string): KeyResolution {
  const match = normalizeCountry({ name: raw });
  if (match.matchType === "exact" && match.iso3.length === 1) return { key: match.iso3[0]! };
  if (match.matchType === "region") return { error: `'${raw}' is a region, not a country` };
  if (match.iso3.length > 1) return { error: `'${raw}' names several countries (${match.iso3.join(", ")})` };
  return { error: `Unknown country '${raw}'` };
}

/** A GICS sector name (any case or accents) → its canonical spelling; anything else is "Other". */
export function resolveSectorKey(raw: string): KeyResolution {
  return { key: SECTOR_BY_FOLDED.get(foldName(raw)) ?? OTHER_SECTOR };
}

/**
 * Validates and normalises one distribution: keys resolved (duplicates after resolution are
 * summed), weights ≥ 0 summing to 1 ± 0.01, then divided by their sum and quantised to 4
 * decimals; the rounding remainder goes to the largest weight so the stored sum is exactly 1.
 */
export function normalizeDistribution(
  raw: Record<string, string>,
  resolve: (key: string) => KeyResolution,
  path: (number | string)[],
): { ok: true; value: Distribution } | { issues: ClassificationIssue[]; ok: false } {
  const issues: ClassificationIssue[] = [];
  const summed = new Map<string, Decimal>();
  for (const [rawKey, rawWeight] of Object.entries(raw)) {
    const resolved = resolve(rawKey);
    const weight = parseWeight(rawWeight);
    if ("error" in resolved) issues.push({ path: [...path, rawKey], message: resolved.error });
    if (weight === null) issues.push({ path: [...path, rawKey], message: "Weight must be a decimal number ≥ 0" });
    if ("error" in resolved || weight === null) continue;
    summed.set(resolved.key, (summed.get(resolved.key) ?? new Decimal(0)).plus(weight));
  }
  if (issues.length) return { ok: false, issues };
  const total = [...summed.values()].reduce((a, b) => a.plus(b), new Decimal(0));
  if (total.minus(1).abs().gt(WEIGHT_SUM_TOLERANCE)) {
    return { ok: false, issues: [{ path, message: `Weights sum to ${total.toFixed()}; they must sum to 1 (± ${WEIGHT_SUM_TOLERANCE.toFixed()})` }] };
  }
  return { ok: true, value: quantise(summed, total) };
}

function parseWeight(text: string): Decimal | null {
  try {
    const value = new Decimal(text);
    return value.isFinite() && !value.isNegative() ? value : null;
  } catch {
    return null;
  }
}

function quantise(weights: Map<string, Decimal>, total: Decimal): Distribution {
  const entries = [...weights.entries()].sort(([a], [b]) => a.localeCompare(b))
    .map(([key, w]) => [key, w.div(total).toDecimalPlaces(PLACES)] as [string, Decimal]);
  const remainder = new Decimal(1).minus(entries.reduce((a, [, w]) => a.plus(w), new Decimal(0)));
  if (!remainder.isZero()) {
    const largest = entries.reduce((best, entry) => (entry[1].gt(best[1]) ? entry : best));
    largest[1] = largest[1].plus(remainder);
  }
  return Object.fromEntries(entries.map(([key, w]) => [key, w.toFixed(PLACES)]));
}

/** Validates a whole classification; an absent or null area stays null. */
export function normalizeClassification(input: ClassificationInput): ClassificationResult {
  const issues: ClassificationIssue[] = [];
  const area = (raw: Record<string, string> | null | undefined, resolve: (k: string) => KeyResolution, name: string) => {
    if (raw === null || raw === undefined) return null;
    const result = normalizeDistribution(raw, resolve, [name, "distribution"]);
    if (result.ok) return result.value;
    issues.push(...result.issues);
    return null;
  };
  const geographicArea = area(input.geographicArea, resolveCountryKey, "geographic_area");
  const sectorArea = area(input.sectorArea, resolveSectorKey, "sector_area");
  if (issues.length) return { ok: false, issues };
  return { ok: true, value: { geographicArea, sectorArea, shortDescription: input.shortDescription ?? null } };
}

/** The stored JSON layout (entity comment): `{short_description?, geographic_area?: {distribution}, sector_area?: {distribution}}`. */
export function serializeClassification(c: Classification): string {
  return JSON.stringify({
    ...(c.shortDescription !== null ? { short_description: c.shortDescription } : {}),
    ...(c.geographicArea !== null ? { geographic_area: { distribution: c.geographicArea } } : {}),
    ...(c.sectorArea !== null ? { sector_area: { distribution: c.sectorArea } } : {}),
  });
}

/** Reads the stored JSON back; null when the column is empty or unreadable. */
export function parseClassification(json: string | null): Classification | null {
  if (json === null) return null;
  try {
    const raw = JSON.parse(json) as {
      geographic_area?: { distribution?: Distribution }; sector_area?: { distribution?: Distribution }; short_description?: string;
    };
    return {
      geographicArea: raw.geographic_area?.distribution ?? null,
      sectorArea: raw.sector_area?.distribution ?? null,
      shortDescription: raw.short_description ?? null,
    };
  } catch {
    return null;
  }
}
