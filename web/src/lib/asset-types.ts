import { msg, t } from "./i18n.ts";

/** The asset type codes the API accepts (docs/assets.md), with their names for display. */
export const ASSET_TYPE_NAMES = {
  STOCK: msg("Stock"),
  ETF: msg("ETF"),
  BOND: msg("Bond"),
  CRYPTO: msg("Crypto"),
  FUND: msg("Fund"),
  CROWDFUND: msg("Crowdfunding"),
  HOLD: msg("Holding"),
  INDEX: msg("Index"),
  OTHER: msg("Other"),
} as const;

export type AssetTypeCode = keyof typeof ASSET_TYPE_NAMES;

export const ASSET_TYPES = Object.keys(ASSET_TYPE_NAMES) as AssetTypeCode[];

/**
 * An asset type's name in the interface language ("BOND" → "Bond", "Anleihe", ...). The code stays
 * what the API receives; a code this app does not know shows as is.
 */
export function assetTypeLabel(code: string | null | undefined): string {
  if (!code) return "";
  const name = (ASSET_TYPE_NAMES as Record<string, string | undefined>)[code];
  return name ? t(name) : code;
}

/** The options of an asset type select. */
export function assetTypeOptions(): { value: string; label: string }[] {
  return ASSET_TYPES.map((code) => ({ value: code, label: assetTypeLabel(code) }));
}
