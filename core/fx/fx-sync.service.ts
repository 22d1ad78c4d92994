import { today } from "../dates/calendar.ts";
import { inject, injectable } from "tsyringe";
import type { FxProvider, FxRate, IsoDate } from "../../sdk/index.ts";
import { CacheRegistry } from "../cache/cache-registry.ts";
import { declareChange } from "../db/data-changes.ts";
import { Database } from "../db/database.ts";
import { InputError } from "../errors/domain-error.ts";
import { Decimal, toDecimalString } from "../money/decimal.ts";
import { invertRate } from "./convert.calc.ts";
import { type ChainStep, FxRoute } from "./fx-route.entity.ts";
import { type RateRowWrite, writeRateRows } from "./fx-rate.service.ts";
import { pairSlug, parsePairSlug } from "./pair.ts";
import { MANUAL_PROVIDER } from "./route-search.calc.ts";
import { classifySyncFailure, type ProviderOutcome, recordProviderOutcomes, type SyncFailureCause } from "./provider-status.ts";

/** `start: "min"`: the provider's full history, asked from this day on. */
export const FX_HISTORY_MIN_DATE = "1900-01-01";
/** Time limit of one provider call during a sync. */
export const FX_SYNC_TIMEOUT_MS = 60_000;

/** The FX providers by wire code (the host builds it from the plugin registry). */
export type FxProviderLookup = (code: string) => FxProvider | undefined;

export interface FxSyncRequest {
  end: string;
  pairs: readonly string[];
  start: string;
}

export type FxSyncStatus = "failed" | "ok" | "partial" | "skipped";

export interface FxLegDetail {
  datesAvailable: number;
  error?: string;
  /** With `error`: its classified cause, and the HTTP status when the provider answered one. */
  cause?: SyncFailureCause;
  httpStatus?: number | null;
  leg: string;
  provider: string;
}

export interface FxSyncResult {
  detail: FxLegDetail[];
  elapsedMs: number;
  errors: string[];
  message?: string;
  pair: string;
  pointsChanged: number;
  pointsFetched: number;
  providerUsed?: string;
  status: FxSyncStatus;
}

export interface FxSyncOutput {
  dateRange: { end: string; start: string };
  results: FxSyncResult[];
  totalPointsChanged: number;
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));
const routeLabel = (steps: readonly ChainStep[]) => steps.map((s) => `${s.from}>${s.to}:${s.provider}`).join(" ");

/** One fetched leg, already in alphabetical orientation, ready to store. */
interface FetchedLeg { detail: FxLegDetail; rows: RateRowWrite[] }

/** `POST /fx/currencies/sync`: provider rates of pairs through their routes, by priority (decisions in docs/fx.md). */
@injectable()
export class FxSyncService {
  constructor(
    @inject(Database) private readonly db: Database,
    @inject(CacheRegistry) private readonly caches: CacheRegistry,
  ) {}

  /** 400 when start > end or end > today; otherwise one result per distinct pair, never a thrown provider error. */
  async sync(request: FxSyncRequest, providers: FxProviderLookup, now: string = today()): Promise<FxSyncOutput> {
    const start = request.start === "min" ? FX_HISTORY_MIN_DATE : request.start;
    if (request.end > now) throw new InputError("FX_SYNC_RANGE_INVALID", "end must not be after today", { end: request.end });
    if (start > request.end) throw new InputError("FX_SYNC_RANGE_INVALID", "start must not be after end", { end: request.end, start });
    const seen = new Set<string>();
    const results: FxSyncResult[] = [];
    for (const slug of request.pairs) {
      const pair = parsePairSlug(slug);
      if (!pair) {
        results.push({ detail: [], elapsedMs: 0, errors: [`Malformed pair: ${slug}`], pair: slug, pointsChanged: 0, pointsFetched: 0, status: "failed" });
        continue;
      }
      const key = pairSlug(pair);
      if (seen.has(key)) continue;
      seen.add(key);
      results.push(await this.syncPair(pair.base, pair.quote, start, request.end, providers));
    }
    const totalPointsChanged = results.reduce((n, r) => n + r.pointsChanged, 0);
    return { dateRange: { end: request.end, start }, results, totalPointsChanged };
  }

  /** One pair, then each asked provider's outcome stored as its last sync status. */
  private async syncPair(base: string, quote: string, from: string, to: string, providers: FxProviderLookup): Promise<FxSyncResult> {
    const result = await this.syncPairRoutes(base, quote, from, to, providers);
    const outcomes: ProviderOutcome[] = result.detail.map((d) => ({
      provider: d.provider,
      failure: d.error === undefined ? null : { cause: d.cause ?? "other", httpStatus: d.httpStatus ?? null, message: d.error },
    }));
    if (outcomes.length > 0) await this.db.write((tx) => recordProviderOutcomes(tx, outcomes, new Date().toISOString()));
    return result;
  }

