import { z } from "zod";
import { DayField } from "../../http/fields.ts";
import { OpenDateRange } from "./portfolio-fields.ts";
import type { WacQuery, WacQueryResult } from "../../../core/portfolio/wac-series.service.ts";

const Id = z.number().int().positive();

/** (broker, asset) series per request (docs/security.md "Bulk-read limits"); beyond it 413 LIMIT_EXCEEDED. */
export const MAX_WAC_QUERIES = 20;

export const WacRequest = z.object({
  queries: z.array(z.object({ broker_id: Id, asset_id: Id, date_range: OpenDateRange.optional() }).strict()).min(1).max(MAX_WAC_QUERIES),
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
