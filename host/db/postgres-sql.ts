/**
 * The few SQLite spellings in the app's raw SQL, said in PostgreSQL (docs/decisions.md
 * "PostgreSQL"). Every raw query goes through here on PostgreSQL (the pg client of
 * host/db/postgres.ts), so services keep one SQL text for both databases:
 * - `?` placeholders → `$1, $2, …` (outside quoted strings and identifiers);
 * - `datetime('now')` → `now()` (timestamps are `timestamptz` on PostgreSQL);
 * - `INSERT OR IGNORE INTO …` → `INSERT INTO … ON CONFLICT DO NOTHING`;
 * - `CAST(x AS REAL)` → `CAST(x AS double precision)`; `IFNULL(` → `COALESCE(`;
 * - `json_each(x)` (a JSON array in a text column) → `json_array_elements_text((x)::json)` (its column is `value` too).
 * SQL that TypeORM writes for PostgreSQL has none of these and passes through unchanged.
 */
export function toPostgresSql(sql: string): string {
  let out = cache.get(sql);
  if (out !== undefined) return out;
  out = translate(sql);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(sql, out);
  return out;
}

const CACHE_LIMIT = 2000;
const cache = new Map<string, string>();

function translate(sql: string): string {
  let text = numberPlaceholders(sql);
  if (!/datetime\(|INSERT\s+OR\s+IGNORE|AS\s+REAL|IFNULL\(|json_each\(/i.test(text)) return text;
  text = text.replace(/datetime\('now'\)/gi, "now()")
    .replace(/CAST\(([^()]*?)\s+AS\s+REAL\)/gi, "CAST($1 AS double precision)")
    .replace(/\bIFNULL\(/gi, "COALESCE(")
    .replace(/\bjson_each\(([^()]+)\)/gi, "json_array_elements_text(($1)::json)");
  if (/^\s*INSERT\s+OR\s+IGNORE\s+INTO/i.test(text)) {
    text = text.replace(/^(\s*)INSERT\s+OR\s+IGNORE\s+INTO/i, "$1INSERT INTO");
    const returning = text.search(/\sRETURNING\s/i);
    text = returning < 0 ? `${text} ON CONFLICT DO NOTHING` : `${text.slice(0, returning)} ON CONFLICT DO NOTHING${text.slice(returning)}`;
  }
  return text;
}

/** `?` → `$n`, skipping '…' strings, "…" identifiers and -- comments. */
function numberPlaceholders(sql: string): string {
  if (!sql.includes("?")) return sql;
  let out = "";
  let n = 0;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i]!;
    if (c === "'" || c === '"') {
      const end = sql.indexOf(c, i + 1);
      const stop = end < 0 ? sql.length - 1 : end;
      out += sql.slice(i, stop + 1);
      i = stop;
    } else if (c === "-" && sql[i + 1] === "-") {
      const end = sql.indexOf("\n", i);
      const stop = end < 0 ? sql.length - 1 : end;
      out += sql.slice(i, stop + 1);
      i = stop;
    } else if (c === "?") {
      out += `$${++n}`;
    } else {
      out += c;
    }
  }
  return out;
}
