import type { z } from "zod";

/**
 * How a calculation tool appears in the tools catalog (besides the manifest's
 * `name` and `description`): `category` (e.g. `"savings"`), `contractVersion`
 * (semver of the input/output shape; bump the major when it breaks clients),
 * `iconKey?` (an icon name the UI knows), `operation?` (what the tool does, e.g.
 * `"plan"`; default `"compute"`).
 */
export interface CalculationToolCatalogEntry {
  readonly category: string;
  readonly contractVersion: string;
  readonly iconKey?: string;
  readonly operation?: string;
}

/**
 * Contract of kind `calculation-tool`: a stand-alone calculator (compound
 * interest, loan schedule). The host validates input with `inputSchema`, runs
 * `compute` in a worker, and validates the result with `outputSchema`. Money
 * in and out is `DecimalString`, computed with the SDK `Decimal`.
 */
export interface CalculationTool<I = unknown, O = unknown> {
  /** Catalog metadata. */
  readonly catalog: CalculationToolCatalogEntry;
  /**
   * The calculation: pure, synchronous, deterministic, over plain data (it runs
   * in a worker, so no I/O, no clock, no randomness). Throw a `PluginError`
   * with reason `invalid-input` for input the schema can't rule out.
   */
  compute(input: I): O;
  /** Validates the input; also published as JSON Schema in the catalog. */
  readonly inputSchema: z.ZodType<I>;
  /** Validates the output; also published as JSON Schema in the catalog. */
  readonly outputSchema: z.ZodType<O>;
}
