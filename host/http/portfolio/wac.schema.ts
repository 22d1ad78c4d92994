import { z } from "zod";
import type { WacQuery, WacQueryResult } from "../../../core/portfolio/wac-series.service.ts";

const DateField = z.iso.date();
const Id = z.number().int().positive();

/** `start` absent, null or "min" and `end` absent, null or "max" leave that side open (docs/portfolio.md "Period"). */
const OpenDateRange = z.object({
  start: z.union([DateField, z.enum(["min"])]).nullish(),
  end: z.union([DateField, z.enum(["max"])]).nullish(),
}).strict().refine((r) => !r.start || r.start === "min" || !r.end || r.end === "max" || r.end >= r.start, {
  message: "end must not be before start", path: ["end"],
});

export const WacRequest = z.object({
  queries: z.array(z.object({ broker_id: Id, asset_id: Id, date_range: OpenDateRange.optional() }).strict()).min(1).max(20),
}).strict();

export const WacResponse = z.object({
  results: z.array(z.object({
    broker_id: z.number(),
    asset_id: z.number(),
    currency: z.string(),
    series: z.array(z.object({
      date: z.string(),
      wac: z.string().nullable(),
      pool_qty: z.string(),
      effect: z.enum(["add", "reduce", "add_zero_cost", "add_at_wac"]),
    })),
    missing_fx_pairs: z.array(z.object({ pair: z.string(), dates: z.array(z.string()) })),
  })),
});

export const toWacQuery = (q: z.infer<typeof WacRequest>["queries"][number]): WacQuery => {
  const start = q.date_range?.start;
  const end = q.date_range?.end;
  return {
    assetId: q.asset_id, brokerId: q.broker_id,
    start: !start || start === "min" ? null : start, end: !end || end === "max" ? null : end,
  };
};

export const toWacResult = (r: WacQueryResult): z.infer<typeof WacResponse>["results"][number] => ({
  broker_id: r.brokerId,
  asset_id: r.assetId,
  currency: r.currency,
  series: r.series.map((p) => ({ date: p.date, wac: p.wac, pool_qty: p.poolQty, effect: p.effect })),
  missing_fx_pairs: r.missingFxPairs.map((m) => ({ pair: m.pair, dates: m.dates })),
});
