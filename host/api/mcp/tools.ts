import { Decimal } from "../../../core/money/decimal.ts";
import { z } from "zod";
import { DayField } from "../../http/fields.ts";
import { BrokerAccessService } from "../../../core/brokers/broker-access.service.ts";
import { TransactionQueryService } from "../../../core/transactions/transaction-query.service.ts";
import type { McpGrade, McpScope } from "../../../core/users/access-token.service.ts";
import { databaseTarget } from "../../db/dialect.ts";
import type { HttpDeps } from "../../http/deps.ts";
import { PortfolioReportService, reportText } from "../portfolio/report.service.ts";
import { TRANSACTION_TYPES } from "../../../core/transactions/transaction.entity.ts";
import { FxConvertService, type ConvertResult } from "../../../core/fx/fx-convert.service.ts";
import { DomainError } from "../../../core/errors/domain-error.ts";

/**
 * The read tools of the MCP server (docs/mcp.md "Tools"). Each one answers its FULL result with the
 * field names the grade filter knows (host/api/mcp/grade.ts); the server redacts it afterwards. Every
 * result carries `method` (how its figures were computed) and `data_quality` (status and issues).
 */

const DataQualityOut = z.object({
  status: z.enum(["ok", "carried_forward", "partial", "not_applicable"])
    .describe("`ok`; `carried_forward` (some prices are stale); `partial` (some prices or FX rates are missing); `not_applicable` (raw records)"),
  issues: z.array(z.object({
    code: z.string().describe("Issue code, such as MISSING_PRICE or STALE_PRICE (docs/portfolio.md \"Data quality\")"),
    severity: z.string().describe("`error`, `warning` or `info`"),
    count: z.number().int().describe("How many assets, pairs or days it concerns"),
    affected_asset_ids: z.array(z.number().int()).optional().describe("The assets concerned (absent at the `aggregate` grade)"),
    affected_asset_names: z.array(z.string()).optional().describe("Their names (absent at the `aggregate` grade)"),
    affected_fx_pairs: z.array(z.string()).describe("The FX pairs concerned, as `BASE-QUOTE`"),
  })).describe("What made the figures less than complete"),
}).describe("Data-quality status of this result");

const Percent = z.string().nullable();

export const SummaryOut = z.object({
  method: z.string().describe("How the figures were computed"),
  currency: z.string().describe("The currency the figures are in (ISO 4217)"),
  net_worth: z.string().optional().describe("Cash plus market value (decimal string; `full` grade only)"),
  market_value: z.string().optional().describe("Market value of the positions (`full` grade only)"),
  cash_total: z.string().optional().describe("Cash in all currencies, converted (`full` grade only)"),
  returns: z.object({
    twr: z.object({ method: z.string().describe("Return method: time-weighted"), percent: Percent.describe("Cumulative TWR in percent; null when not computable") }),
    mwr: z.object({
      method: z.string().describe("Return method: money-weighted (XIRR)"),
      annualized_percent: Percent.describe("Annualised MWR in percent; null when not computable"),
      cumulative_percent: Percent.describe("Cumulative MWR in percent; null when not computable"),
    }),
  }).describe("Returns of the whole portfolio over its history"),
  allocation: z.object({
    by_type: z.array(z.object({ name: z.string().describe("Asset type"), percent: z.string().describe("Percent of the valued positions"), amount: z.string().optional().describe("Value (`full` grade only)") })),
    by_sector: z.array(z.object({ name: z.string().describe("Sector"), percent: z.string().describe("Percent of the valued positions"), amount: z.string().optional().describe("Value (`full` grade only)") })),
    by_geography: z.array(z.object({ name: z.string().describe("Region"), percent: z.string().describe("Percent of the valued positions"), amount: z.string().optional().describe("Value (`full` grade only)") })),
  }).describe("Allocation of the valued positions"),
  data_quality: DataQualityOut,
});

