import { z } from "zod";
import { In, LessThanOrEqual } from "typeorm";
import { Database } from "../../../core/db/database.ts";
import { Decimal, toDecimalString } from "../../../core/money/decimal.ts";
import { LotsAnalysisService } from "../../../core/portfolio/lots-analysis.service.ts";
import { type GainTotals, RealizedGainsService } from "../../../core/portfolio/realized-gains.service.ts";
import { BrokerAccess } from "../../../core/brokers/broker-access.entity.ts";
import { Transaction } from "../../../core/transactions/transaction.entity.ts";
import { UserSettingsService } from "../../../core/settings/user-settings.service.ts";
import type { McpScope } from "../../../core/users/access-token.service.ts";
import type { HttpDeps } from "../../http/deps.ts";
import { runCalculation } from "../run-calculation.ts";

/**
 * The analysis tools of the MCP server (docs/mcp.md "Tools"): realised gains with their FIFO lots, and
 * income by month and asset. Like the read tools they answer in full with the field names the grade
 * filter knows (host/api/mcp/grade.ts) and carry a percentage next to each amount, so the `relative`
 * grade keeps the shape of the answer once the amounts are gone.
 */

const Quality = z.object({
  status: z.enum(["ok", "carried_forward", "partial", "not_applicable"]).describe("`ok`, or `partial` when some FX conversions failed"),
  issues: z.array(z.object({
    code: z.string().describe("Issue code, such as MISSING_FX_RATE"),
    severity: z.string().describe("`error`, `warning` or `info`"),
    count: z.number().int().describe("How many days it concerns"),
    affected_fx_pairs: z.array(z.string()).describe("The FX pairs concerned, as `BASE-QUOTE`"),
  })).describe("What made the figures less than complete"),
}).describe("Data-quality status of this result");

const Amount = z.string().nullable().optional();
const Pct = z.string().nullable().describe("Percent; null when its base is unknown or zero");

const Totals = {
  disposal_count: z.number().int().describe("Number of disposals"),
  proceeds: Amount.describe("Sale proceeds (`full` grade only)"),
  fifo_cost: Amount.describe("FIFO cost of the units sold (`full` grade only)"),
  fifo_gain: Amount.describe("FIFO realised gain (`full` grade only)"),
  fifo_gain_percent: Pct.describe("FIFO gain over FIFO cost, in percent"),
  average_cost: Amount.describe("Average cost of the units sold (`full` grade only)"),
  average_gain: Amount.describe("Average-cost realised gain (`full` grade only)"),
  average_gain_percent: Pct.describe("Average-cost gain over average cost, in percent"),
};

export const GainsInput = z.object({
  year: z.number().int().min(1900).max(2200).optional().describe("Only disposals of this tax year (calendar year)"),
}).strict();

export const GainsOut = z.object({
  method: z.string().describe("How the figures were computed"),
  currency: z.string().describe("The currency amounts are in"),
  year: z.number().int().nullable().describe("The year asked for, or null for all years"),
  totals: z.object(Totals).describe("Totals over the disposals"),
  years: z.array(z.object({ year: z.number().int().describe("Tax year"), ...Totals })).describe("Totals per tax year"),
  disposals: z.array(z.object({
    transaction_id: z.number().int().describe("The SELL transaction"),
    date: z.string().describe("Sale date"),
    asset_id: z.number().int().describe("Asset sold"),
    asset_name: z.string().describe("Its name"),
    broker_id: z.number().int().describe("Broker"),
    quantity: Amount.describe("Units sold (`full` grade only)"),
    proceeds: Amount.describe("Proceeds (`full` grade only)"),
    fifo_cost: Amount.describe("FIFO cost (`full` grade only)"),
    fifo_gain: Amount.describe("FIFO gain (`full` grade only)"),
    fifo_gain_percent: Pct.describe("FIFO gain over FIFO cost, in percent"),
    average_cost: Amount.describe("Average cost (`full` grade only)"),
    average_gain: Amount.describe("Average-cost gain (`full` grade only)"),
    average_gain_percent: Pct.describe("Average-cost gain over average cost, in percent"),
    acquired_from: z.string().describe("Earliest acquisition date of the lots sold"),
    acquired_to: z.string().describe("Latest acquisition date of the lots sold"),
    lots: z.array(z.object({
      lot_id: z.number().int().describe("FIFO lot"),
      acquisition_date: z.string().describe("When the lot was acquired"),
      quantity: Amount.describe("Units of the lot sold (`full` grade only)"),
      cost: Amount.describe("Their FIFO cost (`full` grade only)"),
      holding_days: z.number().int().describe("Days held"),
    })).describe("The FIFO lots this sale consumed"),
  })).optional().describe("Every disposal, oldest first (absent at the `aggregate` grade)"),
  data_quality: Quality,
});

