/**
 * Error messages worded from the error's `code` and `params` (docs/errors.md) in the user's
 * language, with the names the API puts in `params` (`broker_name`, `asset_name`, ...). A code not
 * listed here, or one whose params lack the names, shows the server's `detail`.
 */
import { formatDate } from "./format.ts";
import { currentLanguage, t } from "./i18n.ts";
import { roleLabel } from "./labels.ts";

type Params = Record<string, unknown>;
const text = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

const MESSAGES: Record<string, (p: Params) => string | null> = {
  BROKER_ROLE_REQUIRED: (p) => {
    const broker = text(p.broker_name);
    return broker && text(p.required_role) ? t("This needs the {role} role (or higher) on {broker}.", { role: roleLabel(text(p.required_role)), broker }) : null;
  },
  ACCESS_EXISTS: (p) => {
    const user = text(p.username), broker = text(p.broker_name);
    return user && broker ? t("{user} already has access to {broker}.", { user, broker }) : null;
  },
  ASSET_KEEPER_OR_ADMIN_REQUIRED: (p) => {
    const names = Array.isArray(p.asset_names) ? p.asset_names.filter((n): n is string => typeof n === "string") : [];
    return names.length ? t("Only the keeper of {assets} or an administrator can change it.", { assets: names.join(", ") }) : null;
  },
  BALANCE_NEGATIVE: (p) => {
    const broker = text(p.broker_name);
    const first = Array.isArray(p.violations) ? p.violations[0] as Params | undefined : undefined;
    if (!broker || !first || !text(first.date)) return null;
    const date = formatDate(text(first.date), currentLanguage());
    if (first.kind === "cash" && text(first.currency)) return t("The {currency} cash of {broker} would go negative on {date}.", { currency: text(first.currency)!, broker, date });
    const asset = text(first.asset_name);
    return asset ? t("The quantity of {asset} at {broker} would go negative on {date}.", { asset, broker, date }) : null;
  },
};

/** The message of an API error in the user's language, or null when only the server's words fit. */
export function errorMessage(code: string, params: Params): string | null {
  return MESSAGES[code]?.(params) ?? null;
}
