import { z } from "zod";
import { bulkMessage, shapeAt, unknownFieldMessage } from "./input-hints.ts";

/** One issue of a refused request (docs/errors.md): where (`loc`) and what to change (`msg`). */
export type Issue = { loc: (string | number)[]; msg: string; type: string };

/**
 * The issues of `value` against a zod `schema`, as the 422 body lists them, so each can lead to the
 * fix: one issue per unknown key, at that key, naming the field it was probably meant for; a bulk
 * route given anything but an array says so. Null when the value passes. Free of the HTTP
 * framework, so a worker that validates a body off the request thread renders the same issues.
 */
export function schemaIssues(on: string, schema: z.ZodType, value: unknown): Issue[] | null {
  const result = schema.safeParse(value);
  return result.success ? null : issuesOf(on, schema, result.error.issues);
}

/** {@link schemaIssues} of a failed parse's zod issues. */
export function issuesOf(on: string, schema: z.ZodType, issues: readonly z.core.$ZodIssue[]): Issue[] {
  return issues.flatMap((i): Issue[] => {
    const path = i.path.map((p) => (typeof p === "number" ? p : String(p)));
    if (i.code === "unrecognized_keys") {
      const shape = shapeAt(schema, path);
      return i.keys.map((key) => ({ loc: [on, ...path, key], msg: unknownFieldMessage(shape, key), type: i.code }));
    }
    if (i.code === "invalid_type" && path.length === 0 && i.expected === "array" && on === "body") {
      return [{ loc: [on], msg: bulkMessage(schema) ?? i.message, type: i.code }];
    }
    return [{ loc: [on, ...path], msg: i.message, type: i.code }];
  });
}