export const IncomeInput = z.object({
  year: z.number().int().min(1900).max(2200).optional().describe("Only income of this calendar year"),
}).strict();

const IncomeRow = {
  dividends: Amount.describe("Dividends (`full` grade only)"),
  interest: Amount.describe("Interest (`full` grade only)"),
  total: Amount.describe("Dividends plus interest (`full` grade only)"),
  share_percent: Pct.describe("Share of the total income of the result, in percent"),
};

export const IncomeOut = z.object({
  method: z.string().describe("How the figures were computed"),
  currency: z.string().describe("The currency amounts are in"),
  year: z.number().int().nullable().describe("The year asked for, or null for all years"),
  total: Amount.describe("All income in the result (`full` grade only)"),
  events: z.number().int().describe("Number of income payments"),
  by_month: z.array(z.object({ month: z.string().describe("YYYY-MM"), ...IncomeRow })).describe("Income per month, oldest first"),
  by_asset: z.array(z.object({
    asset_id: z.number().int().describe("Asset"), asset_name: z.string().describe("Its name"), ...IncomeRow,
  })).optional().describe("Income per asset, largest first (absent at the `aggregate` grade)"),
  data_quality: Quality,
});

/** `part / base × 100` to two places; null when either is unknown or the base is zero. */
function percent(part: string | null, base: string | null): string | null {
  if (part === null || base === null) return null;
  const b = new Decimal(base);
  return b.isZero() ? null : new Decimal(part).div(b.abs()).times(100).toFixed(2);
}

/** The count is renamed: `disposals` is the list, which the `aggregate` grade drops. */
const totalsOut = ({ disposals, ...t }: GainTotals) => ({ disposal_count: disposals, ...withPercents(t) });

const withPercents = <T extends { fifo_gain: string | null; fifo_cost: string | null; average_gain: string | null; average_cost: string | null }>(t: T) =>
  ({ ...t, fifo_gain_percent: percent(t.fifo_gain, t.fifo_cost), average_gain_percent: percent(t.average_gain, t.average_cost) });

function fxQuality(missing: { pair: string; dates: string[] }[]): z.infer<typeof Quality> {
  if (!missing.length) return { status: "ok", issues: [] };
  return {
    status: "partial",
    issues: missing.map((m) => ({ code: "MISSING_FX_RATE", severity: "warning", count: m.dates.length, affected_fx_pairs: [m.pair.replace("/", "-")] })),
  };
}

