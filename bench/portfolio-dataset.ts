/**
 * Deterministic synthetic portfolio for bench/portfolio.ts, seeded through the real HTTP API.
 *
 * - 50 assets in EUR, USD and GBP (types, sectors and countries set so allocations have content);
 * - 10 years (2016-01-01 .. 2025-12-31, every calendar day) of closes per asset, a multiplicative
 *   random walk written as 4-decimal strings;
 * - the same 10 years of daily MANUAL rates for EUR-USD and EUR-GBP (stored alphabetically, so
 *   a report in EUR converts USD and GBP through them; no route is configured, conversion falls
 *   back to the pair's MANUAL rates, docs/fx.md);
 * - N transactions over 5 brokers, simulated in date order so every broker's cash per currency
 *   and quantity per asset stay non-negative (balance validation passes without overdraft or
 *   shorting): deposits, BUY/SELL, DIVIDEND, FEE, TAX, a few WITHDRAWALs, TRANSFER pairs between
 *   brokers (incoming leg 0-3 days later, cost basis `auto`) and FX_CONVERSION pairs.
 *
 * Everything comes from one seeded PRNG (mulberry32): the same N and seed give the same rows.
 */

export const CURRENCIES = ["EUR", "USD", "GBP"] as const;
export type Currency = (typeof CURRENCIES)[number];
export const START = "2016-01-01";
export const END = "2025-12-31";
export const BROKERS = 5;
export const ASSETS = 50;
export const MAX_BATCH = 5_000;

const DAY_MS = 86_400_000;
const START_MS = Date.parse(`${START}T00:00:00Z`);
export const DAYS = Math.round((Date.parse(`${END}T00:00:00Z`) - START_MS) / DAY_MS) + 1;
export const dateOf = (i: number) => new Date(START_MS + i * DAY_MS).toISOString().slice(0, 10);

/** mulberry32: tiny, fast, good enough for synthetic data; deterministic for a given seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const TYPES = ["STOCK", "STOCK", "STOCK", "ETF", "ETF", "BOND", "FUND", "CRYPTO"] as const;
const SECTORS = ["Information Technology", "Health Care", "Financials", "Energy", "Industrials", "Consumer Staples", "Utilities", "Materials"];
const COUNTRIES: Record<Currency, string[]> = { EUR: ["DEU", "FRA", "NLD", "ITA", "ESP"], USD: ["USA", "CAN"], GBP: ["GBR", "IRL"] };

export interface AssetDef {
  name: string;
  currency: Currency;
  asset_type: string;
  classification_params: {
    geographic_area: { distribution: Record<string, string> };
    sector_area: { distribution: Record<string, string> };
  };
}

export interface MarketData {
  assets: AssetDef[];
  /** closes[asset index][day index], 4-decimal strings */
  closes: string[][];
  /** rates per stored pair (EUR-USD, EUR-GBP): units of quote per 1 EUR, per day */
  fx: { base: "EUR"; quote: "USD" | "GBP"; rates: string[] }[];
}

/** Assets, their prices and the FX rates: independent of N. */
export function buildMarketData(seed = 20_260_101): MarketData {
  const rnd = prng(seed);
  const assets: AssetDef[] = [];
  const closes: string[][] = [];
  for (let i = 0; i < ASSETS; i++) {
    // 24 EUR, 16 USD, 10 GBP
    const currency: Currency = i < 24 ? "EUR" : i < 40 ? "USD" : "GBP";
    const countries = COUNTRIES[currency];
    const c1 = countries[Math.floor(rnd() * countries.length)]!;
    const c2 = countries[(countries.indexOf(c1) + 1) % countries.length]!;
    const split = (0.5 + Math.floor(rnd() * 5) / 10).toFixed(1);
    const geo = c1 === c2 ? { [c1]: "1" } : { [c1]: split, [c2]: (1 - Number(split)).toFixed(1) };
    const sector = SECTORS[Math.floor(rnd() * SECTORS.length)]!;
    assets.push({
      name: `Bench asset ${String(i).padStart(2, "0")} ${currency}`,
      currency,
      asset_type: TYPES[Math.floor(rnd() * TYPES.length)]!,
      classification_params: { geographic_area: { distribution: geo }, sector_area: { distribution: { [sector]: "1" } } },
    });
    let price = 20 + rnd() * 280;
    const vol = 0.005 + rnd() * 0.02;
    const drift = (rnd() - 0.4) * 0.0004;
    const series: string[] = new Array(DAYS);
    for (let d = 0; d < DAYS; d++) {
      series[d] = price.toFixed(4);
      price *= Math.exp(drift + vol * gauss(rnd));
      if (price < 1) price = 1 + rnd();
    }
    closes.push(series);
  }
  const fx = ([["USD", 1.1, 0.9, 1.4], ["GBP", 0.86, 0.7, 0.95]] as const).map(([quote, start, lo, hi]) => {
    let r: number = start;
    const rates: string[] = new Array(DAYS);
    for (let d = 0; d < DAYS; d++) {
      rates[d] = r.toFixed(6);
      r *= Math.exp(0.004 * gauss(rnd));
      if (r < lo) r = lo + 0.01;
      if (r > hi) r = hi - 0.01;
    }
    return { base: "EUR" as const, quote, rates };
  });
  return { assets, closes, fx };
}

