import { Decimal } from "../money/decimal.ts";
import type { BrokerRole } from "./broker-access.entity.ts";

/**
 * The factor a (user, broker) pair's figures are multiplied by in portfolio aggregation
 * (shares weigh figures, never permissions): the share for OWNER rows, 1 for EDITOR and VIEWER rows, which see
 * full data. Computed on read, so role and share edits never touch stored data.
 */
export function aggregationScale(access: { role: BrokerRole; sharePercentage: string }): Decimal {
  return access.role === "OWNER" ? new Decimal(access.sharePercentage) : new Decimal(1);
}
