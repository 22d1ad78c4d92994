import { withTimeout } from "../async/with-timeout.ts";
import { inject, injectable } from "tsyringe";
import type { QuoteProvider, QuoteSearchResult } from "../../sdk/index.ts";
import { CacheRegistry } from "../cache/cache-registry.ts";
import { PROVIDER_DIRECTORY, type ProviderDirectory, type ProviderEntry } from "./provider-assignment.service.ts";

/** How long one provider may take to answer a search before it counts as failed. */
export const SEARCH_TIMEOUT_MS = 10_000;

/** One instrument found by a provider. */
export interface SearchHit {
  currency: string | null;
  identifier: string;
  identifierType: string | null;
  name: string;
  providerCode: string;
}

/** One provider's answer: its hits, or why it gave none. A failure never fails the search. */
export type ProviderSearchOutcome =
  | { cached: boolean; hits: SearchHit[]; ok: true; providerCode: string }
  | { error: string; ok: false; providerCode: string; reason: string };

export interface SearchParams {
  /** Providers to ask, by code (hidden ones allowed); absent: every listed provider that can search. */
  providerCodes?: string[];
  query: string;
  timeoutMs?: number;
}

type Searchable = ProviderEntry & { kind: "quote-provider" };

const KEY_SEPARATOR = "\u0000";

/**
 * Searches quote providers in parallel, each with its own timeout. Answers are cached as the
 * caches table says: `search_queries` (15 min) maps a provider and normalised query to the
 * identifiers found, and `search_results` (24 h) keeps each found instrument; a query whose
 * instruments have left `search_results` is asked again.
 */
@injectable()
export class ProviderSearchService {
  constructor(
    @inject(CacheRegistry) private readonly caches: CacheRegistry,
    @inject(PROVIDER_DIRECTORY) private readonly providers: ProviderDirectory,
  ) {}

  /** Every provider's outcome, in the order the providers were asked. */
  search(params: SearchParams): Promise<ProviderSearchOutcome[]> {
    return Promise.all(this.targets(params).map((target) => this.ask(target, params)));
  }

  /** The same outcomes, each as soon as its provider answers. */
  async *stream(params: SearchParams): AsyncGenerator<ProviderSearchOutcome> {
    const pending = new Map(this.targets(params).map((target, i) => [i, this.ask(target, params).then((o) => [i, o] as const)]));
    while (pending.size) {
      const [i, outcome] = await Promise.race(pending.values());
      pending.delete(i);
      yield outcome;
    }
  }

  private targets(params: SearchParams): (Searchable | { code: string; refusal: string })[] {
    const codes = params.providerCodes?.length ? [...new Set(params.providerCodes)] : null;
    if (!codes) return this.providers.list().filter((e): e is Searchable => e.kind === "quote-provider" && !e.hidden);
    return codes.map((code) => {
      const entry = this.providers.find(code);
      if (!entry) return { code, refusal: `Provider '${code}' not found` };
      if (entry.kind !== "quote-provider") return { code, refusal: `Provider '${code}' does not support search` };
      return entry;
    });
  }

  private async ask(target: Searchable | { code: string; refusal: string }, params: SearchParams): Promise<ProviderSearchOutcome> {
    const providerCode = target.code;
    if ("refusal" in target) return { ok: false, providerCode, error: target.refusal, reason: "not-found" };
    const queryKey = [providerCode, params.query.trim().toLowerCase()].join(KEY_SEPARATOR);
    const cached = this.fromCache(providerCode, queryKey);
    if (cached) return { ok: true, providerCode, hits: cached, cached: true };
    try {
      const found = await searchWithTimeout(target.instance, params.query, params.timeoutMs ?? SEARCH_TIMEOUT_MS);
      if (!Array.isArray(found)) throw Object.assign(new Error("The provider answered an unexpected shape"), { reason: "bad-response" });
      const hits = found.filter(isResult).map((r) => toHit(providerCode, target.instance, r));
      this.remember(queryKey, hits);
      return { ok: true, providerCode, hits, cached: false };
    } catch (error) {
      const reason = typeof (error as { reason?: unknown }).reason === "string" ? (error as { reason: string }).reason : "failed";
      return { ok: false, providerCode, error: (error as Error).message || String(error), reason };
    }
  }

  private fromCache(providerCode: string, queryKey: string): SearchHit[] | null {
    const identifiers = this.caches.get<string[]>("search_queries").get(queryKey);
    if (!identifiers) return null;
    const results = this.caches.get<SearchHit>("search_results");
    const hits = identifiers.map((id) => results.get([providerCode, id].join(KEY_SEPARATOR)));
    return hits.every((h) => h !== undefined) ? hits as SearchHit[] : null;
  }

  private remember(queryKey: string, hits: SearchHit[]): void {
    const results = this.caches.get<SearchHit>("search_results");
    for (const hit of hits) results.set([hit.providerCode, hit.identifier].join(KEY_SEPARATOR), hit);
    this.caches.get<string[]>("search_queries").set(queryKey, hits.map((h) => h.identifier));
  }
}

function isResult(r: unknown): r is QuoteSearchResult {
  const c = r as Partial<QuoteSearchResult> | null;
  return typeof c === "object" && c !== null && typeof c.identifier === "string" && c.identifier !== "" && typeof c.name === "string";
}

function toHit(providerCode: string, provider: QuoteProvider, r: QuoteSearchResult): SearchHit {
  return { providerCode, identifier: r.identifier, name: r.name, currency: r.currency ?? null, identifierType: provider.identifierType ?? null };
}

class SearchTimeoutError extends Error {
  readonly reason = "timeout";
}

/** The provider gets an abort signal; a provider that ignores it is still cut off at the deadline. */
function searchWithTimeout(provider: QuoteProvider, query: string, timeoutMs: number): Promise<readonly QuoteSearchResult[]> {
  return withTimeout(timeoutMs, (signal) => provider.search({ query, signal }), () => new SearchTimeoutError(`No answer within ${timeoutMs} ms`));
}
