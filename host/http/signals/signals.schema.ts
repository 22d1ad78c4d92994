import { z } from "zod";
import { DateField } from "../portfolio/portfolio-fields.ts";

/** One signal instance, as `POST /signals/preview`, price queries and FX conversions take it (REFERENCE §2.11). */
export const SignalInstance = z.object({
  instance_id: z.string().min(1).max(128),
  signal_code: z.string().min(1).max(64).regex(/^[A-Z0-9_]+$/, "upper-case letters, digits and _"),
  params: z.record(z.string(), z.unknown()).default({}),
}).strict();

export const SignalList = z.array(SignalInstance).max(32)
  .refine((a) => new Set(a.map((s) => s.instance_id)).size === a.length, "instance_id must be unique");

export const SignalsPreviewRequest = z.object({
  domain: z.enum(["asset", "fx"]),
  points: z.array(z.object({ date: DateField, value: z.number().finite() }).strict()).max(2000)
    .refine((p) => p.every((x, i) => i === 0 || x.date > p[i - 1]!.date), "dates must be strictly increasing"),
  signals: SignalList,
}).strict();

const Line = z.array(z.object({ date: z.string(), value: z.number().nullable() }));
export const SignalResult = z.object({
  instance_id: z.string(),
  signal_code: z.string(),
  status: z.enum(["ok", "failed"]),
  outputs: z.record(z.string(), Line),
  error: z.object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()).optional() }).optional(),
});
export const SignalsPreviewResponse = z.object({ signals: z.array(SignalResult) });

export const SignalCatalogResponse = z.object({
  items: z.array(z.object({
    signal_code: z.string(), name: z.string(), domains: z.array(z.string()), params_schema: z.record(z.string(), z.unknown()),
    outputs: z.array(z.string()), requires_volume: z.boolean(),
  })),
});
