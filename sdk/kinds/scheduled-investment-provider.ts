import type { z } from "zod";
import type { IsoDate, IsoDateRange } from "../dates.ts";
import type { DecimalString } from "../money.ts";
import type { AssetEvent } from "./quote-provider.ts";

/**
 * Input of the generation methods: the asset's `params` (already parsed by
 * `paramsSchema`) and the inclusive day range to generate.
 */
export interface ScheduleInput<P> {
  readonly params: P;
  readonly range: IsoDateRange;
}

/** A generated value of the investment on one day, per unit, in the asset's currency. */
export interface ScheduledPrice {
  readonly date: IsoDate;
  readonly value: DecimalString;
}

/**
 * Contract of kind `scheduled-investment-provider`: prices and events computed
 * from parameters instead of fetched (a savings bond, a crowdfunding loan).
 * Both generators are pure and synchronous: same input, same output, no I/O,
 * so the host may run them in a worker. The parameter shapes (day-count
 * conventions, schedules) are expected to grow in later minor versions.
 */
export interface ScheduledInvestmentProvider<P = unknown> {
  /** Events (INTEREST, MATURITY_SETTLEMENT, ...) in the range, oldest first. */
  generateEvents(input: ScheduleInput<P>): readonly AssetEvent[];
  /** Values in the range, oldest first; days with no value are absent. */
  generatePrices(input: ScheduleInput<P>): readonly ScheduledPrice[];
  /** Validates the parameters an asset assignment supplies (shown to users as a form). */
  readonly paramsSchema: z.ZodType<P>;
}
