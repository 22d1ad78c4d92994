import { z } from "zod";
import { IsoDateSchema } from "../dates.ts";
import { CurrencyCodeSchema, DecimalStringSchema } from "../money.ts";

// zod mirrors of the kind interfaces, used by the contract suites to check what a plugin returns.

/** Checks a `Money` value: a decimal-string amount in a currency. */
export const MoneySchema = z.object({ amount: DecimalStringSchema, currency: CurrencyCodeSchema });

/** Checks a `Quote`. */
export const QuoteSchema = z.object({ currency: CurrencyCodeSchema, date: IsoDateSchema, price: DecimalStringSchema });

/** Checks a `QuoteSearchResult`: a non-empty identifier and a name. */
export const QuoteSearchResultSchema = z.object({
  currency: CurrencyCodeSchema.optional(),
  identifier: z.string().min(1),
  name: z.string(),
});

/** Checks a `PricePoint`: decimal-string prices on an ISO day. */
export const PricePointSchema = z.object({
  close: DecimalStringSchema,
  date: IsoDateSchema,
  high: DecimalStringSchema.optional(),
  low: DecimalStringSchema.optional(),
  open: DecimalStringSchema.optional(),
  volume: DecimalStringSchema.optional(),
});

/** Checks an `AssetEvent` with one of the five event types. */
export const AssetEventSchema = z.object({
  currency: CurrencyCodeSchema.optional(),
  date: IsoDateSchema,
  type: z.enum(["DIVIDEND", "INTEREST", "MATURITY_SETTLEMENT", "PRICE_ADJUSTMENT", "SPLIT"]),
  value: DecimalStringSchema,
});

/** Checks an `FxRate`: a decimal-string rate on an ISO day. */
export const FxRateSchema = z.object({ date: IsoDateSchema, rate: DecimalStringSchema });

/** Checks a `ScheduledPrice`. */
export const ScheduledPriceSchema = z.object({ date: IsoDateSchema, value: DecimalStringSchema });

/** Checks an `ImportResult`: transactions with known types, decimal strings and ISO days, plus warnings. */
export const ImportResultSchema = z.object({
  detectedFormat: z.string().min(1).optional(),
  skippedRows: z.array(z.object({ line: z.number().int().positive(), reason: z.string().min(1) })).optional(),
  transactions: z.array(
    z.object({
      assetCurrency: CurrencyCodeSchema.optional(),
      assetName: z.string().optional(),
      cash: MoneySchema.optional(),
      costBasis: MoneySchema.optional(),
      date: IsoDateSchema,
      description: z.string().optional(),
      isin: z.string().optional(),
      orderId: z.string().optional(),
      pairKey: z.string().optional(),
      quantity: DecimalStringSchema.optional(),
      row: z.number().int().positive().optional(),
      symbol: z.string().optional(),
      tags: z.array(z.string()).optional(),
      type: z.enum([
        "ADJUSTMENT", "BUY", "CASH_TRANSFER", "DEPOSIT", "DIVIDEND", "FEE",
        "FX_CONVERSION", "INTEREST", "SELL", "TAX", "TRANSFER", "WITHDRAWAL",
      ]),
    }),
  ),
  warnings: z.array(
    z.object({
      code: z.string().min(1),
      message: z.string(),
      row: z.number().int().positive().optional(),
      severity: z.enum(["info", "warning"]),
    }),
  ),
});

/** Checks an `AiExportDatasetDescription`. */
export const AiExportDescriptionSchema = z.object({
  applicabilityCode: z.string().min(1).optional(),
  applicablePages: z.array(z.string()).optional(),
  domain: z.enum(["asset", "broker", "fx", "portfolio"]),
  icon: z.string().min(1).optional(),
  optionalComponentIds: z.array(z.string()).optional(),
  requiredComponentIds: z.array(z.string()).optional(),
  periodSemantics: z.enum(["aggregated", "as_of", "none", "windowed"]),
  supportedDetailLevels: z.array(z.enum(["compact", "full", "standard"])).min(1),
  title: z.string().min(1),
});

/** Dates of a series: each inside the range, strictly ascending. */
export function datesInOrderWithin(dates: readonly string[], range: { from: string; to: string }): boolean {
  return dates.every((date, i) => date >= range.from && date <= range.to && (i === 0 || dates[i - 1]! < date));
}
