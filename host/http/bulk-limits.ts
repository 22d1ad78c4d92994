import { Elysia } from "elysia";
import { PayloadTooLargeError } from "../../core/errors/domain-error.ts";

/**
 * Limits of the bulk routes (docs/security.md "Bulk-read limits"): how many items one request may
 * carry, how many days × series a read may span, how large an answer may grow. A request over a
 * limit is refused before any work with 413 `LIMIT_EXCEEDED`, whose message names the limit and
 * the requested amount and whose `params` carry both (`limit`, `requested`, `unit`).
 */
export const LIMIT_EXCEEDED = "LIMIT_EXCEEDED";

/** Detail key under which a limited route lists its limits; the OpenAPI document adds them to its description and a 413. */
export const LIMITS_DOC = "x-limits";

export const amount = (n: number) => n.toLocaleString("en-US");

/**
 * The refusal of a request asking for `requested` `unit` where at most `limit` are allowed ("at most
 * 1,000 items per request; this one asks for 1,001"); `per` follows the unit (none for a unit that
 * says its own scope, such as "signals in one item").
 */
export function limitExceeded(limit: number, requested: number, unit: string, hint?: string, per = " per request"): PayloadTooLargeError {
  return new PayloadTooLargeError(
    LIMIT_EXCEEDED,
    `at most ${amount(limit)} ${unit}${per}; this one asks for ${amount(requested)}${hint ? `. ${hint}` : ""}`,
    { limit, requested, unit },
  );
}

/** One limit of a route: what it counts and how much of it one request may ask for. */
export interface Limit {
  /** The most one request may ask for. */
  max: number;
  /** What is counted, plural ("items", "price points", "day-series"). */
  unit: string;
  /**
   * Counts the request. Unless `validated`, it runs before the body and query are validated (right
   * after the session check), so it must accept any shape and count what is there (0 when nothing).
   */
  count: (request: { body: any; query: any }) => number;
  /** Counted after validation (on the parsed body and query), e.g. days of checked date ranges. */
  validated?: boolean;
  /** Appended to the refusal's message: how to ask within the limit. */
  hint?: string;
  /** What follows the unit in the message: " per request" unless the unit says its own scope ("signals in one item": ""). */
  per?: string;
  /** One line of the route's documentation; defaults to "at most {max} {unit} per request". */
  doc?: string;
}

/** Length of `value` when it is an array (a repeated query key arrives as an array; a single one as a string: 1). */
export function listLength(value: unknown): number {
  if (Array.isArray(value)) return value.length;
  return value === undefined || value === null ? 0 : 1;
}

/** Sum of `count(item)` over the items of `value` when it is an array. */
export function sumOver(value: unknown, count: (item: any) => number): number {
  if (!Array.isArray(value)) return 0;
  let n = 0;
  for (const item of value) n += item !== null && typeof item === "object" ? count(item) : 0;
  return n;
}

/** The common limit of a body that is an array of items. */
export const itemsLimit = (max: number, hint = "Split the items over several requests"): Limit => ({
  max, unit: "items", count: ({ body }) => listLength(Array.isArray(body) ? body : undefined), hint,
});

const describe = (limits: readonly Limit[]) => limits.map((l) => l.doc ?? `at most ${amount(l.max)} ${l.unit} per request`);

function check(limits: readonly Limit[], validated: boolean, ctx: { body: unknown; query: unknown }) {
  for (const l of limits) {
    if (Boolean(l.validated) !== validated) continue;
    const requested = l.count({ body: ctx.body, query: ctx.query });
    if (requested > l.max) throw limitExceeded(l.max, requested, l.unit, l.hint, l.per);
  }
}

/**
 * The `limits` route option: `limits: [itemsLimit(1000), {...}]`. Counts run after the session check
 * (list `limits` after `auth` in the route's options: macros run in that order) and, unless
 * `validated`, before validation, so a request over a limit costs neither a schema check of every
 * item nor any work. The limits are written into the route's OpenAPI description (with a 413).
 */
export const bulkLimits = new Elysia({ name: "bulk-limits" }).macro({
  limits: (limits: Limit[]) => ({
    detail: { [LIMITS_DOC]: describe(limits) } as {},
    transform: (ctx: any) => check(limits, false, ctx),
    beforeHandle: (ctx: any) => check(limits, true, ctx),
  }),
});

/** A limit on the largest list under `key` in one item of an array body ("signals in one item"). */
export function perItemLimit(max: number, key: string, unit: string, hint?: string): Limit {
  return {
    max, unit: `${unit} in one item`, per: "", hint,
    count: ({ body }) => (Array.isArray(body) ? body.reduce((n: number, item) => Math.max(n, listLength(item?.[key] ?? undefined)), 0) : 0),
    doc: `at most ${amount(max)} ${unit} per item`,
  };
}

/** A limit on a repeated query key (`?ids=1&ids=2`). */
export function queryListLimit(max: number, key: string, unit = "ids"): Limit {
  return { max, unit, count: ({ query }) => listLength(query?.[key]), hint: `Send the ${unit} in several requests` };
}
