/**
 * Descriptions of wire fields by name, used where a schema gives none. A field whose meaning
 * differs by resource gets its own `.describe()` in the schema file, which wins.
 */
const FIELDS: Record<string, string> = {
};

export function fieldDescription(name: string): string | undefined {
  return FIELDS[name];
}
