import { z } from "zod";
import { LOT_ANALYSES } from "../../../core/portfolio/lots-types.ts";
import { CurrencyField, DayField } from "../../http/fields.ts";
import { DataQualityReportSchema, OpenDateRange } from "./portfolio-fields.ts";

/** Wire shapes of `POST /portfolio/lots/analysis` (sections in docs/portfolio-lots.md). */

const Id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const Analysis = z.enum(LOT_ANALYSES);

/** Lists of one lots analysis (docs/security.md "Bulk-read limits"); beyond them 413 LIMIT_EXCEEDED. */
export const MAX_LOTS_BROKERS = 1000;
export const MAX_SELECTED_LOTS = 10_000;

export const LotsAnalysisRequest = z.object({
  asset_id: Id,
  broker_ids: z.array(Id).max(MAX_LOTS_BROKERS).optional().describe("Absent: every broker the caller has an access row for"),
  date_range: OpenDateRange.nullable().optional(),
  target_currency: CurrencyField.nullable().optional().describe("Absent: the caller's effective base currency"),
  selected_lot_ids: z.array(Id).max(MAX_SELECTED_LOTS).nullable().optional(),
  requested_analyses: z.array(Analysis).min(1).refine((a) => new Set(a).size === a.length, { message: "requested_analyses must be unique" }),
  force: z.boolean().optional().describe("True bypasses (and refreshes) the cache"),
}).strict();
export type LotsAnalysisRequest = z.infer<typeof LotsAnalysisRequest>;

const Dec = z.string();
const NDec = z.string().nullable();
const Custody = z.object({ broker_id: z.number().int().nullable(), custody_type: z.enum(["BROKER", "IN_TRANSIT"]), quantity: Dec });

const LotRow = z.object({
  lot_id: z.number().int(), opening_transaction_id: z.number().int(), asset_id: z.number().int(), direction: z.enum(["LONG", "SHORT"]),
  opening_broker_id: z.number().int(), opening_date: DayField, closing_date: DayField.nullable(), opening_unit_price: NDec,
  original_quantity: Dec, original_cost: NDec, currency: z.string(), open_quantity: Dec, realized_quantity: Dec, realized_pnl: NDec,
  cumulative_proceeds: NDec, reference_unit_price: NDec, reference_price_source: z.enum(["exact", "fallback", "unavailable"]),
  states: z.array(z.enum(["OPEN", "PARTIALLY_CLOSED", "CLOSED", "IN_TRANSIT", "TRANSFERRED"])), current_custody: z.array(Custody),
  open_value: NDec, total_value: NDec, pnl: NDec, relative_return: NDec, asset_income: Dec, market_pnl: NDec, total_pnl: NDec,
  cash_yield: NDec, total_return: NDec, annualized_return: NDec, value_source: z.enum(["MARKET_PRICE", "ESTIMATED_AT_COST"]).nullable(),
  allocated_fees: Dec, allocated_taxes: Dec, net_total_pnl: NDec, net_total_return: NDec, net_metrics_status: z.enum(["AVAILABLE", "UNAVAILABLE"]),
});

const LotEvent = z.object({
  date: DayField, kind: z.enum(["BUY", "SELL", "ADJUSTMENT_IN", "ADJUSTMENT_OUT", "SPLIT", "TRANSFER_DEPART", "TRANSFER_ARRIVE"]),
  transaction_id: z.number().int(), lot_id: z.number().int(), broker_id: z.number().int().nullable(), from_broker_id: z.number().int().nullable(),
  to_broker_id: z.number().int().nullable(), quantity: Dec, unit_price: NDec, amount: NDec, realized_pnl: NDec, split_ratio: NDec,
});

const section = <T extends z.ZodType>(item: T) => z.array(item).nullable();

export const LotsAnalysisResponse = z.object({
  asset_id: z.number().int(),
  target_currency: z.string(),
  quote_base_quantity: Dec,
  calculation_status: z.enum(["COMPLETE", "DEGRADED", "FAILED"]),
  calculation_metadata: z.object({
    broker_ids: z.array(z.number().int()), selected_lot_ids: z.array(z.number().int()).nullable(), requested_analyses: z.array(Analysis),
    requested_date_from: DayField.nullable(), requested_date_to: DayField.nullable(), computed_date_from: DayField,
    computed_date_to: DayField, generated_at: z.string(),
  }),
  data_quality: DataQualityReportSchema,
  lots: section(LotRow),
  gantt_segments: section(z.object({
    lot_id: z.number().int(), broker_id: z.number().int().nullable(), custody_type: z.enum(["BROKER", "IN_TRANSIT"]), quantity: Dec,
    start_date: DayField, end_date: DayField.nullable(),
  })),
  custody_history: section(z.object({ date: DayField, lot_id: z.number().int(), custody: z.array(Custody) })),
  lot_events: section(LotEvent),
  value_history: section(z.object({
    date: DayField, quantity: Dec, in_transit_quantity: Dec, market_value: NDec, cost_basis: NDec, unrealized_pnl: NDec,
    value_source: z.enum(["MARKET_PRICE", "ESTIMATED_AT_COST", "MISSING"]),
  })),
  return_history: section(z.object({
    date: DayField, invested: NDec, realized_pnl: NDec, unrealized_pnl: NDec, income: Dec, fees_taxes: Dec, total_pnl: NDec, total_return: NDec,
  })),
  price_history: section(z.object({
    date: DayField, price: NDec, unit_price_asset_currency: NDec, source: z.enum(["MARKET_PRICE", "MISSING"]), price_date: DayField.nullable(),
  })),
  broker_wac_history: section(z.object({ date: DayField, broker_id: z.number().int(), quantity: Dec, total_cost: NDec, wac_per_unit: NDec })),
  cumulative_wac_history: section(z.object({ date: DayField, quantity: Dec, total_cost: NDec, wac_per_unit: NDec })),
  performance_history: section(z.object({ date: DayField, value: Dec, net_flow: Dec, cumulative_net_flow: Dec, twrr: Dec })),
  income_events: section(z.object({
    date: DayField, transaction_id: z.number().int(), type: z.enum(["DIVIDEND", "INTEREST", "FEE", "TAX"]), broker_id: z.number().int(),
    amount: NDec, original_amount: z.object({ code: z.string(), amount: Dec }), orphan: z.boolean(),
    allocations: z.array(z.object({ lot_id: z.number().int(), amount: Dec })),
  })),
  economic_allocation_groups: z.null(),
  asset_orphan_income: Dec,
  asset_orphan_fees: Dec,
  asset_orphan_taxes: Dec,
});