export const HoldingsOut = z.object({
  method: z.string().describe("How weights and returns were computed"),
  currency: z.string().describe("The currency values are in"),
  holdings: z.array(z.object({
    asset_id: z.number().int().describe("Asset id"),
    asset_name: z.string().describe("Asset name"),
    asset_type: z.string().nullable().describe("Asset type"),
    broker_id: z.number().int().describe("Broker holding it"),
    weight_percent: Percent.describe("Percent of the portfolio's valued positions"),
    return_percent: Percent.describe("Unrealised gain over open cost basis, in percent"),
    quantity: z.string().optional().describe("Units held (`full` grade only)"),
    current_value: z.string().nullable().optional().describe("Market value (`full` grade only)"),
    open_cost_basis: z.string().nullable().optional().describe("Cost of the open units (`full` grade only)"),
  })).describe("Open positions, largest weight first"),
  data_quality: DataQualityOut,
});

export const TransactionsOut = z.object({
  method: z.string().describe("Where the rows come from"),
  transactions: z.array(z.object({
    id: z.number().int().describe("Transaction id"),
    broker_id: z.number().int().describe("Broker"),
    asset_id: z.number().int().nullable().describe("Asset, or null for cash-only rows"),
    type: z.string().describe("Transaction type"),
    date: z.string().describe("Trade date (YYYY-MM-DD)"),
    quantity: z.string().optional().describe("Units (`full` grade only)"),
    cash: z.object({ code: z.string(), amount: z.string().optional() }).nullable().optional().describe("Cash amount (`full` grade only)"),
    description: z.string().nullable().optional().describe("Free text (`full` grade only)"),
  })).describe("One page, newest first"),
  next_offset: z.number().int().nullable().describe("Offset of the next page; null on the last page"),
  data_quality: DataQualityOut,
});

export const FxRatesOut = z.object({
  method: z.string().describe("How rates were chosen"),
  base: z.string().describe("Base currency"),
  quote: z.string().describe("Quote currency: one unit of base is `rate` units of quote"),
  rates: z.array(z.object({
    date: z.string().describe("DayField"),
    rate: z.string().describe("Rate (decimal string)"),
    private_rate: z.boolean().describe("Converted with the user's own private rates (no shared route had a rate)"),
    rate_date: z.string().describe("DayField of the rate used: earlier than `date` when the last known rate was carried forward"),
  })).describe("One rate per day of the range that could be converted, oldest first"),
  data_quality: DataQualityOut,
});

export const HistoryOut = z.object({
  method: z.string().describe("How the series was computed"),
  currency: z.string().describe("The currency values are in"),
  interval: z.enum(["day", "week", "month"]).describe("One point per day, or the last day of each week (Monday to Sunday) or month of the period"),
  points: z.array(z.object({
    date: z.string().describe("DayField (YYYY-MM-DD)"),
    twr_percent: Percent.describe("Time-weighted return since the period's first day, in percent"),
    twr_index: Percent.describe("Growth of 100 at the time-weighted return since the first day (100 = the first day)"),
    net_worth: z.string().optional().describe("Cash plus market value (`full` grade only)"),
    market_value: z.string().optional().describe("Market value of the positions (`full` grade only)"),
    cash_total: z.string().optional().describe("Cash, converted (`full` grade only)"),
  })).describe("One page of the series, oldest first"),
  next_offset: z.number().int().nullable().describe("Offset of the next page; null on the last page"),
  data_quality: DataQualityOut,
});

const Currency = z.string().regex(/^[A-Z]{3}$/).describe("ISO 4217 code, such as EUR");

/** Input schemas; amount filters exist only at the `full` grade (bisecting them would reveal amounts). */
export function transactionsInput(grade: McpGrade) {
  const base = z.object({
    broker_id: z.number().int().positive().optional().describe("Only this broker"),
    asset_id: z.number().int().positive().optional().describe("Only this asset"),
    types: z.array(z.enum(TRANSACTION_TYPES)).max(50).optional().describe("Only these transaction types"),
    date_start: DayField.optional().describe("From this day (inclusive)"),
    date_end: DayField.optional().describe("To this day (inclusive)"),
    limit: z.number().int().min(1).max(200).default(50).describe("Rows per page (1-200)"),
    offset: z.number().int().min(0).max(1_000_000).default(0).describe("Rows to skip"),
  }).strict();
  if (grade !== "full") return base;
  return base.extend({
    amount_abs_min: z.string().regex(/^\d+(\.\d+)?$/).optional().describe("Only rows whose absolute cash amount is at least this"),
    amount_abs_max: z.string().regex(/^\d+(\.\d+)?$/).optional().describe("Only rows whose absolute cash amount is at most this"),
  }).strict();
}

