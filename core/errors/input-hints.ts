import { z } from "zod";

/**
 * Messages that lead to the fix (docs/errors.md "Request validation: 422"): an unknown key names
 * the field it was probably meant for (`amount` → `cash.amount`), and a bulk route given one object
 * says it takes an array.
 * Used by the one validation converter (errors.ts) and by per-row batch issues (transactions).
 */

type Shape = Record<string, z.ZodType>;

/** The schema under optional, nullable, default, pipe (input side) and lazy wrappers. */
export function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema;
  for (let i = 0; i < 20; i++) {
    const def = s._zod.def as { type: string; innerType?: z.ZodType; in?: z.ZodType; getter?: () => z.ZodType };
    if (def.innerType) s = def.innerType;
    else if (def.type === "pipe" && def.in) s = def.in;
    else if (def.type === "lazy" && def.getter) s = def.getter();
    else break;
  }
  return s;
}

function shapeOf(schema: z.ZodType): Shape | undefined {
  const s = unwrap(schema);
  const def = s._zod.def as { type: string; shape?: Shape; options?: z.ZodType[] };
  if (def.type === "object") return def.shape;
  if (def.type === "union") {
    const shapes = def.options!.map(shapeOf).filter((x): x is Shape => x !== undefined);
    return shapes.length ? Object.assign({}, ...shapes) : undefined;
  }
  return undefined;
}

function elementOf(schema: z.ZodType): z.ZodType | undefined {
  const s = unwrap(schema);
  const def = s._zod.def as { type: string; element?: z.ZodType };
  return def.type === "array" ? def.element : undefined;
}

/** The object shape at `path` inside `schema` (array indexes step into elements). */
export function shapeAt(schema: z.ZodType, path: readonly PropertyKey[]): Shape | undefined {
  let s: z.ZodType | undefined = schema;
  for (const seg of path) {
    if (!s) return undefined;
    s = typeof seg === "number" ? elementOf(s) : shapeOf(s)?.[String(seg)];
  }
  return s ? shapeOf(s) : undefined;
}

function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
  }
  return d[a.length]![b.length]!;
}

/** Fields of `shape` the unknown `key` was probably meant as: nested (`cash.amount`) or similarly spelled. */
export function nearFields(shape: Shape, key: string): string[] {
  const nested: string[] = [];
  for (const [name, sub] of Object.entries(shape)) {
    const inner = shapeOf(sub) ?? (elementOf(sub) && shapeOf(elementOf(sub)!));
    if (inner && key in inner) nested.push(elementOf(sub) ? `${name}[].${key}` : `${name}.${key}`);
  }
  if (nested.length) return nested;
  const lower = key.toLowerCase();
  return Object.keys(shape).filter((name) => {
    const n = name.toLowerCase();
    return distance(n, lower) <= Math.max(1, Math.floor(lower.length / 4)) || n.startsWith(`${lower}_`) || n === `${lower}s` || lower === `${n}s`;
  });
}

/** "Unknown field 'amount'; did you mean 'cash.amount'?" (or the fields the object takes). */
export function unknownFieldMessage(shape: Shape | undefined, key: string): string {
  const base = `Unknown field '${key}'`;
  if (!shape) return base;
  const near = nearFields(shape, key);
  if (near.length) return `${base}; did you mean ${near.map((n) => `'${n}'`).join(" or ")}?`;
  const known = Object.keys(shape);
  return known.length <= 20 ? `${base}; this object takes: ${known.join(", ")}` : base;
}

/** "This endpoint takes an array of {name, currency, ...}" for a bulk route given something else. */
export function bulkMessage(schema: z.ZodType): string | undefined {
  const element = elementOf(schema);
  if (!element) return undefined;
  const keys = Object.keys(shapeOf(element) ?? {});
  const what = keys.length ? `objects {${keys.slice(0, 6).join(", ")}${keys.length > 6 ? ", ..." : ""}}` : "items";
  return `This endpoint takes an array of ${what}: send a JSON array, even for one item`;
}
