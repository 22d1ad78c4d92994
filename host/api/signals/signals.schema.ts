import { z } from "zod";
import { DayField } from "../../http/fields.ts";

/** One signal instance, as `POST /signals/preview`, price queries and FX conversions take it (docs/risk.md "Signals"). */
export const SignalInstance = z.object({
  instance_id: z.string().min(1).max(128).describe("Caller's id of this signal, echoed in its result (unique)"),
  signal_code: z.string().min(1).max(64).regex(/^[A-Z0-9_]+$/, "upper-case letters, digits and _").describe("A signal of GET /signals/catalog"),
  params: z.record(z.string(), z.unknown()).default({}).describe("The signal's parameters (its params_schema)"),
}).strict();

/** Bulk limits (docs/security.md "Bulk-read limits"); beyond them 413 LIMIT_EXCEEDED. */
export const MAX_SIGNALS = 32;
export const MAX_PREVIEW_POINTS = 2000;

export const SignalList = z.array(SignalInstance).max(MAX_SIGNALS)
  .refine((a) => new Set(a.map((s) => s.instance_id)).size === a.length, "instance_id must be unique");

export const SignalsPreviewRequest = z.object({
  domain: z.enum(["asset", "fx"]),
  points: z.array(z.object({ date: DayField, value: z.number().finite() }).strict()).max(MAX_PREVIEW_POINTS).describe("Up to 2,000 points, dates strictly increasing")
    .refine((p) => p.every((x, i) => i === 0 || x.date > p[i - 1]!.date), "dates must be strictly increasing"),
  signals: SignalList.describe("Up to 32 signal instances"),
}).strict();

const Line = z.array(z.object({ date: z.string(), value: z.number().nullable() }));
export const SignalResult = z.object({
  instance_id: z.string().describe("The request's instance_id"),
  signal_code: z.string().describe("The signal computed"),
  status: z.enum(["ok", "failed"]),
  outputs: z.record(z.string(), Line).describe("One line per output (value; macd/signal/histogram; upper/middle/lower; up/down), null during the warm-up"),
  error: z.object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()).optional().describe("Context of the error") }).optional(),
});
export const SignalsPreviewResponse = z.object({ signals: z.array(SignalResult).describe("One result per requested signal, in request order") });

export const SignalCatalogResponse = z.object({
  items: z.array(z.object({
    signal_code: z.string().describe("Code to request it by"), name: z.string(), domains: z.array(z.string()).describe("Series it applies to: asset, fx"),
    params_schema: z.record(z.string(), z.unknown()).describe("JSON Schema of its parameters"),
    outputs: z.array(z.string()).describe("Names of its output lines"), requires_volume: z.boolean().describe("Refused on series without traded volume"),
  })),
});
