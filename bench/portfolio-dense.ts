/**
 * The dense shape for bench/portfolio.ts: the 50 assets (EUR/USD/GBP) of
 * bench/portfolio-dataset.ts held at every one of the 5 brokers from the first year to the last
 * (≈ 250 open positions every day), prices on business days only, daily manual FX rates, and N
 * transactions of which ≈ 70 % BUY and the rest SELL and DIVIDEND (plus the deposits that fund the
 * buys). Every SELL is covered and never closes a position: at least one unit stays held.
 */
import { ASSETS, BROKERS, CURRENCIES, type Currency, DAYS, dateOf, type Ledger, type MarketData, prng, type TxCreate } from "./portfolio-dataset.ts";

/** Day indices (from START) that are Monday to Friday. */
export const BUSINESS_DAYS: number[] = Array.from({ length: DAYS }, (_, d) => d).filter((d) => {
  const w = new Date(`${dateOf(d)}T00:00:00Z`).getUTCDay();
  return w !== 0 && w !== 6;
});
const LAST_BUSINESS_DAY = BUSINESS_DAYS.length - 1;

const cents = (c: number) => `${c < 0 ? "-" : ""}${Math.floor(Math.abs(c) / 100)}.${String(Math.abs(c) % 100).padStart(2, "0")}`;

export function buildDenseLedger(market: MarketData, n: number, seed = 7): Ledger {
  const rnd = prng(seed ^ n);
  const cash = Array.from({ length: BROKERS }, () => ({ EUR: 0, USD: 0, GBP: 0 } as Record<Currency, number>));
  const held = Array.from({ length: BROKERS }, () => new Array<number>(ASSETS).fill(0));
  const groups: TxCreate[][] = [];
  const byType: Record<string, number> = {};
  let count = 0;
  const emit = (row: TxCreate) => {
    groups.push([row]);
    count++;
    byType[row.type] = (byType[row.type] ?? 0) + 1;
  };
  const priceCents = (asset: number, day: number) => Number(market.closes[asset]![day]!) * 100;
  const deposit = (b: number, cur: Currency, day: number, amount: number) => {
    cash[b]![cur] += amount;
    emit({ broker: b, type: "DEPOSIT", date: dateOf(day), quantity: "0", cash: { code: cur, amount: cents(amount) } });
  };
  const buy = (b: number, asset: number, day: number, qty: number) => {
    const cur = market.assets[asset]!.currency;
    const cost = Math.round(qty * priceCents(asset, day));
    if (cost > cash[b]![cur]) deposit(b, cur, day, cost * 4 + 5_000_000);
    cash[b]![cur] -= cost;
    held[b]![asset]! += qty;
    emit({ broker: b, asset, type: "BUY", date: dateOf(day), quantity: String(qty), cash: { code: cur, amount: cents(-cost) } });
  };
  for (let b = 0; b < BROKERS; b++) for (const cur of CURRENCIES) deposit(b, cur, BUSINESS_DAYS[0]!, 50_000_000);
  // Every (broker, asset) position opens during the first year (≈ 260 business days).
  const opening = Array.from({ length: BROKERS * ASSETS }, (_, i) => i);
  for (let i = 0; i < opening.length; i++) {
    const day = BUSINESS_DAYS[Math.floor((i * 250) / opening.length)]!;
    buy(Math.floor(i / ASSETS), i % ASSETS, day, 5 + Math.floor(rnd() * 20));
  }
  const firstYear = 260;
  while (count < n) {
    const k = firstYear + Math.floor(((count / n) * (LAST_BUSINESS_DAY - firstYear)));
    const day = BUSINESS_DAYS[Math.min(LAST_BUSINESS_DAY, k)]!;
    const b = Math.floor(rnd() * BROKERS);
    const asset = Math.floor(rnd() * ASSETS);
    const roll = rnd();
    const cur = market.assets[asset]!.currency;
    if (roll < 0.7) buy(b, asset, day, 1 + Math.floor(rnd() * 10));
    else if (roll < 0.88 && held[b]![asset]! > 1) {
      const qty = 1 + Math.floor(rnd() * Math.min(held[b]![asset]! - 1, 10));
      const proceeds = Math.max(1, Math.round(qty * priceCents(asset, day)));
      held[b]![asset]! -= qty;
      cash[b]![cur] += proceeds;
      emit({ broker: b, asset, type: "SELL", date: dateOf(day), quantity: String(-qty), cash: { code: cur, amount: cents(proceeds) } });
    } else {
      const amount = Math.max(1, Math.round(held[b]![asset]! * priceCents(asset, day) * 0.004));
      cash[b]![cur] += amount;
      emit({ broker: b, asset, type: "DIVIDEND", date: dateOf(day), quantity: "0", cash: { code: cur, amount: cents(amount) } });
    }
  }
  // Rows are emitted in date order except the top-up deposits, which share their BUY's date.
  return { groups, count, byType };
}
