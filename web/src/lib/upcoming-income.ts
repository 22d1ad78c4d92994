/**
 * Upcoming income of the positions held, for the next 12 months: **confirmed** payments are the
 * asset's DIVIDEND and INTEREST events dated from today on (the event's date is its ex-date; the
 * API stores no separate pay date), times the units held now (the report ends today, so that is
 * the quantity at a future ex-date unless later trades change it); **projected** ones repeat the
 * asset's cadence (the median gap of its last events, rounded to 1, 2, 3, 4, 6 or 12 months) from
 * its latest event, at the latest event's amount per unit, up to the horizon. Amounts stay decimal
 * strings; each is converted to the base currency when a rate is known, else kept in its own.
 */
import { times } from "./exact.ts";

export interface UpcomingEvent { date: string; type: string; amount: string; currency: string }
export interface UpcomingPayment {
  assetId: number;
  date: string;
  type: string;
  status: "confirmed" | "projected";
  perUnit: string;
  quantity: string;
  /** perUnit × quantity in the event's currency. */
  amount: string;
  currency: string;
  /** `amount` in the base currency; null when no rate is known. */
  baseAmount: string | null;
}

const INCOME = new Set(["DIVIDEND", "INTEREST"]);
const CADENCES = [1, 2, 3, 4, 6, 12];

/** The same day `months` later, clamped to the month's last day (31 Jan + 1 month = 28/29 Feb). */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const total = y * 12 + (m - 1) + months;
  const ny = Math.floor(total / 12), nm = total % 12;
  const last = new Date(Date.UTC(ny, nm + 1, 0)).getUTCDate();
  return `${String(ny).padStart(4, "0")}-${String(nm + 1).padStart(2, "0")}-${String(Math.min(d, last)).padStart(2, "0")}`;
}

const days = (a: string, b: string) => (Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000;

/** Months between payments: the median of the last (up to) four gaps, rounded to the nearest usual cadence; null with fewer than two events. */
export function cadenceMonths(dates: string[]): number | null {
  const sorted = [...new Set(dates)].sort();
  if (sorted.length < 2) return null;
  const recent = sorted.slice(-5);
  const gaps = recent.slice(1).map((d, i) => days(recent[i]!, d)).sort((a, b) => a - b);
  const mid = gaps.length / 2;
  const median = gaps.length % 2 ? gaps[Math.floor(mid)]! : (gaps[mid - 1]! + gaps[mid]!) / 2;
  const months = median / 30.44;
  return CADENCES.reduce((best, c) => Math.abs(c - months) < Math.abs(best - months) ? c : best);
}

export function upcomingIncome(input: {
  today: string;
  /** Units held per asset (the caller's share, summed over brokers). */
  quantities: Map<number, string>;
  /** Each held asset's events, past and future. */
  events: Map<number, UpcomingEvent[]>;
  /** Rate from a currency to the base currency; the base currency itself need not be listed. */
  rates: Map<string, string>;
  base: string;
  horizonMonths?: number;
}): UpcomingPayment[] {
  const end = addMonths(input.today, input.horizonMonths ?? 12);
  const out: UpcomingPayment[] = [];
  const toBase = (amount: string, currency: string) => currency === input.base ? amount : input.rates.has(currency) ? times(amount, input.rates.get(currency)!) : null;
  for (const [assetId, quantity] of input.quantities) {
    const events = (input.events.get(assetId) ?? []).filter((e) => INCOME.has(e.type)).sort((a, b) => a.date.localeCompare(b.date));
    const push = (e: UpcomingEvent, status: UpcomingPayment["status"]) => {
      const amount = times(e.amount, quantity);
      out.push({ assetId, date: e.date, type: e.type, status, perUnit: e.amount, quantity, amount, currency: e.currency, baseAmount: toBase(amount, e.currency) });
    };
    for (const e of events) if (e.date >= input.today && e.date <= end) push(e, "confirmed");
    const latest = events[events.length - 1];
    const cadence = cadenceMonths(events.map((e) => e.date));
    if (!latest || cadence === null) continue;
    for (let k = 1; ; k++) {
      const date = addMonths(latest.date, cadence * k);
      if (date > end) break;
      if (date >= input.today) push({ ...latest, date }, "projected");
    }
  }
  return out.sort((a, b) => a.date.localeCompare(b.date) || a.assetId - b.assetId);
}