export const FxRatesInput = z.object({
  base: Currency, quote: Currency,
  date_start: DayField.describe("First day"), date_end: DayField.describe("Last day (at most 366 days after the first)"),
}).strict().refine((q) => q.date_end >= q.date_start && daysBetween(q.date_start, q.date_end) <= 366, {
  message: "date_end must be on or after date_start and at most 366 days after it", path: ["date_end"],
});

export const HistoryInput = z.object({
  date_start: DayField.optional().describe("First day (default: the portfolio's first day)"),
  date_end: DayField.optional().describe("Last day (default: today)"),
  interval: z.enum(["day", "week", "month"]).default("month").describe("day, week or month (the last day of each; default month)"),
  limit: z.number().int().min(1).max(500).default(200).describe("Points per page (1-500)"),
  offset: z.number().int().min(0).max(1_000_000).default(0).describe("Points to skip"),
}).strict();

const daysBetween = (a: string, b: string) => Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);

/** The period key of a day: its Monday (week), its month, or itself. */
export function periodOf(date: string, interval: "day" | "week" | "month"): string {
  if (interval === "day") return date;
  if (interval === "month") return date.slice(0, 7);
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}

interface Issue {
  code: string; severity: string; count: number; affected_asset_ids?: number[]; affected_asset_names?: string[]; affected_fx_pairs?: string[];
}

function dataQuality(dq: { data_quality_status: string; issues: Issue[] } | null | undefined) {
  return {
    status: (dq?.data_quality_status ?? "ok") as "ok" | "carried_forward" | "partial",
    issues: (dq?.issues ?? []).map((i) => ({
      code: i.code, severity: i.severity, count: i.count, affected_asset_ids: i.affected_asset_ids ?? [],
      affected_asset_names: i.affected_asset_names ?? [], affected_fx_pairs: i.affected_fx_pairs ?? [],
    })),
  };
}

const NO_QUALITY = { status: "not_applicable" as const, issues: [] };

