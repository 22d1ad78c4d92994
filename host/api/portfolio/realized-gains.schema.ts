import { z } from "zod";
import { CurrencyField, DayField } from "../../http/fields.ts";

/** Wire shapes of `POST /portfolio/realized-gains` (docs/portfolio-lots.md "Realised gains"). */

const Id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** Brokers per request (docs/security.md "Bulk-read limits"); beyond it 413 LIMIT_EXCEEDED. */
export const MAX_GAINS_BROKERS = 1000;

export const RealizedGainsRequest = z.object({
  broker_ids: z.array(Id).max(MAX_GAINS_BROKERS).optional().describe("Absent: every broker the caller has an access row for"),
  year: z.number().int().min(1900).max(2200).nullable().optional()
    .describe("Tax year (calendar year) of the disposals; absent or null: every year"),
  target_currency: CurrencyField.nullable().optional().describe("Currency of every amount; absent: the caller's effective base currency"),
}).strict();

const Dec = (what: string) => z.string().describe(`${what}, a decimal string in the target currency`);
const NDec = (what: string) => z.string().nullable().describe(`${what}, a decimal string in the target currency; null when unknown (a cost without basis, a missing FX rate)`);

const Totals = {
  disposals: z.number().int().describe("Number of disposals"),
  proceeds: NDec("Sum of the proceeds"),
  fifo_cost: NDec("Sum of the FIFO costs"),
  fifo_gain: NDec("Sum of the FIFO gains (proceeds − FIFO cost)"),
  average_cost: NDec("Sum of the average costs"),
  average_gain: NDec("Sum of the average-cost gains (proceeds − average cost)"),
};

export const RealizedGainsResponse = z.object({
  target_currency: z.string().describe("Currency of every amount"),
  broker_ids: z.array(z.number().int()).describe("The brokers in scope, sorted"),
  year: z.number().int().nullable().describe("The tax year asked for; null: every year"),
  computed_date_to: DayField.describe("Disposals up to this day (today, UTC)"),
  disposals: z.array(z.object({
    transaction_id: z.number().int().describe("Id of the SELL transaction"),
    date: DayField.describe("Day of the sale"),
    asset_id: z.number().int().describe("Id of the asset sold"),
    asset_name: z.string().describe("Name of the asset sold"),
    broker_id: z.number().int().describe("Broker of the sale"),
    quantity: z.string().describe("Units of long lots sold (share-weighted), a decimal string"),
    proceeds: NDec("The sale's cash for those units, converted on the day of the sale"),
    fifo_cost: NDec("Cost of the FIFO lots sold, each converted on its purchase day"),
    fifo_gain: NDec("proceeds − fifo_cost"),
    average_cost: NDec("Weighted average cost the sale removed from its broker's pool"),
    average_gain: NDec("proceeds − average_cost"),
    acquired_from: DayField.describe("Purchase day of the oldest lot sold"),
    acquired_to: DayField.describe("Purchase day of the newest lot sold"),
    lots: z.array(z.object({
      lot_id: z.number().int().describe("Id of the FIFO lot (the id of the transaction that opened it)"),
      acquisition_date: DayField.describe("Day the lot was bought"),
      quantity: z.string().describe("Units of the lot sold, a decimal string"),
      cost: NDec("FIFO cost of these units"),
      holding_days: z.number().int().describe("Days from the lot's purchase to the sale"),
    })).describe("The FIFO lots the sale closed, oldest first"),
  })).describe("Every disposal of the year (or of every year), by date then transaction id"),
  years: z.array(z.object({ year: z.number().int().describe("Tax year (calendar year)"), ...Totals }))
    .describe("Totals per tax year of the disposals listed, oldest first"),
  totals: z.object(Totals).describe("Totals of the disposals listed"),
  missing_fx_pairs: z.array(z.object({ pair: z.string().describe("FROM/TO"), dates: z.array(DayField).describe("Days without a rate") }))
    .describe("Conversions that failed (their amounts are null)"),
});
