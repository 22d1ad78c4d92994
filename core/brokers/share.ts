import { ValidationError } from "../errors/domain-error.ts";
import { Decimal } from "../money/decimal.ts";
import type { BrokerRole } from "./broker-access.entity.ts";

const ONE = new Decimal(1);
const SHARE_PATTERN = /^(0(\.\d{1,6})?|1(\.0{1,6})?|\.\d{1,6})$/;

/** The default share of a new access row: OWNER 1.00, EDITOR and VIEWER 0.00. */
export function defaultShare(role: BrokerRole): Decimal {
  return role === "OWNER" ? ONE : new Decimal(0);
}

/** Stored and sent with six decimals. */
export function formatShare(share: Decimal | string | number): string {
  return new Decimal(share).toFixed(6);
}

function shareError(message: string, params: Record<string, unknown>): ValidationError {
  return new ValidationError([{ loc: ["body", "share_percentage"], msg: message, type: "share_invalid" }], message, "SHARE_INVALID", params);
}

/** The share rule in words. */
export const SHARE_RULE = "a decimal between 0 and 1 with at most six decimals";

/** True for a share written as a decimal string in [0, 1] with at most six decimals (the rule of {@link parseShare}). */
export function isShareText(text: string): boolean {
  return SHARE_PATTERN.test(text.trim());
}

/** Parses a share sent as a decimal string (or a JSON number) in [0, 1] with at most six decimals. */
export function parseShare(raw: string | number): Decimal {
  const text = typeof raw === "number" ? String(raw) : raw.trim();
  if (!isShareText(text)) {
    throw shareError(`share_percentage must be ${SHARE_RULE}`, { value: String(raw) });
  }
  return new Decimal(text);
}

/**
 * The share rules: only an OWNER may hold a share above 0, and the shares of one broker add
 * up to at most 1.00 (lower is fine, 0 is valid).
 */
export function checkShares(rows: { role: BrokerRole; share: Decimal; userId: number }[]): void {
  for (const row of rows) {
    if (row.role !== "OWNER" && !row.share.isZero()) {
      throw shareError(`Only an OWNER may hold a share above 0 (user ${row.userId} is ${row.role})`, { user_id: row.userId, role: row.role });
    }
  }
  const sum = rows.reduce((acc, r) => acc.plus(r.share), new Decimal(0));
  if (sum.gt(ONE)) {
    throw shareError(`The shares of a broker add up to at most 1.000000; this change makes ${formatShare(sum)}`, { sum: formatShare(sum) });
  }
}

