import { join } from "node:path";
import { z } from "zod";

/** The API areas: every `*.schema.ts` under host/api/ is read here by file, not imported by name. */
const API_DIR = join(import.meta.dir, "..", "..", "api");

/** Exports that describe path or query parameters stay inline: OpenAPI lists them one by one. */
const PARAMETER_SCHEMA = /(Params|Query)$/;

let registered: Promise<void> | undefined;

/**
 * Names every exported zod schema of `host/api/**\/*.schema.ts` after its export (`BrokerRead`,
 * `ErrorBody`, ...) in zod's global registry, so the generator emits it once under
 * `components.schemas` and refers to it by `$ref` everywhere else. An explicit `.meta({ id })`
 * wins. When two files export different schemas under one name, both get their file's area as
 * a prefix (`EventsDeleteResponse`, `UploadsDeleteResponse`), so names do not depend on load order.
 */
export function registerComponentSchemas(extra: Record<string, unknown> = {}): Promise<void> {
  registered ??= (async () => {
    const files = [...new Bun.Glob("**/*.schema.ts").scanSync({ cwd: API_DIR })].sort();
    const found = new Map<string, { schema: z.ZodType; area: string }[]>();
    const add = (name: string, value: unknown, area: string) => {
      if (!(value instanceof z.ZodType) || PARAMETER_SCHEMA.test(name) || !/^[A-Z]/.test(name) || !isStructured(value)) return;
      const list = found.get(name) ?? [];
      if (!list.some((e) => e.schema === value)) list.push({ schema: value, area });
      found.set(name, list);
    };
    for (const [name, value] of Object.entries(extra)) add(name, value, "");
    for (const file of files) {
      const module = await import(join(API_DIR, file));
      const area = pascal(file.split("/").at(-1)!.replace(/\.schema\.ts$/, ""));
      for (const [name, value] of Object.entries(module)) add(name, value, area);
    }
    const taken = new Set<z.ZodType>();
    for (const [name, list] of [...found].sort(([a], [b]) => a.localeCompare(b))) {
      for (const { schema, area } of list) {
        if (taken.has(schema)) continue;
        taken.add(schema);
        const meta = z.globalRegistry.get(schema);
        if (meta?.id) continue;
        z.globalRegistry.add(schema, { ...meta, id: list.length > 1 ? `${area}${name}` : name });
      }
    }
  })();
  return registered;
}

/** Objects, arrays and unions get names; a named scalar would only hide its type behind a `$ref`. */
function isStructured(schema: z.ZodType): boolean {
  const def = schema._zod.def as { type: string; in?: z.ZodType; innerType?: z.ZodType; options?: z.ZodType[] };
  if (def.type === "object" || def.type === "array" || def.type === "record" || def.type === "intersection") return true;
  if (def.type === "union") return def.options!.some(isStructured);
  if (def.type === "pipe") return isStructured(def.in!);
  if (def.innerType) return isStructured(def.innerType);
  return false;
}

function pascal(s: string): string {
  return s.split(/[-_]/).map((p) => p.charAt(0).toUpperCase() + p.slice(1)).join("");
}
