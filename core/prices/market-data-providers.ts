import type { EntityManager } from "typeorm";
import type { QuoteProvider, ScheduledInvestmentProvider } from "../../sdk/index.ts";

/**
 * The port through which price services reach provider plugins (the host implements it over
 * its plugin registry), so core never sees the registry itself.
 */
export interface MarketDataProviders {
  /** A loaded quote provider, or undefined when none has that code. */
  quoteProvider(code: string): QuoteProvider | undefined;
  /** A loaded scheduled-investment (parametric) provider, or undefined. */
  scheduledProvider(code: string): ScheduledInvestmentProvider | undefined;
  /** Time limit of one current-price call to that provider, in milliseconds. */
  timeoutMs(code: string): number;
}

export const MARKET_DATA_PROVIDERS = Symbol("MarketDataProviders");

/** An asset as the price services need it, with its provider assignment if any. */
export interface PricedAsset {
  assignment: { code: string; id: number; identifier: string; params: string | null } | null;
  currency: string;
  id: number;
}

/** A provider ready to call for one assignment, with its parameters already parsed. */
export type UsableProvider =
  | { code: string; kind: "quote"; params: unknown; provider: QuoteProvider }
  | { code: string; kind: "scheduled"; params: unknown; provider: ScheduledInvestmentProvider };

interface AssetRow {
  assignment_id: number | null;
  currency: string;
  id: number;
  identifier: string | null;
  provider_code: string | null;
  provider_params: string | null;
}

/** The assets among `ids` that exist, keyed by id, each with its assignment (one query). */
export async function loadPricedAssets(reads: EntityManager, ids: readonly number[]): Promise<Map<number, PricedAsset>> {
  const unique = [...new Set(ids)];
  const found = new Map<number, PricedAsset>();
  for (let i = 0; i < unique.length; i += 500) {
    const chunk = unique.slice(i, i + 500);
    const rows: AssetRow[] = await reads.query(
      `SELECT a.id, a.currency, p.id AS assignment_id, p.provider_code, p.identifier, p.provider_params
       FROM assets a LEFT JOIN asset_provider_assignments p ON p.asset_id = a.id
       WHERE a.id IN (${chunk.map(() => "?").join(",")})`, chunk);
    for (const r of rows) {
      found.set(r.id, {
        id: r.id,
        currency: r.currency,
        assignment: r.assignment_id === null ? null
          : { id: r.assignment_id, code: r.provider_code!, identifier: r.identifier!, params: r.provider_params },
      });
    }
  }
  return found;
}

/**
 * The provider of an assignment with its parameters parsed by the provider's `paramsSchema`, or
 * the reason it cannot be used (plugin not loaded, parameters no longer valid).
 */
export function usableProvider(port: MarketDataProviders, assignment: NonNullable<PricedAsset["assignment"]>):
  UsableProvider | { error: string } {
  const quote = port.quoteProvider(assignment.code);
  const scheduled = quote ? undefined : port.scheduledProvider(assignment.code);
  if (!quote && !scheduled) return { error: `Provider '${assignment.code}' is not available` };
  let raw: unknown;
  try {
    raw = assignment.params === null ? undefined : JSON.parse(assignment.params);
  } catch {
    return { error: `Stored parameters of provider '${assignment.code}' are not valid JSON` };
  }
  const schema = quote ? quote.paramsSchema : scheduled!.paramsSchema;
  let params = raw;
  if (schema) {
    const parsed = schema.safeParse(raw ?? {});
    if (!parsed.success) return { error: `Parameters of provider '${assignment.code}' are invalid` };
    params = parsed.data;
  }
  return quote
    ? { kind: "quote", code: assignment.code, provider: quote, params }
    : { kind: "scheduled", code: assignment.code, provider: scheduled!, params };
}
