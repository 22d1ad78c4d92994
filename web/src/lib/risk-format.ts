/**
 * Reading and formatting the risk analytics' outputs. The API types an analytic's `output` as an
 * open object (its shape depends on `output_kind`, docs/risk.md), so the pages read fields through
 * these checked accessors instead of casting to hand-written interfaces.
 */
import type { Result } from "../api/client.ts";
import { formatDecimal } from "./format.ts";

export type RiskItem = Result<"post", "/risk/query">["items"][number];
export type RiskCatalogItem = Result<"get", "/risk/catalog">["items"][number];
type Obj = Record<string, unknown>;

/** A number field of an output object, or null when it is absent or not a finite number. */
export function num(o: unknown, key: string): number | null {
  const v = o && typeof o === "object" ? (o as Obj)[key] : undefined;
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

/** A string field (a decimal amount, a date, a code), or null. */
export function str(o: unknown, key: string): string | null {
  const v = o && typeof o === "object" ? (o as Obj)[key] : undefined;
  return typeof v === "string" ? v : null;
}

/** An object field, or null. */
export function obj(o: unknown, key: string): Obj | null {
  const v = o && typeof o === "object" ? (o as Obj)[key] : undefined;
  return v && typeof v === "object" && !Array.isArray(v) ? v as Obj : null;
}

/** An array field of objects, or an empty list. */
export function rows(o: unknown, key: string): Obj[] {
  const v = o && typeof o === "object" ? (o as Obj)[key] : undefined;
  return Array.isArray(v) ? v.filter((x): x is Obj => !!x && typeof x === "object") : [];
}

/** A fraction (0.1234) as a percentage with two decimals in the user's locale ("12.34 %"); "—" for null. */
export function fractionText(v: number | null, locale: string): string {
  if (v === null) return "—";
  return `${formatDecimal((v * 100).toFixed(2), locale, { minPlaces: 2, maxPlaces: 2 })} %`;
}

/** A ratio (Sharpe, beta) with two decimals; "—" for null. */
export function ratioText(v: number | null, locale: string): string {
  return v === null ? "—" : formatDecimal(v.toFixed(2), locale, { minPlaces: 2, maxPlaces: 2 });
}
