import { inject, injectable } from "tsyringe";
import { BrokerAccessService } from "../brokers/broker-access.service.ts";
import { Database } from "../db/database.ts";
import { addDays } from "../dates/calendar.ts";
import { daysApart } from "./event-suggest.service.ts";
import { promoteMatch, type PromoteProbe } from "./promote-match.calc.ts";

export interface PromoteCandidate {
  assetId: number | null;
  brokerId: number;
  currency: string | null;
  date: string;
  id: number;
  type: string;
}

const PROMOTABLE = ["ADJUSTMENT", "WITHDRAWAL", "DEPOSIT"];

/**
 * `POST /transactions/promote-suggest`: for each standalone row (stored, or unsaved with a
 * negative id) the stored unlinked rows, and the other rows of the request, it could be
 * promoted into a pair with, within ± tolerance days. Promoting writes both legs, so both the
 * input's broker and the candidates' brokers must be ones the caller may write (EDITOR or
 * OWNER); anything else yields no candidates, never an error that would reveal a broker.
 */
@injectable()
export class PromoteSuggestService {
  constructor(
    @inject(Database) private readonly db: Database,
    @inject(BrokerAccessService) private readonly access: BrokerAccessService,
  ) {}

  async suggest(userId: number, probes: PromoteProbe[], toleranceDays: number): Promise<Map<number, PromoteCandidate[]>> {
    const writable = [...(await this.access.roles(userId, "EDITOR")).keys()];
    const out = new Map<number, PromoteCandidate[]>();
    for (const probe of probes) {
      const ok = writable.includes(probe.brokerId) && PROMOTABLE.includes(probe.type);
      if (!ok) { out.set(probe.id, []); continue; }
      const stored = await this.stored(writable, probe, toleranceDays);
      const others = probes.filter((p) => p !== probe && p.id < 0 && writable.includes(p.brokerId) && daysApart(p.date, probe.date) <= toleranceDays);
      const matches = [...stored, ...others].filter((c) => c.id !== probe.id && promoteMatch(probe, c));
      const unique = [...new Map(matches.map((m) => [m.id, m])).values()];
      unique.sort((a, b) => daysApart(a.date, probe.date) - daysApart(b.date, probe.date) || a.id - b.id);
      out.set(probe.id, unique.map(({ id, brokerId, date, type, currency, assetId }) => ({ id, brokerId, date, type, currency: currency ?? null, assetId: assetId ?? null })));
    }
    return out;
  }

  private async stored(writable: number[], probe: PromoteProbe, tolerance: number): Promise<PromoteProbe[]> {
    const counterpart = probe.type === "ADJUSTMENT" ? "ADJUSTMENT" : probe.type === "DEPOSIT" ? "WITHDRAWAL" : "DEPOSIT";
    const rows: any[] = await this.db.reads.query(
      `SELECT id, broker_id, date, type, currency, asset_id, amount, quantity FROM transactions
       WHERE broker_id IN (${writable.map(() => "?").join(",")}) AND type = ? AND related_transaction_id IS NULL
       AND date >= ? AND date <= ? ORDER BY date, id LIMIT 1000`,
      [...writable, counterpart, addDays(probe.date, -tolerance), addDays(probe.date, tolerance)],
    );
    return rows.map((r) => ({
      id: r.id, brokerId: r.broker_id, date: r.date, type: r.type, currency: r.currency, assetId: r.asset_id,
      amount: r.amount, quantity: r.quantity,
    }));
  }
}
