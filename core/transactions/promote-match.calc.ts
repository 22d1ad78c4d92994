import { Decimal } from "../money/decimal.ts";

/** A row offered to promote-suggest: stored (id > 0) or unsaved (id < 0). */
export interface PromoteProbe {
  amount?: string | null;
  assetId?: number | null;
  brokerId: number;
  currency?: string | null;
  date: string;
  id: number;
  quantity?: string | null;
  type: string;
}

const COUNTERPART: Record<string, string> = { ADJUSTMENT: "ADJUSTMENT", WITHDRAWAL: "DEPOSIT", DEPOSIT: "WITHDRAWAL" };

const sameAbs = (a?: string | null, b?: string | null) =>
  a == null || b == null || new Decimal(a).abs().eq(new Decimal(b).abs());
const opposite = (a?: string | null, b?: string | null) =>
  a == null || b == null || new Decimal(a).plus(b).isZero();

/**
 * Whether `b` could be promoted into a pair with `a` (dates are the caller's concern):
 * ADJUSTMENT + ADJUSTMENT of one asset in two brokers with opposite quantities (TRANSFER);
 * WITHDRAWAL + DEPOSIT of one currency in two brokers with equal sizes (CASH_TRANSFER), or of
 * two currencies in one broker (FX_CONVERSION). Unknown fields do not rule a candidate out.
 */
export function promoteMatch(a: PromoteProbe, b: PromoteProbe): boolean {
  if (COUNTERPART[a.type] !== b.type) return false;
  if (a.type === "ADJUSTMENT") {
    return a.brokerId !== b.brokerId && (a.assetId == null || a.assetId === b.assetId) && opposite(a.quantity, b.quantity);
  }
  if (a.currency == null || b.currency == null) return true;
  if (a.currency === b.currency) return a.brokerId !== b.brokerId && sameAbs(a.amount, b.amount);
  return a.brokerId === b.brokerId;
}