  private async syncPairRoutes(base: string, quote: string, from: string, to: string, providers: FxProviderLookup): Promise<FxSyncResult> {
    const started = performance.now();
    const pair = `${base}-${quote}`;
    const rows = await this.db.reads.find(FxRoute, { order: { priority: "ASC" }, where: { base, quote } });
    const chains = rows.map((r) => JSON.parse(r.chainSteps) as ChainStep[]).filter((c) => !c.every((s) => s.provider === MANUAL_PROVIDER));
    const blank = { detail: [] as FxLegDetail[], errors: [] as string[], pair, pointsChanged: 0, pointsFetched: 0 };
    if (chains.length === 0) {
      const message = rows.length === 0 ? "No route configured for this pair" : "Manual-only pair: nothing to fetch";
      return { ...blank, elapsedMs: Math.round(performance.now() - started), message, status: "skipped" };
    }
    const errors: string[] = [];
    const detail: FxLegDetail[] = [];
    for (const chain of chains) {
      const legs = await Promise.all(chain.map((step) => this.fetchLeg(step, from, to, providers)));
      detail.push(...legs.map((l) => l.detail));
      const failed = legs.filter((l) => l.detail.error !== undefined);
      if (failed.length > 0) {
        errors.push(...failed.map((l) => `${routeLabel(chain)}: ${l.detail.leg} via ${l.detail.provider}: ${l.detail.error}`));
        continue; // priority fallback
      }
      let changed = 0;
      await this.db.write(async (tx) => {
        for (const leg of legs) {
          const w = await writeRateRows(tx, leg.rows);
          changed += w.inserted + w.updated;
        }
        // Every fetched row is dated within the synced range.
        if (changed > 0) declareChange(tx, { kind: "fx", from });
      });
      const fetched = legs.reduce((n, l) => n + l.rows.length, 0);
      const empty = legs.filter((l) => l.rows.length === 0);
      const providerUsed = [...new Set(chain.map((s) => s.provider))].join(",");
      return {
        detail, elapsedMs: Math.round(performance.now() - started), errors, pair, pointsChanged: changed, pointsFetched: fetched, providerUsed,
        ...(empty.length > 0
          ? { message: `No rates in range for ${empty.map((l) => l.detail.leg).join(", ")}`, status: "partial" as const }
          : { status: "ok" as const }),
      };
    }
    return { ...blank, detail, elapsedMs: Math.round(performance.now() - started), errors, message: "Every route failed", status: "failed" };
  }

  /**
   * One leg: asks its provider for the leg's pair in the direction the provider quotes (native, or
   * the other way round), through the `fx_provider_responses` cache, and turns the answer into
   * alphabetical rows under the leg's provider.
   */
  private async fetchLeg(step: ChainStep, from: string, to: string, providers: FxProviderLookup): Promise<FetchedLeg> {
    const detail: FxLegDetail = { datesAvailable: 0, leg: `${step.from}-${step.to}`, provider: step.provider };
    const provider = providers(step.provider);
    const failed = (message: string, reason?: string): FetchedLeg => {
      const f = classifySyncFailure(message, reason);
      return { detail: { ...detail, cause: f.cause, error: message, httpStatus: f.httpStatus }, rows: [] };
    };
    if (!provider) return failed(`Provider ${step.provider} is not loaded`);
    const quotes = (b: string, q: string) => provider.baseCurrencies.includes(b as never) && provider.targetCurrencies.includes(q as never);
    const [askBase, askQuote] = !quotes(step.from, step.to) && quotes(step.to, step.from) ? [step.to, step.from] : [step.from, step.to];
    const cache = this.caches.get<readonly FxRate[]>("fx_provider_responses");
    const key = `${step.provider}|${askBase}|${askQuote}|${from}|${to}`;
    let rates = cache.get(key);
    if (!rates) {
      try {
        const [outcome] = await provider.getRates({
          from: from as IsoDate, pairs: [{ base: askBase as never, quote: askQuote as never }], signal: AbortSignal.timeout(FX_SYNC_TIMEOUT_MS), to: to as IsoDate,
        });
        if (!outcome) return failed("Provider returned no outcome");
        if (!outcome.ok) return failed(`${outcome.error.reason}: ${outcome.error.message}`, outcome.error.reason);
        rates = outcome.value;
        cache.set(key, rates);
      } catch (error) {
        return failed(messageOf(error), (error as { reason?: string } | null)?.reason);
      }
    }
    const invert = askBase > askQuote;
    const [base, quote] = invert ? [askQuote, askBase] : [askBase, askQuote];
    const rows: RateRowWrite[] = [];
    for (const r of rates) {
      if (r.date < from || r.date > to) continue;
      const value = new Decimal(r.rate);
      if (!value.isFinite() || value.lte(0)) continue;
      rows.push({ base, date: r.date, provider: step.provider, quote, rate: toDecimalString(invert ? invertRate(value) : value), source: "sync" });
    }
    return { detail: { ...detail, datesAvailable: rows.length }, rows };
  }
}
