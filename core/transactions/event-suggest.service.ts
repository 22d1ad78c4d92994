import { addDays, daysBetween } from "../dates/calendar.ts";
import { inject, injectable } from "tsyringe";
import { Database } from "../db/database.ts";
import type { AssetEventType } from "../events/asset-event.entity.ts";
import type { TransactionType } from "./transaction.entity.ts";
import { eventTypesFor } from "./transaction-rules.ts";

export interface EventSuggestRequest {
  assetId: number;
  date: string;
  toleranceDays: number;
  type: TransactionType;
}

export interface EventCandidate {
  assetId: number;
  currency: string;
  date: string;
  distanceDays: number;
  id: number;
  /** True for events that came from a provider (an assignment id is set), false for manual ones. */
  isAuto: boolean;
  type: AssetEventType;
  value: string;
}

export interface EventSuggestResult extends Omit<EventSuggestRequest, "toleranceDays"> {
  candidates: EventCandidate[];
  skippedReason?: "type_not_event_compatible";
}

/** Days between two dates in either order. */
export const daysApart = (a: string, b: string): number => Math.abs(daysBetween(a, b));
export { addDays };

/**
 * `POST /transactions/events/suggest`: asset events a transaction could link to, of a type
 * compatible with the transaction's (EVENT_COMPATIBILITY), within ± tolerance days, nearest
 * first. Assets and their events are shared reference data, so no broker is involved.
 */
@injectable()
export class EventSuggestService {
  constructor(@inject(Database) private readonly db: Database) {}

  async suggest(requests: EventSuggestRequest[]): Promise<EventSuggestResult[]> {
    const out: EventSuggestResult[] = [];
    for (const r of requests) out.push(await this.one(r));
    return out;
  }

  private async one(r: EventSuggestRequest): Promise<EventSuggestResult> {
    const base = { assetId: r.assetId, date: r.date, type: r.type };
    const types = eventTypesFor(r.type);
    if (types.length === 0) return { ...base, candidates: [], skippedReason: "type_not_event_compatible" };
    const rows: any[] = await this.db.reads.query(
      `SELECT id, asset_id, date, type, value, currency, provider_assignment_id FROM asset_events
       WHERE asset_id = ? AND type IN (${types.map(() => "?").join(",")}) AND date >= ? AND date <= ?`,
      [r.assetId, ...types, addDays(r.date, -r.toleranceDays), addDays(r.date, r.toleranceDays)],
    );
    const candidates = rows.map((e) => ({
      id: e.id, assetId: e.asset_id, date: e.date, type: e.type, value: e.value, currency: e.currency,
      isAuto: e.provider_assignment_id !== null, distanceDays: daysApart(e.date, r.date),
    }));
    candidates.sort((a, b) => a.distanceDays - b.distanceDays || a.date.localeCompare(b.date) || a.id - b.id);
    return { ...base, candidates };
  }
}
