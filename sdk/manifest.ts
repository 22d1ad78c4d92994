import { z } from "zod";

/**
 * Every plugin kind, sorted. A plugin has exactly one kind, which decides the
 * contract its instance implements (see the `kinds/` interfaces).
 */
export const PLUGIN_KINDS = Object.freeze([
  "ai-export-dataset",
  "calculation-tool",
  "fx-provider",
  "import-plugin",
  "quote-provider",
  "risk-tool",
  "scheduled-investment-provider",
] as const);

/** One of {@link PLUGIN_KINDS}, e.g. `"fx-provider"`. */
export type PluginKind = (typeof PLUGIN_KINDS)[number];

/**
 * The one pattern for plugin ids: lower-case letters and digits, starting with
 * a letter, in words joined by single `-` or `_`, at most 64 characters.
 * `"ecb"`, `"yahoo-finance"` and `"calc_xirr"` pass; `"Yahoo"`, `"-x"`,
 * `"a--b"` and `"a.b"` fail. An id is forever: stored data is keyed by it.
 */
export const PluginIdSchema = z
  .string()
  .max(64)
  .regex(/^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$/, "must be lower-case words joined by - or _, e.g. my-plugin");

/** Parses a {@link PluginKind}; anything else fails with the list of kinds. */
export const PluginKindSchema = z.enum(PLUGIN_KINDS);

// semver.org's recommended pattern, without the named groups.
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

// Checked by shape, not instanceof: an external plugin may bring its own zod copy.
function isZodLike(value: unknown): value is z.ZodType {
  const candidate = value as { safeParse?: unknown; "~standard"?: unknown } | null;
  return typeof candidate === "object" && candidate !== null && typeof candidate.safeParse === "function" && "~standard" in candidate;
}

function isFileUrl(value: string): boolean {
  return URL.canParse(value) && new URL(value).protocol === "file:";
}

/**
 * Validates a plugin manifest, the static description the host reads before
 * creating anything. Fields: `apiVersion` (SDK major, positive integer),
 * `assetsUrl?` (a `file:` URL of a folder of static assets such as icons,
 * usually `new URL("./assets/", import.meta.url).href`; the host serves it
 * under `/api/v1/uploads/plugin/{kind}/{id}/{path}`), `configSchema?` (a zod
 * schema the host parses the plugin's config with), `description`,
 * `hidden?` (kept out of user-facing lists, e.g. mock providers), `id`
 * ({@link PluginIdSchema}), `kind`, `name` (display name), `version` (the
 * plugin's own semver). Unknown keys are dropped, so a manifest written for a
 * newer minor SDK still parses.
 */
export const PluginManifestSchema = z.object({
  apiVersion: z.number().int().positive(),
  assetsUrl: z.string().refine(isFileUrl, "must be a file: URL of a folder").optional(),
  configSchema: z.custom<z.ZodType>(isZodLike, "must be a zod schema").optional(),
  description: z.string().trim().min(1).max(1000),
  hidden: z.boolean().optional(),
  id: PluginIdSchema,
  kind: PluginKindSchema,
  name: z.string().trim().min(1).max(100),
  version: z.string().regex(SEMVER, "must be a semantic version such as 1.2.3"),
});

/** A parsed manifest; see {@link PluginManifestSchema} for each field. */
export type PluginManifest = z.output<typeof PluginManifestSchema>;
