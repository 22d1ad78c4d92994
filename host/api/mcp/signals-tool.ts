import { z } from "zod";
import { DayField } from "../../http/fields.ts";
import { In } from "typeorm";
import { BrokerAccess } from "../../../core/brokers/broker-access.entity.ts";
import { Database } from "../../../core/db/database.ts";
import { NotFoundError } from "../../../core/errors/domain-error.ts";
import { Transaction } from "../../../core/transactions/transaction.entity.ts";
import type { McpGrade, McpScope } from "../../../core/users/access-token.service.ts";
import type { HttpDeps } from "../../http/deps.ts";
import { fromPriceRows } from "../signals/signal-points.ts";
import { runSignals } from "../signals/signals.ts";

/**
 * The `signals` MCP tool (docs/mcp.md): technical signals (docs/risk.md "Signals") on the stored
 * prices of an asset the token's brokers hold or held, computed on the worker pool like the
 * `/signals` routes. Below `full` only scale-free signals are offered (oscillators, percentages,
 * returns): a moving average or a band is a price level, which the grade filter treats as an amount.
 */

export const SCALE_FREE_SIGNALS = [
  "RSI", "STOCH_RSI", "ROC", "PPO", "NATR", "ADX", "AROON", "CCI", "MFI", "DRAWDOWN", "ROLLING_RETURN", "CALENDAR_ROLLING_RETURN",
] as const;

export function signalsInput(grade: McpGrade) {
  const code = grade === "full" ? z.string().regex(/^[A-Z0-9_]+$/).max(64) : z.enum(SCALE_FREE_SIGNALS);
  return z.object({
    asset_id: z.number().int().positive().describe("An asset held (now or before) in the token's brokers"),
    date_start: DayField.describe("First day of the price series"),
    date_end: DayField.describe("Last day (at most 2,000 price days are used, the latest ones)"),
    signals: z.array(z.object({
      signal_code: code.describe(grade === "full" ? "A signal of docs/risk.md \"Signals\"" : `One of ${SCALE_FREE_SIGNALS.join(", ")}`),
      params: z.record(z.string(), z.unknown()).default({}).describe("The signal's parameters"),
    }).strict()).min(1).max(8).describe("1 to 8 signals"),
  }).strict();
}

export const SignalsOut = z.object({
  method: z.string().describe("How the lines were computed"),
  asset_id: z.number().int().describe("The asset"),
  points: z.number().int().describe("Price days the signals ran on"),
  signals: z.array(z.object({
    signal_code: z.string().describe("The signal"),
    status: z.enum(["ok", "failed"]).describe("`failed`: see `error`"),
    outputs: z.record(z.string(), z.array(z.object({ date: z.string().describe("DayField"), value: z.number().nullable().describe("Null during the warm-up") })))
      .describe("One line per output of the signal"),
    error: z.object({ code: z.string().describe("Such as invalid_parameters, volume_required"), message: z.string().describe("Why") }).nullable()
      .describe("Why it failed"),
  })).describe("One result per signal, in order"),
  data_quality: z.object({
    status: z.enum(["ok", "carried_forward", "partial", "not_applicable"]).describe("`partial` when the range has no stored price"),
    issues: z.array(z.object({
      code: z.string().describe("MISSING_PRICE"), severity: z.string().describe("`warning`"), count: z.number().int().describe("Assets"),
      affected_fx_pairs: z.array(z.string()).describe("Always empty here"),
    })).describe("What made the result less than complete"),
  }).describe("Data-quality status of the price series"),
});

const MAX_POINTS = 2000;

export function mcpSignals(deps: HttpDeps, brokers: (userId: number, scope: McpScope) => Promise<number[] | null>) {
  const db = deps.container.resolve(Database);
  return async (userId: number, scope: McpScope, q: z.infer<ReturnType<typeof signalsInput>>): Promise<z.infer<typeof SignalsOut>> => {
    const ids = (await brokers(userId, scope)) ?? (await db.reads.findBy(BrokerAccess, { userId })).map((a) => a.brokerId);
    const held = ids.length ? await db.reads.findOne(Transaction, { select: { id: true }, where: { brokerId: In(ids), assetId: q.asset_id } }) : null;
    // An asset outside the token's brokers is "not found", never "exists but hidden".
    if (!held) throw new NotFoundError("ASSET_NOT_FOUND", `Asset ${q.asset_id} not found`, { asset_id: q.asset_id });
    const rows: { date: string; open: string | null; high: string | null; low: string | null; close: string; volume: string | null }[] = await db.reads.query(
      "SELECT date, open, high, low, close, volume FROM price_history WHERE asset_id = ? AND date >= ? AND date <= ? ORDER BY date DESC LIMIT ?",
      [q.asset_id, q.date_start, q.date_end, MAX_POINTS],
    );
    rows.reverse();
    const results = rows.length === 0 ? [] : await runSignals("asset", fromPriceRows(rows),
      q.signals.map((s, i) => ({ instance_id: `s${i}`, signal_code: s.signal_code, params: s.params })));
    return {
      method: "signals of docs/risk.md \"Signals\" on the stored daily prices (open/high/low/close/volume), in the asset's currency",
      asset_id: q.asset_id, points: rows.length,
      signals: results.map((r) => ({ signal_code: r.signal_code, status: r.status, outputs: r.outputs, error: r.error ? { code: r.error.code, message: r.error.message } : null })),
      data_quality: rows.length
        ? { status: "ok", issues: [] }
        : { status: "partial", issues: [{ code: "MISSING_PRICE", severity: "warning", count: 1, affected_fx_pairs: [] }] },
    };
  };
}