/** The tools' data access for one user and one token scope. */
export function mcpData(deps: HttpDeps) {
  const reports = new PortfolioReportService(deps.container, databaseTarget(deps.config.dataDir));
  const access = deps.container.resolve(BrokerAccessService);
  const txs = deps.container.resolve(TransactionQueryService);
  const fx = deps.container.resolve(FxConvertService);

  /** The token's brokers that the owner still sees (never more than the owner sees); null: all of them. */
  async function brokers(userId: number, scope: McpScope): Promise<number[] | null> {
    if (!scope.brokerIds) return null;
    const seen = await access.roles(userId, "VIEWER");
    return scope.brokerIds.filter((id) => seen.has(id));
  }

  async function report(userId: number, scope: McpScope, period: { start?: string; end?: string } | null = null): Promise<any> {
    const brokerIds = await brokers(userId, scope);
    const out = await reports.report(userId, {
      brokerIds, start: period?.start ?? null, end: period?.end ?? null, target: null,
      flags: { summary: !period, history: !!period, allocationHistory: false, breakdown: false, positionsContribution: false, periodReturns: false, incomePayments: false },
    });
    return JSON.parse(reportText(out));
  }

  return {
    brokers,

    async summary(userId: number, scope: McpScope): Promise<z.infer<typeof SummaryOut>> {
      const r = await report(userId, scope);
      const s = r.summary;
      const alloc = (items: { name: string; value: string; amount: string }[] = []) =>
        items.map((i) => ({ name: i.name, percent: i.value, amount: i.amount }));
      return {
        method: "portfolio report: ledger replay valued at stored prices, converted with stored FX rates",
        currency: r.metadata.target_currency,
        net_worth: s.net_worth.amount, market_value: s.market_value.amount, cash_total: s.cash_total.amount,
        returns: {
          twr: { method: "time-weighted return (daily chain-linked, cumulative)", percent: s.twrr_percent ?? null },
          mwr: {
            method: "money-weighted return (XIRR on external flows)",
            annualized_percent: s.mwrr_available ? s.mwrr_annualized_percent ?? null : null,
            cumulative_percent: s.mwrr_available ? s.mwrr_cumulative_percent ?? null : null,
          },
        },
        allocation: { by_type: alloc(s.allocation_by_type), by_sector: alloc(s.allocation_by_sector), by_geography: alloc(s.allocation_by_geography) },
        data_quality: dataQuality(r.data_quality ?? s.data_quality),
      };
    },

    async holdings(userId: number, scope: McpScope): Promise<z.infer<typeof HoldingsOut>> {
      const r = await report(userId, scope);
      const rows = (r.summary.holdings as any[]).map((h) => ({
        asset_id: h.asset_id, asset_name: h.asset_name, asset_type: h.asset_type ?? null, broker_id: h.broker_id,
        weight_percent: h.allocation_percent ?? null, return_percent: h.gain_loss_percent ?? null,
        quantity: h.quantity, current_value: h.current_value ?? null, open_cost_basis: h.open_cost_basis ?? null,
      }));
      rows.sort((a, b) => Number(b.weight_percent ?? -1) - Number(a.weight_percent ?? -1));
      return {
        method: "weights: share of the valued positions; returns: simple (unrealised gain over open cost basis, average cost)",
        currency: r.metadata.target_currency, holdings: rows, data_quality: dataQuality(r.data_quality ?? r.summary.data_quality),
      };
    },

    async transactions(userId: number, scope: McpScope, q: z.infer<ReturnType<typeof transactionsInput>> & { amount_abs_min?: string; amount_abs_max?: string }):
      Promise<z.infer<typeof TransactionsOut>> {
      const within = await brokers(userId, scope);
      const rows = await txs.list(userId, {
        brokerId: q.broker_id, assetId: q.asset_id, types: q.types, dateStart: q.date_start, dateEnd: q.date_end,
        limit: q.limit + 1, offset: q.offset, amountAbsMin: q.amount_abs_min, amountAbsMax: q.amount_abs_max,
        ...(within ? { withinBrokerIds: within } : {}),
      });
      const page = rows.slice(0, q.limit);
      return {
        method: "ledger rows as stored, newest first",
        transactions: page.map((t) => ({
          id: t.id, broker_id: t.brokerId, asset_id: t.assetId, type: t.type, date: t.date, quantity: t.quantity,
          cash: t.cash ? { code: t.cash.code, amount: t.cash.amount } : null, description: t.description,
        })),
        next_offset: rows.length > q.limit ? q.offset + q.limit : null,
        data_quality: NO_QUALITY,
      };
    },

    /**
     * The portfolio's data-quality report (docs/portfolio.md "Data quality") over the token's brokers,
     * reduced to named fields the grade filter knows: no message parameters (free-form values).
     */
    async dataQualityReport(userId: number, scope: McpScope) {
      const r = await report(userId, scope);
      const dq = (r.data_quality ?? r.summary.data_quality) as {
        data_quality_status: string; issues: (Issue & { date_range?: { start: string; end: string } | null })[];
        missing_price_assets?: { asset_id: number; name: string; broker_id: number; first_position_date: string | null; quantity: string; open_cost_basis: string | null; currency: string }[];
        missing_fx_pairs?: { pair: string; dates: string[] }[];
        stale_prices?: { asset_id: number; name: string; last_price_date: string; stale_days: number }[];
        incomplete_nav_dates?: string[];
      } | undefined;
      const base = dataQuality(dq);
      return {
        method: "portfolio report's data-quality check: stored prices and FX rates against the ledger's positions",
        currency: r.metadata.target_currency as string,
        status: base.status,
        issues: base.issues.map((i, n) => ({ ...i, date_range: dq?.issues[n]?.date_range ?? null })),
        missing_price_assets: (dq?.missing_price_assets ?? []).map((a) => ({
          asset_id: a.asset_id, asset_name: a.name, broker_id: a.broker_id, first_position_date: a.first_position_date, currency: a.currency,
          quantity: a.quantity, open_cost_basis: a.open_cost_basis,
        })),
        missing_fx_pairs: (dq?.missing_fx_pairs ?? []).map((p) => ({ pair: p.pair, dates: p.dates })),
        stale_prices: (dq?.stale_prices ?? []).map((p) => ({ asset_id: p.asset_id, asset_name: p.name, last_price_date: p.last_price_date, stale_days: p.stale_days })),
        incomplete_nav_dates: dq?.incomplete_nav_dates ?? [],
      };
    },

    /**
     * The portfolio's value and return series (the report's history), one point per day, week or
     * month, a page at a time: a ten-year daily series would flood the client. Below `full` only the
     * returns remain (the grade filter removes the amounts).
     */
    async history(userId: number, scope: McpScope, q: z.infer<typeof HistoryInput>): Promise<z.infer<typeof HistoryOut>> {
      const r = await report(userId, scope, { start: q.date_start, end: q.date_end });
      const days = (r.history ?? []) as { date: string; nav_value?: { amount: string }; market_value?: { amount: string }; cash_value?: { amount: string }; twrr?: string | null }[];
      const kept = days.filter((d, i) => i === days.length - 1 || periodOf(days[i + 1]!.date, q.interval) !== periodOf(d.date, q.interval));
      const page = kept.slice(q.offset, q.offset + q.limit);
      const pct = (v: string | null | undefined, shift: number) =>
        v === null || v === undefined ? null : new Decimal(v).times(100).plus(shift).toDecimalPlaces(4).toFixed();
      return {
        method: "portfolio report history: ledger replay valued at stored prices, converted with stored FX rates; time-weighted return chain-linked daily from the first day",
        currency: r.metadata.target_currency, interval: q.interval,
        points: page.map((d) => ({
          date: d.date, twr_percent: pct(d.twrr, 0), twr_index: pct(d.twrr, 100),
          net_worth: d.nav_value?.amount, market_value: d.market_value?.amount, cash_total: d.cash_value?.amount,
        })),
        next_offset: q.offset + q.limit < kept.length ? q.offset + q.limit : null,
        data_quality: dataQuality(r.data_quality),
      };
    },

    /**
     * Rates as `POST /fx/currencies/convert` finds them: the pair's routes by priority (through a third
     * currency when one is configured), then the user's own private rates (docs/fx.md).
     */
    async fxRates(userId: number, q: z.infer<typeof FxRatesInput>): Promise<z.infer<typeof FxRatesOut>> {
      const { results, errors } = await fx.convert([{ amount: "1", from: q.base, to: q.quote, start: q.date_start, end: q.date_end }], userId)
        .catch((e: unknown) => {
          // No day could be converted: an empty series whose data quality says so, as for a pair without rates.
          if (e instanceof DomainError && e.code === "FX_RATE_NOT_FOUND") return { results: [] as ConvertResult[], errors: ["none"] };
          throw e;
        });
      const rates = results.map((c) => ({
        date: c.conversionDate, rate: c.rate, private_rate: c.privateRate === true, rate_date: c.backwardFill?.actualRateDate ?? c.conversionDate,
      }));
      const missing = daysBetween(q.date_start, q.date_end) + 1 - rates.length;
      const carried = rates.some((x) => x.rate_date !== x.date);
      return {
        method: "the pair's conversion routes by priority (as POST /fx/currencies/convert), then your private rates; the last known rate carried forward",
        base: q.base, quote: q.quote, rates,
        data_quality: {
          status: missing > 0 || errors.length ? "partial" : carried ? "carried_forward" : "ok",
          issues: missing > 0 ? [{ code: "MISSING_FX_RATE", severity: "warning", count: missing, affected_asset_ids: [], affected_asset_names: [], affected_fx_pairs: [`${q.base}-${q.quote}`] }] : [],
        },
      };
    },
  };
}
