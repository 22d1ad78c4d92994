import type { AdminRefusal } from "../../http/session.ts";

/**
 * The shared FX data (routes, manual and synced rates) values every user's portfolio, so only
 * administrators change it; anyone else is refused with `FX_ADMIN_REQUIRED` and pointed at their
 * private rates (docs/fx.md "Who changes FX data", docs/security.md "Shared FX data").
 */
export const FX_ADMIN_ONLY: AdminRefusal = {
  code: "FX_ADMIN_REQUIRED",
  message: "Only an administrator can change the shared FX rates and routes; keep rates of your own with /fx/currencies/private-rates",
};