export function mcpAnalyses(deps: HttpDeps, brokers: (userId: number, scope: McpScope) => Promise<number[] | null>) {
  const gains = deps.container.resolve(RealizedGainsService);
  const lots = deps.container.resolve(LotsAnalysisService);
  const db = deps.container.resolve(Database);
  const settings = deps.container.resolve(UserSettingsService);

  return {
    async realisedGains(userId: number, scope: McpScope, q: z.infer<typeof GainsInput>): Promise<z.infer<typeof GainsOut>> {
      const within = await brokers(userId, scope);
      const r = await gains.gains(userId, { brokerIds: within ?? undefined, year: q.year ?? null },
        async (inputs) => (await runCalculation("realizedGains", inputs)).result);
      return {
        method: "FIFO lots and average cost side by side per SELL (docs/portfolio-lots.md \"Realised gains\"), in the target currency; "
          + "percentages are the gain over the cost of the units sold",
        currency: r.target_currency, year: r.year,
        totals: totalsOut(r.totals), years: r.years.map((y) => ({ ...totalsOut(y), year: y.year })),
        disposals: r.disposals.map((d) => withPercents({ ...d, lots: d.lots.map((l) => ({ ...l })) })),
        data_quality: fxQuality(r.missing_fx_pairs),
      };
    },

    async income(userId: number, scope: McpScope, q: z.infer<typeof IncomeInput>): Promise<z.infer<typeof IncomeOut>> {
      const within = await brokers(userId, scope);
      const access = (await db.reads.findBy(BrokerAccess, { userId })).map((a) => a.brokerId);
      const ids = within ?? access;
      const end = q.year !== undefined ? `${q.year}-12-31` : undefined;
      const paid = ids.length === 0 ? [] : await db.reads.find(Transaction, {
        select: { assetId: true },
        where: { brokerId: In(ids), type: In(["DIVIDEND", "INTEREST"]), ...(end ? { date: LessThanOrEqual(end) } : {}) },
      });
      const assetIds = [...new Set(paid.map((t) => t.assetId).filter((a): a is number => a !== null))].sort((a, b) => a - b);
      const months = new Map<string, { dividends: Decimal; interest: Decimal }>();
      const assets = new Map<number, { name: string; dividends: Decimal; interest: Decimal }>();
      const missing = new Map<string, Set<string>>();
      let currency = "";
      let events = 0;
      for (const assetId of assetIds) {
        const input = await lots.input(userId, { analyses: ["INCOME_EVENTS"], assetId, brokerIds: ids, ...(end ? { end } : {}) });
        const result = (await runCalculation("lotsAnalysis", input)).result;
        currency = result.target_currency;
        for (const e of result.income_events ?? []) {
          if (e.type !== "DIVIDEND" && e.type !== "INTEREST") continue;
          if (q.year !== undefined && !e.date.startsWith(`${q.year}-`)) continue;
          if (e.amount === null) {
            const set = missing.get(e.original_amount.code) ?? new Set<string>();
            set.add(e.date);
            missing.set(e.original_amount.code, set);
            continue;
          }
          events++;
          const key = e.type === "DIVIDEND" ? "dividends" : "interest";
          const m = months.get(e.date.slice(0, 7)) ?? { dividends: new Decimal(0), interest: new Decimal(0) };
          m[key] = m[key].plus(e.amount);
          months.set(e.date.slice(0, 7), m);
          const a = assets.get(assetId) ?? { name: input.asset.name, dividends: new Decimal(0), interest: new Decimal(0) };
          a[key] = a[key].plus(e.amount);
          assets.set(assetId, a);
        }
      }
      const grand = [...months.values()].reduce((acc, m) => acc.plus(m.dividends).plus(m.interest), new Decimal(0));
      const row = (v: { dividends: Decimal; interest: Decimal }) => {
        const total = v.dividends.plus(v.interest);
        return {
          dividends: toDecimalString(v.dividends), interest: toDecimalString(v.interest), total: toDecimalString(total),
          share_percent: grand.isZero() ? null : total.div(grand).times(100).toFixed(2),
        };
      };
      return {
        method: "dividend and interest payments tied to an asset, from the lots analysis' income events, converted into the target currency "
          + "on the payment day; cash interest not tied to an asset is not included",
        currency: currency || await settings.effectiveBaseCurrency(userId),
        year: q.year ?? null, total: toDecimalString(grand), events,
        by_month: [...months.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([month, v]) => ({ month, ...row(v) })),
        by_asset: [...assets.entries()].map(([asset_id, v]) => ({ asset_id, asset_name: v.name, ...row(v) }))
          .sort((a, b) => new Decimal(b.total).cmp(a.total)),
        data_quality: fxQuality([...missing.entries()].map(([from, dates]) => ({ pair: `${from}/${currency}`, dates: [...dates] }))),
      };
    },
  };
}

