import type { AreaDocs } from "./operations.ts";

/**
 * Descriptions of wire fields by name, used where a schema gives none (a schema's own
 * `.describe()` wins): every area's fields (host/api/openapi.ts lists the areas, the fields every
 * area uses first), one text per name. A name described twice is refused, so one area never
 * silently rewords another's field.
 */
export function fieldGlossary(areas: readonly AreaDocs[]): (name: string) => string | undefined {
  const fields = new Map<string, string>();
  for (const area of areas) {
    for (const [name, text] of Object.entries(area.fields ?? {})) {
      if (fields.has(name)) throw new Error(`OpenAPI: field ${name} is described twice`);
      fields.set(name, text);
    }
  }
  return (name) => fields.get(name);
}
