import { today as calendarToday } from "../../../core/dates/calendar.ts";
import { BrokerAccess } from "../../../core/brokers/broker-access.entity.ts";
import { brokerNotFound } from "../../../core/brokers/broker-access.service.ts";
import { aggregationScale } from "../../../core/brokers/share-scale.ts";
import { CacheRegistry } from "../../../core/cache/cache-registry.ts";
import { portfolioChanges, reportStillCurrent } from "../../../core/cache/portfolio-caches.ts";
import { Database } from "../../../core/db/database.ts";
import { ValidationError } from "../../../core/errors/domain-error.ts";
import type { ReportFlags } from "../../../core/portfolio/report-input.ts";
import type { ReportRequest } from "../../../core/portfolio/report-input.loader.ts";
import { UserSettingsService } from "../../../core/settings/user-settings.service.ts";
import type { DependencyContainer } from "tsyringe";
import { LOGGER } from "../../container.ts";
import type { DatabaseTarget } from "../../db/dialect.ts";
import type { Logger } from "../../logger.ts";
import { runCalculation } from "../run-calculation.ts";
import type { PortfolioReportResult } from "./portfolio-report.task.ts";

export interface ReportQuery {
  brokerIds: number[] | null;
  start: string | null;
  end: string | null;
  target: string | null;
  flags: ReportFlags;
}

/** A report as kept: its gzipped JSON only (the JSON is 7× larger; memory, docs/decisions.md "Portfolio engine"). */
export type CachedReport = Pick<PortfolioReportResult, "gzip" | "chars" | "scope">;

/** The JSON of a kept report as UTF-8 bytes. */
export function reportBytes(report: CachedReport): Uint8Array<ArrayBuffer> {
  return Bun.gunzipSync(report.gzip as Uint8Array<ArrayBuffer>);
}

/** The JSON text of a kept report. */
export function reportText(report: CachedReport): string {
  return new TextDecoder().decode(reportBytes(report));
}

/**
 * Resolves the caller's scope and period, then serves the report from `portfolio_blob` or has a
 * worker compute it. The fingerprint holds everything the result depends on besides stored data
 * (caller, brokers with their scales, currency, period, sections, today); stored data changes
 * clear the cache (docs/portfolio.md "Caches") and are noted with the earliest date they changed,
 * so the worker recomputes from there. Identical concurrent requests share one run.
 */
export class PortfolioReportService {
  private readonly db: Database;
  private readonly caches: CacheRegistry;
  private readonly settings: UserSettingsService;
  private readonly logger: Logger | null;
  private readonly inFlight = new Map<string, Promise<CachedReport>>();

  constructor(container: DependencyContainer, private readonly dbTarget: DatabaseTarget) {
    this.db = container.resolve(Database);
    this.caches = container.resolve(CacheRegistry);
    this.settings = container.resolve(UserSettingsService);
    this.logger = container.isRegistered(LOGGER) ? container.resolve<Logger>(LOGGER) : null;
  }

  /**
   * The caller's scope and period as the worker's request, and the cache key (everything the
   * result depends on besides stored data). Throws 404 for a broker outside the caller's access.
   */
  async resolve(userId: number, q: ReportQuery): Promise<{ key: string; request: ReportRequest }> {
    const rows = await this.db.reads.findBy(BrokerAccess, { userId });
    const byBroker = new Map(rows.map((r) => [r.brokerId, r]));
    const ids = q.brokerIds ? [...new Set(q.brokerIds)] : rows.map((r) => r.brokerId);
    const scales: Record<number, string> = {};
    for (const id of ids.sort((a, b) => a - b)) {
      const row = byBroker.get(id);
      if (!row) throw brokerNotFound(id);
      scales[id] = aggregationScale(row).toFixed();
    }
    const today = calendarToday();
    const start = q.start === null || q.start === "min" ? null : q.start;
    const end = q.end === null || q.end === "max" ? today : q.end;
    if (start !== null && end < start) {
      throw new ValidationError([{ loc: ["body", "date_range", "end"], msg: "end must not be before start", type: "value_error" }]);
    }
    const target = q.target ?? await this.settings.effectiveBaseCurrency(userId);
    const key = JSON.stringify({ userId, scales, target, start, end, flags: q.flags, today });
    const request: ReportRequest = {
      scales, fxUserId: userId, target, start, end, flags: q.flags, generatedAt: new Date().toISOString(),
      requested: { start: q.start, end: q.end, brokerIds: q.brokerIds },
    };
    return { key, request };
  }

  async report(userId: number, q: ReportQuery): Promise<CachedReport> {
    const { key, request } = await this.resolve(userId, q);
    await this.caches.sync();
    const cache = this.caches.get<CachedReport>("portfolio_blob");
    const hit = cache.get(key);
    if (hit) return hit;
    // A run started before a write is not joined: its data may be older than the request.
    const generation = this.caches.generation("portfolio_blob");
    const flightKey = `${generation}:${key}`;
    let run = this.inFlight.get(flightKey);
    if (!run) {
      // The dated writes so far: the worker resumes the scope's replay at the earliest (a report after a write reflects it).
      const changes = portfolioChanges(this.caches);
      run = runCalculation("portfolioReport", { db: this.dbTarget, request, changes }).then(({ result }) => {
        // Whether the worker resumed a kept replay (and where) or computed cold: for operators and the multi-process tests.
        this.logger?.debug("portfolio report computed", {
          mode: result.mode === "cold" ? "cold" : "resumed", resumed_at: result.mode === "cold" ? null : result.mode.resumedAt,
          ...(result.coldReason ? { cold_reason: result.coldReason } : {}),
          compute_ms: Math.round(result.computeMs), compute_cpu_ms: Math.round(result.computeCpuMs),
        });
        const out = { gzip: result.gzip, chars: result.chars, scope: result.scope };
        // A write that touched the scope meanwhile may not be reflected: serve it, do not keep it.
        if (reportStillCurrent(this.caches, generation, out.scope)) cache.set(key, out);
        return out;
      }).finally(() => this.inFlight.delete(flightKey));
      this.inFlight.set(flightKey, run);
    }
    return run;
  }
}