function gauss(rnd: () => number): number {
  const u = Math.max(rnd(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rnd());
}

/** One create of POST /transactions/commit; broker and asset are indices until seeding maps them to ids. */
export interface TxCreate {
  broker: number;
  asset?: number;
  type: string;
  date: string;
  quantity: string;
  cash?: { code: Currency; amount: string };
  link_uuid?: string;
  cost_basis_mode?: "auto";
}

export interface Ledger {
  /** groups of creates that must travel in one batch (a pair is one group of two) */
  groups: TxCreate[][];
  count: number;
  byType: Record<string, number>;
}

const cents = (c: number) => {
  const sign = c < 0 ? "-" : "";
  const a = Math.abs(c);
  return `${sign}${Math.floor(a / 100)}.${String(a % 100).padStart(2, "0")}`;
};

/**
 * N transactions, simulated in date order (cash in integer cents, quantities in whole units), so
 * no broker ever holds negative cash or quantity at any point, hence not at any end of day.
 */
export function buildLedger(market: MarketData, n: number, seed = 42): Ledger {
  const rnd = prng(seed ^ n);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const cash = Array.from({ length: BROKERS }, () => ({ EUR: 0, USD: 0, GBP: 0 } as Record<Currency, number>));
  const held = Array.from({ length: BROKERS }, () => new Map<number, number>());
  const pending: { day: number; broker: number; asset: number; qty: number }[] = [];
  const groups: TxCreate[][] = [];
  const byType: Record<string, number> = {};
  let count = 0;
  let links = 0;
  const priceCents = (asset: number, day: number) => Number(market.closes[asset]![day]!) * 100;
  const rate = (from: Currency, to: Currency, day: number) => {
    const eurTo = (c: Currency) => (c === "EUR" ? 1 : Number(market.fx.find((f) => f.quote === c)!.rates[day]!));
    return eurTo(to) / eurTo(from);
  };
  const emit = (...rows: TxCreate[]) => {
    groups.push(rows);
    count += rows.length;
    for (const r of rows) byType[r.type] = (byType[r.type] ?? 0) + 1;
  };
  const deposit = (b: number, cur: Currency, day: number, amount: number) => {
    cash[b]![cur] += amount;
    emit({ broker: b, type: "DEPOSIT", date: dateOf(day), quantity: "0", cash: { code: cur, amount: cents(amount) } });
  };
  const heldAssets = (b: number) => [...held[b]!.entries()].filter(([, q]) => q > 0);

  // Opening deposits: every broker funds its three currencies on day 0.
  for (let b = 0; b < BROKERS && count + 1 <= n; b++) {
    for (const cur of CURRENCIES) if (count < n) deposit(b, cur, 0, 2_000_000 + Math.floor(rnd() * 3_000_000));
  }

  while (count < n) {
    const day = Math.min(DAYS - 1, Math.floor((count * DAYS) / n));
    for (let i = pending.length - 1; i >= 0; i--) {
      const p = pending[i]!;
      if (p.day <= day) {
        held[p.broker]!.set(p.asset, (held[p.broker]!.get(p.asset) ?? 0) + p.qty);
        pending.splice(i, 1);
      }
    }
    const date = dateOf(day);
    const b = Math.floor(rnd() * BROKERS);
    const roll = rnd();
    const room = n - count; // pairs need two slots
    if (roll < 0.46) {
      const asset = Math.floor(rnd() * ASSETS);
      const cur = market.assets[asset]!.currency;
      const qty = 1 + Math.floor(rnd() * 20);
      const cost = Math.round(qty * priceCents(asset, day));
      if (cost > cash[b]![cur]) {
        // Fund it: convert from EUR when there is enough, else deposit the currency.
        if (cur !== "EUR" && room >= 2 && cash[b]!.EUR > cost * 2) fxConversion(b, "EUR", cur, day, cost * 2);
        else deposit(b, cur, day, cost * 3 + 1_000_000);
        continue;
      }
      cash[b]![cur] -= cost;
      held[b]!.set(asset, (held[b]!.get(asset) ?? 0) + qty);
      emit({ broker: b, asset, type: "BUY", date, quantity: String(qty), cash: { code: cur, amount: cents(-cost) } });
    } else if (roll < 0.70) {
      const h = heldAssets(b);
      if (!h.length) { deposit(b, "EUR", day, 1_000_000); continue; }
      const [asset, q] = pick(h);
      const qty = 1 + Math.floor(rnd() * q);
      const cur = market.assets[asset]!.currency;
      const proceeds = Math.max(1, Math.round(qty * priceCents(asset, day)));
      cash[b]![cur] += proceeds;
      held[b]!.set(asset, q - qty);
      emit({ broker: b, asset, type: "SELL", date, quantity: String(-qty), cash: { code: cur, amount: cents(proceeds) } });
    } else if (roll < 0.80) {
      const h = heldAssets(b);
      if (!h.length) { deposit(b, "EUR", day, 1_000_000); continue; }
      const [asset, q] = pick(h);
      const cur = market.assets[asset]!.currency;
      const amount = Math.max(1, Math.round(q * priceCents(asset, day) * (0.002 + rnd() * 0.008)));
      cash[b]![cur] += amount;
      emit({ broker: b, asset, type: "DIVIDEND", date, quantity: "0", cash: { code: cur, amount: cents(amount) } });
    } else if (roll < 0.86) {
      deposit(b, pick(CURRENCIES), day, 500_000 + Math.floor(rnd() * 4_500_000));
    } else if (roll < 0.93) {
      const type = roll < 0.90 ? "FEE" : "TAX";
      const h = heldAssets(b);
      const withAsset = type === "TAX" && h.length > 0;
      const asset = withAsset ? pick(h)[0] : undefined;
      const cur: Currency = asset !== undefined ? market.assets[asset]!.currency : "EUR";
      const amount = 100 + Math.floor(rnd() * 4_900);
      if (cash[b]![cur] < amount) { deposit(b, cur, day, 1_000_000); continue; }
      cash[b]![cur] -= amount;
      emit({ broker: b, asset, type, date, quantity: "0", cash: { code: cur, amount: cents(-amount) } });
    } else if (roll < 0.945) {
      const cur = pick(CURRENCIES);
      const amount = Math.floor(cash[b]![cur] * (0.02 + rnd() * 0.1));
      if (amount < 100) { deposit(b, cur, day, 1_000_000); continue; }
      cash[b]![cur] -= amount;
      emit({ broker: b, type: "WITHDRAWAL", date, quantity: "0", cash: { code: cur, amount: cents(-amount) } });
    } else if (roll < 0.97) {
      const h = heldAssets(b);
      if (room < 2 || !h.length) { deposit(b, "EUR", day, 1_000_000); continue; }
      const [asset, q] = pick(h);
      const qty = 1 + Math.floor(rnd() * q);
      const to = (b + 1 + Math.floor(rnd() * (BROKERS - 1))) % BROKERS;
      const inDay = Math.min(DAYS - 1, day + Math.floor(rnd() * 4));
      held[b]!.set(asset, q - qty);
      pending.push({ day: inDay, broker: to, asset, qty });
      const link_uuid = `t${++links}`;
      emit(
        { broker: b, asset, type: "TRANSFER", date, quantity: String(-qty), link_uuid },
        { broker: to, asset, type: "TRANSFER", date: dateOf(inDay), quantity: String(qty), link_uuid, cost_basis_mode: "auto" },
      );
    } else {
      if (room < 2) { deposit(b, "EUR", day, 1_000_000); continue; }
      const from = pick(CURRENCIES);
      const to = pick(CURRENCIES.filter((c) => c !== from));
      const amount = Math.floor(cash[b]![from] * (0.05 + rnd() * 0.2));
      if (amount < 1_000) { deposit(b, from, day, 1_000_000); continue; }
      fxConversion(b, from, to, day, amount);
    }
  }
  return { groups, count, byType };

  function fxConversion(b: number, from: Currency, to: Currency, day: number, amount: number) {
    const received = Math.max(1, Math.round(amount * rate(from, to, day)));
    cash[b]![from] -= amount;
    cash[b]![to] += received;
    const link_uuid = `f${++links}`;
    emit(
      { broker: b, type: "FX_CONVERSION", date: dateOf(day), quantity: "0", cash: { code: from, amount: cents(-amount) }, link_uuid },
      { broker: b, type: "FX_CONVERSION", date: dateOf(day), quantity: "0", cash: { code: to, amount: cents(received) }, link_uuid },
    );
  }
}

/** Batches of at most MAX_BATCH creates; a pair never straddles two batches. */
export function batches(ledger: Ledger, max = MAX_BATCH): TxCreate[][] {
  const out: TxCreate[][] = [];
  let current: TxCreate[] = [];
  for (const g of ledger.groups) {
    if (current.length + g.length > max) { out.push(current); current = []; }
    current.push(...g);
  }
  if (current.length) out.push(current);
  return out;
}

export type Post = (path: string, body: unknown, expect?: number) => Promise<any>;

export interface SeedReport {
  brokerIds: number[];
  assetIds: number[];
  ms: { brokers: number; assets: number; prices: number; fx: number; transactions: number; total: number };
  commitMs: number[];
  priceRows: number;
  fxRows: number;
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t = performance.now();
  const out = await fn();
  return [out, performance.now() - t];
}

/**
 * Seeds the market data and the ledger through the API of a running server (closes on `priceDays`
 * only when given, else every day). Throws on the first
 * failure (an HTTP error, a refused item, a commit with issues).
 */
export async function seedDataset(post: Post, market: MarketData, ledger: Ledger, priceDays?: readonly number[]): Promise<SeedReport> {
  const t0 = performance.now();
  const [brokerIds, brokersMs] = await timed(async () => {
    const out = await post("/brokers", Array.from({ length: BROKERS }, (_, i) => ({ name: `Bench broker ${i}`, opened_at: "2015-12-31" })));
    if (out.success_count !== BROKERS) throw new Error(`brokers: ${JSON.stringify(out.results)}`);
    return out.results.map((r: { broker_id: number }) => r.broker_id) as number[];
  });
  const [assetIds, assetsMs] = await timed(async () => {
    const out = await post("/assets", market.assets, 201);
    if (out.success_count !== ASSETS) throw new Error(`assets: ${JSON.stringify(out.results.filter((r: any) => !r.success).slice(0, 3))}`);
    return out.results.map((r: { asset_id: number }) => r.asset_id) as number[];
  });
  const dates = Array.from({ length: DAYS }, (_, d) => dateOf(d));
  let priceRows = 0;
  const [, pricesMs] = await timed(async () => {
    for (let k = 0; k < ASSETS; k += 10) {
      const body = assetIds.slice(k, k + 10).map((asset_id, j) => ({
        asset_id, prices: (priceDays ?? dates.map((_, d) => d)).map((d) => ({ date: dates[d]!, close: market.closes[k + j]![d]! })),
      }));
      const out = await post("/assets/prices", body);
      if (out.success_count !== body.length) throw new Error(`prices: ${JSON.stringify(out.results.slice(0, 3))}`);
      priceRows += out.inserted_count + out.updated_count;
    }
  });
  let fxRows = 0;
  const [, fxMs] = await timed(async () => {
    const items = market.fx.flatMap((p) => p.rates.map((rate, d) => ({ date: dates[d]!, base: p.base, quote: p.quote, rate })));
    for (let k = 0; k < items.length; k += 2_000) {
      const out = await post("/fx/currencies/rate", items.slice(k, k + 2_000));
      if (out.errors.length) throw new Error(`fx rates: ${out.errors.slice(0, 3).join("; ")}`);
      fxRows += out.success_count;
    }
  });
  const commitMs: number[] = [];
  const [, txMs] = await timed(async () => {
    for (const batch of batches(ledger)) {
      const creates = batch.map(({ broker, asset, ...rest }) => ({
        ...rest, broker_id: brokerIds[broker]!, ...(asset === undefined ? {} : { asset_id: assetIds[asset]! }),
      }));
      const [out, ms] = await timed(() => post("/transactions/commit", { creates }));
      if (out.committed !== true || out.issues.length) {
        throw new Error(`commit refused (${out.issues.length} issues): ${JSON.stringify(out.issues.slice(0, 5))}`);
      }
      commitMs.push(ms);
    }
  });
  return {
    brokerIds, assetIds, commitMs, priceRows, fxRows,
    ms: { brokers: brokersMs, assets: assetsMs, prices: pricesMs, fx: fxMs, transactions: txMs, total: performance.now() - t0 },
  };
}
