import { Decimal, toDecimalString } from "../money/decimal.ts";
import { scaledToText } from "../money/scaled-text.ts";

/** What a balance walk reads of one transaction. */
export interface BalanceRow {
  amount: string | null;
  asset_id: number | null;
  currency: string | null;
  date: string;
  quantity: string;
}

export type BalanceViolation =
  | { balance: string; currency: string; date: string; kind: "cash" }
  | { assetId: number; balance: string; date: string; kind: "asset" };

export interface BalanceChecks {
  assets: boolean;
  cash: boolean;
}

/**
 * Walks one broker's rows in (date, id) order, keeping a running cash balance per currency and
 * a quantity per asset, and checks them at the end of each day (an intraday dip
 * that recovers by the evening is fine). Reports the first negative day of each currency and
 * each asset; `rows` must already be sorted.
 */
export function findNegativeBalances(rows: BalanceRow[], checks: BalanceChecks, opening?: OpeningBalances): BalanceViolation[] {
  const cash = new Map(opening?.cash);
  const qty = new Map(opening?.qty);
  const reported = new Set<string>();
  const out: BalanceViolation[] = [];
  let i = 0;
  while (i < rows.length) {
    const date = rows[i]!.date;
    const changed = new Set<string>();
    for (; i < rows.length && rows[i]!.date === date; i++) applyRow(rows[i]!, checks, cash, qty, changed);
    for (const key of changed) {
      if (reported.has(key)) continue;
      const v = violationOf(key, date, cash, qty);
      if (v) { reported.add(key); out.push(v); }
    }
  }
  return out;
}

export interface OpeningBalances {
  cash: Map<string, Decimal>;
  qty: Map<number, Decimal>;
}

/** Exact sum of decimal strings as a scaled BigInt (the scale grows to the most decimals seen). */
export class ExactSum {
  private total = 0n;
  private scale = 0;

  add(text: string): void {
    const s = /e/i.test(text) ? new Decimal(text).toFixed() : text;
    const dot = s.indexOf(".");
    const decimals = dot < 0 ? 0 : s.length - dot - 1;
    const digits = BigInt(dot < 0 ? s : s.slice(0, dot) + s.slice(dot + 1));
    if (decimals > this.scale) {
      this.total *= 10n ** BigInt(decimals - this.scale);
      this.scale = decimals;
    }
    this.total += digits * 10n ** BigInt(this.scale - decimals);
  }

  toDecimal(): Decimal {
    return new Decimal(`${this.total}e-${this.scale}`);
  }

  /** The sum as plain decimal text, every digit kept (`add` reads it back to the same sum). */
  toText(): string {
    return scaledToText(this.total, this.scale);
  }
}

/** Exact running sums per currency and per asset (a checkpoint's content, docs/decisions.md, "Ledger commits: checkpoints"). */
export interface OpeningSums {
  cash: Map<string, ExactSum>;
  qty: Map<number, ExactSum>;
}

/** Adds rows to running exact sums (only the kinds `checks` asks for); returns `sums`. */
export function addToSums(rows: readonly BalanceRow[], checks: BalanceChecks, sums: OpeningSums): OpeningSums {
  for (const r of rows) {
    if (checks.cash && r.amount !== null && r.currency !== null && r.amount !== "0") {
      let s = sums.cash.get(r.currency);
      if (!s) sums.cash.set(r.currency, s = new ExactSum());
      s.add(r.amount);
    }
    if (checks.assets && r.asset_id !== null && r.quantity !== "0") {
      let s = sums.qty.get(r.asset_id);
      if (!s) sums.qty.set(r.asset_id, s = new ExactSum());
      s.add(r.quantity);
    }
  }
  return sums;
}

/** Balances at the start of a walk: the running sums of the rows before it (no day-by-day checks). */
export function toOpening(sums: OpeningSums): OpeningBalances {
  return {
    cash: new Map([...sums.cash].map(([k, s]) => [k, s.toDecimal()])),
    qty: new Map([...sums.qty].map(([k, s]) => [k, s.toDecimal()])),
  };
}

function applyRow(r: BalanceRow, checks: BalanceChecks, cash: Map<string, Decimal>, qty: Map<number, Decimal>, changed: Set<string>) {
  if (checks.cash && r.amount !== null && r.currency !== null && r.amount !== "0") {
    cash.set(r.currency, (cash.get(r.currency) ?? new Decimal(0)).plus(r.amount));
    changed.add(`c:${r.currency}`);
  }
  if (checks.assets && r.asset_id !== null && r.quantity !== "0") {
    qty.set(r.asset_id, (qty.get(r.asset_id) ?? new Decimal(0)).plus(r.quantity));
    changed.add(`a:${r.asset_id}`);
  }
}

function violationOf(key: string, date: string, cash: Map<string, Decimal>, qty: Map<number, Decimal>): BalanceViolation | null {
  if (key.startsWith("c:")) {
    const currency = key.slice(2);
    const balance = cash.get(currency)!;
    return balance.lt(0) ? { kind: "cash", date, currency, balance: toDecimalString(balance) } : null;
  }
  const assetId = Number(key.slice(2));
  const balance = qty.get(assetId)!;
  return balance.lt(0) ? { kind: "asset", date, assetId, balance: toDecimalString(balance) } : null;
}
