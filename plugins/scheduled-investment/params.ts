import { boundedDecimal, CurrencyCodeSchema, Decimal, IsoDateSchema, z } from "../../sdk/index.ts";
import { DAY_COUNTS, dayNumber, isoDay } from "./day-count.calc.ts";

/** How often a period matures (closes an accrual cycle). */
export const MATURATION_FREQUENCIES = ["DAILY", "WEEKLY", "MONTHLY", "QUARTERLY", "SEMIANNUAL", "ANNUAL"] as const;
export type MaturationFrequency = (typeof MATURATION_FREQUENCIES)[number];

/** Event types a schedule may list. SPLIT is refused: its value is a ratio, here every value is money. */
export const SCHEDULE_EVENT_TYPES = ["DIVIDEND", "INTEREST", "MATURITY_SETTLEMENT", "PRICE_ADJUSTMENT"] as const;

const isNegative = (text: string) => new Decimal(text).lessThan(0);

/** Value checks run only on input that passed the shape checks (a failed regex does not abort in zod 4). */
const whenClean = { when: (payload: { issues: readonly unknown[] }) => payload.issues.length === 0 };

/** Rates and amounts within the supported range of decimals (docs/errors.md): beyond it the arithmetic would round. */
const RateSchema = boundedDecimal("rate").refine((rate) => !isNegative(rate), { message: "must not be negative", ...whenClean }).describe(
  'Yearly rate as a decimal fraction: "0.035" is 3.5 %',
);

const MoneySchema = z
  .object({ amount: boundedDecimal("amount"), code: CurrencyCodeSchema })
  .strict()
  .describe("An amount in a currency, e.g. {code: EUR, amount: 10000.00}");

const PeriodSchema = z
  .object({
    annual_rate: RateSchema,
    end_date: IsoDateSchema.describe("Last day of the period (included)"),
    generate_interest: z.boolean().default(false).describe("Pay the interest out (an INTEREST event) at each maturation date"),
    maturation_frequency: z.enum(MATURATION_FREQUENCIES),
    start_date: IsoDateSchema.describe("First day of the period (included)"),
  })
  .strict()
  .refine((period) => period.start_date <= period.end_date, { message: "must not be before start_date", path: ["end_date"], ...whenClean });

/**
 * Interest after the last period's end_date, while the capital is not yet repaid. During the first
 * `grace_days` days the last period's rate still applies, then `annual_rate`. `end_date` is the day
 * the late capital is repaid (absent: still outstanding, so the value keeps accruing). Maturation
 * dates are `maturation_frequency` steps from the last end_date (absent: none) plus `end_date`.
 * `generate_interest` (absent: the last period's) pays the late interest out at those dates and,
 * with an `end_date`, settles the investment on it (MATURITY_SETTLEMENT).
 */
const LateInterestSchema = z
  .object({
    annual_rate: RateSchema,
    end_date: IsoDateSchema.optional(),
    generate_interest: z.boolean().optional(),
    grace_days: z.number().int().min(0).default(0),
    maturation_frequency: z.enum(MATURATION_FREQUENCIES).optional(),
  })
  .strict();

const ScheduleEventSchema = z
  .object({
    date: IsoDateSchema,
    notes: z.string().optional().describe("Accepted for the API's event shape; not returned"),
    type: z.enum(SCHEDULE_EVENT_TYPES),
    value: MoneySchema,
  })
  .strict()
  .refine((event) => event.type === "PRICE_ADJUSTMENT" || !isNegative(event.value.amount), {
    message: "must not be negative (only a PRICE_ADJUSTMENT may be)",
    path: ["value", "amount"],
    ...whenClean,
  });

type Draft = {
  asset_events: ReadonlyArray<z.output<typeof ScheduleEventSchema>>;
  initial_value: z.output<typeof MoneySchema>;
  late_interest?: z.output<typeof LateInterestSchema> | null;
  schedule: ReadonlyArray<z.output<typeof PeriodSchema>>;
};
type Issue = { message: string; path: PropertyKey[] };

/** Periods in date order, none overlapping: a contiguous next period starts the day after the previous end_date. */
function periodIssues(schedule: Draft["schedule"]): Issue[] {
  return schedule.flatMap((period, i) => {
    const previous = schedule[i - 1];
    if (!previous || period.start_date > previous.end_date) return [];
    const next = isoDay(dayNumber(previous.end_date) + 1);
    const message = `overlaps period ${i - 1} (ends ${previous.end_date}): periods must be in date order and must not overlap; a contiguous period starts on ${next}`;
    return [{ message, path: ["schedule", i, "start_date"] }];
  });
}

function eventIssues(params: Draft): Issue[] {
  const first = params.schedule[0]?.start_date;
  const seen = new Set<string>();
  return params.asset_events.flatMap((event, i): Issue[] => {
    const key = `${event.date} ${event.type}`;
    const duplicate = seen.has(key);
    seen.add(key);
    return [
      ...(event.value.code !== params.initial_value.code
        ? [{ message: `must be the initial_value currency ${params.initial_value.code}`, path: ["asset_events", i, "value", "code"] }]
        : []),
      ...(first && event.date < first ? [{ message: `must not be before the first start_date ${first}`, path: ["asset_events", i, "date"] }] : []),
      ...(duplicate ? [{ message: `another ${event.type} event is already listed on ${event.date}`, path: ["asset_events", i] }] : []),
    ];
  });
}

function crossIssues(params: Draft): Issue[] {
  const last = params.schedule[params.schedule.length - 1];
  const lateEnd = params.late_interest?.end_date;
  return [
    ...(new Decimal(params.initial_value.amount).greaterThan(0)
      ? []
      : [{ message: "must be greater than 0", path: ["initial_value", "amount"] }]),
    ...periodIssues(params.schedule),
    ...eventIssues(params),
    ...(last && lateEnd !== undefined && lateEnd <= last.end_date
      ? [{ message: `must be after the last period's end_date ${last.end_date}`, path: ["late_interest", "end_date"] }]
      : []),
  ];
}

/**
 * `provider_params` of a scheduled investment: the capital (`initial_value`),
 * how interest is counted (`interest_type`, `day_count`), the rate periods, optional late interest,
 * and events the schedule lists (`asset_events`). Strict: unknown keys are refused.
 */
export const ScheduledInvestmentParamsSchema = z
  .object({
    asset_events: z.array(ScheduleEventSchema).default([]),
    day_count: z.enum(DAY_COUNTS).default("ACT/365"),
    initial_value: MoneySchema,
    interest_type: z.enum(["SIMPLE", "COMPOUND"]).default("SIMPLE"),
    late_interest: LateInterestSchema.nullish(),
    schedule: z.array(PeriodSchema).min(1, "needs at least one period"),
  })
  .strict()
  .superRefine((params, ctx) => {
    for (const issue of crossIssues(params)) ctx.addIssue({ code: "custom", ...issue });
  }, whenClean);

export type ScheduledInvestmentParams = z.output<typeof ScheduledInvestmentParamsSchema>;
export type SchedulePeriod = ScheduledInvestmentParams["schedule"][number];
export type ScheduleEvent = ScheduledInvestmentParams["asset_events"][number];
