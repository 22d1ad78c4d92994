import {
  boundedDecimal, Decimal, decimal, definePlugin, IsoDateSchema, toDecimalString, toIsoDate, z,
  type AssetEvent, type IsoDate, type ScheduledPrice,
} from "@portfolio-tracker/sdk";

// A savings note that accrues simple interest (ACT/365) from its issue day and repays
// face value plus interest at maturity. Values are per unit, in the asset's currency.
const Params = z.object({
  face_value: boundedDecimal("amount").default(decimal("100")).describe("Value of one unit on the issue day"),
  annual_rate: boundedDecimal("rate").describe('Yearly rate as a fraction: "0.035" is 3.5 %'),
  issue_date: IsoDateSchema.describe("First day of accrual"),
  maturity_date: IsoDateSchema.describe("Day the note is repaid (included)"),
}).refine((p) => p.issue_date < p.maturity_date, { message: "must be after issue_date", path: ["maturity_date"] });

type NoteParams = z.output<typeof Params>;

const DAY_MS = 86_400_000;
const dayNumber = (day: IsoDate) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;

/** Value of one unit on `day`: face × (1 + rate × days / 365), 4 decimals, half to even. */
function valueOn(p: NoteParams, day: IsoDate): Decimal {
  const days = dayNumber(day) - dayNumber(p.issue_date);
  return new Decimal(p.face_value).times(new Decimal(p.annual_rate).times(days).dividedBy(365).plus(1)).toDecimalPlaces(4);
}

export default definePlugin({
  description: "A note accruing simple interest, repaid with its interest at maturity.",
  id: "accruing-note",
  kind: "scheduled-investment-provider",
  name: "Accruing Note",
  version: "0.1.0",
  create: () => ({
    paramsSchema: Params,
    generatePrices({ params, range }) {
      const prices: ScheduledPrice[] = [];
      const first = Math.max(dayNumber(range.from), dayNumber(params.issue_date));
      const last = Math.min(dayNumber(range.to), dayNumber(params.maturity_date));
      for (let n = first; n <= last; n++) {
        const date = toIsoDate(new Date(n * DAY_MS));
        prices.push({ date, value: toDecimalString(valueOn(params, date)) });
      }
      return prices;
    },
    generateEvents({ params, range }) {
      const events: AssetEvent[] = [];
      const day = params.maturity_date;
      if (day >= range.from && day <= range.to) {
        events.push({ date: day, type: "MATURITY_SETTLEMENT", value: toDecimalString(valueOn(params, day)) });
      }
      return events;
    },
  }),
});
