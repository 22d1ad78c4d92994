/**
 * Seeds a hand-checked portfolio fixture through the HTTP API and compares a report with the
 * fixture's expectations. Two tiers: in process (the app's handlers over a fresh migrated SQLite
 * file, the report from the engine directly; every fixture) and on a real server
 * (`POST /api/v1/portfolio/report`; one smoke test per report section).
 *
 * The expectations stay independent of core/portfolio on purpose: the XIRR here is a plain float
 * bisection on the NPV (ACT/365) of the fixture's own flow table; project code is used only to
 * seed and to compute the answer under test. SQL is used only for what the API cannot do: rates
 * of a real FX provider (providers are offline in tests) and ledger rows the API refuses by
 * design (an inbound ADJUSTMENT without a cost basis).
 */
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { ApiClient } from "../helpers/client.ts";
import { seedTransactions } from "../helpers/seed.ts";
import { rmSync } from "node:fs";
import { tempDataDir } from "../helpers/server.ts";
import { startInProcess, type InProcessApp } from "../helpers/in-process.ts";
import { buildReport } from "../../core/portfolio/report.calc.ts";
import { reportQuery } from "../../host/api/portfolio/report.routes.ts";
import { ReportRequest } from "../../host/api/portfolio/report.schema.ts";
import { PortfolioReportService } from "../../host/api/portfolio/report.service.ts";
import { loadReportInput } from "../../core/portfolio/report-input.loader.ts";
import { sqliteSqlReader } from "../../host/db/read-snapshot.ts";
import {
  ANY_STRING, type ExpectedHistoryPoint, type ExpectedIssue, type ExpectedReport, type FlowTable, type PortfolioFixture,
} from "./fixture-types.ts";

export const TOLERANCE = 1e-6;

// ---------------------------------------------------------------------------------------------
// Dates and the independent XIRR
// ---------------------------------------------------------------------------------------------

const DAY_MS = 86_400_000;
export const dayNumber = (iso: string) => Date.UTC(+iso.slice(0, 4), +iso.slice(5, 7) - 1, +iso.slice(8, 10)) / DAY_MS;
export const daysBetween = (from: string, to: string) => dayNumber(to) - dayNumber(from);

/** Amounts of one date summed; dates relative to the first date of the table (ACT/365 year fractions). */
function normalise(flows: FlowTable): { t: number; a: number }[] {
  const byDate = new Map<string, number>();
  for (const [date, amount] of flows) byDate.set(date, (byDate.get(date) ?? 0) + amount);
  const start = [...byDate.keys()].sort()[0]!;
  return [...byDate.entries()].map(([date, a]) => ({ t: daysBetween(start, date) / 365, a }));
}

/** NPV at annual rate r: Σ a_i (1 + r)^(−t_i). */
export function npv(flows: FlowTable, r: number): number {
  return normalise(flows).reduce((sum, f) => sum + f.a * Math.pow(1 + r, -f.t), 0);
}

/**
 * The annual rate r with NPV(r) = 0, by bisection on x = ln(1 + r) over [−40, 14] (r from
 * −1 + 4e-18 to about 1.2e6): wide enough for any rate of a real portfolio. Returns null when
 * the NPV does not change sign over the bracket.
 */
export function solveXirr(flows: FlowTable): number | null {
  const f = normalise(flows);
  const npvX = (x: number) => f.reduce((sum, p) => sum + p.a * Math.exp(-x * p.t), 0);
  let lo = -40, hi = 14;
  let flo = npvX(lo), fhi = npvX(hi);
  if (flo === 0) return Math.expm1(lo);
  if (fhi === 0) return Math.expm1(hi);
  if (Math.sign(flo) === Math.sign(fhi)) return null;
  for (let i = 0; i < 400 && hi - lo > 1e-15; i++) {
    const mid = (lo + hi) / 2;
    const fm = npvX(mid);
    if (fm === 0) { lo = hi = mid; break; }
    if (Math.sign(fm) === Math.sign(flo)) { lo = mid; flo = fm; } else { hi = mid; fhi = fm; }
  }
  return Math.expm1((lo + hi) / 2);
}

export interface MwrrExpectation { rate: number; cumulative: number; annualized: number | null; npvAtRate: number; scale: number }

/** Solves a flow table over `days` and derives cumulative ((1+r)^(days/365) − 1) and annualized (≥ 30 days). */
export function mwrrOf(flows: FlowTable, days: number): MwrrExpectation {
  const rate = solveXirr(flows);
  if (rate === null) throw new Error(`fixture flow table has no root: ${JSON.stringify(flows)}`);
  return {
    rate,
    cumulative: Math.expm1(Math.log1p(rate) * days / 365),
    annualized: days >= 30 ? rate : null,
    npvAtRate: npv(flows, rate),
    scale: flows.reduce((s, [, a]) => s + Math.abs(a), 0),
  };
}

// ---------------------------------------------------------------------------------------------
// Seeding
// ---------------------------------------------------------------------------------------------

/** Where a fixture is seeded: a real server, or the app in this process (`send` = its handler). */
export interface SeedTarget {
  base: string;
  dataDir: string;
  send?: typeof fetch;
  /** Accounts already registered (name → id) and a way to act as them; others sign up. */
  accounts?: Record<string, number>;
  signedIn?: (userId: number) => Promise<ApiClient>;
}

export interface Seeded {
  target: SeedTarget;
  clients: Record<string, ApiClient>;
  userIds: Record<string, number>;
  brokerIds: Record<string, number>;
  assetIds: Record<string, number>;
  eventIds: Record<string, number>;
}

async function ok(res: Response, what: string, status = 200): Promise<any> {
  const text = await res.text();
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${text.slice(0, 2000)}`);
  return text ? JSON.parse(text) : null;
}

function sql(dataDir: string, statement: string, rows: (string | number | null)[][]): void {
  const db = new Database(join(dataDir, "portfolio.sqlite"));
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    const q = db.query(statement);
    db.transaction(() => { for (const r of rows) q.run(...r); })();
  } finally {
    db.close();
  }
}

export async function seed(fx: PortfolioFixture, server: SeedTarget): Promise<Seeded> {
  const s = fx.setup;
  const clients: Record<string, ApiClient> = {};
  const userIds: Record<string, number> = {};
  for (const u of s.users) {
    const existing = server.accounts?.[u];
    if (existing !== undefined && server.signedIn) {
      clients[u] = await server.signedIn(existing);
      userIds[u] = existing;
      continue;
    }
    clients[u] = new ApiClient(server.base, server.send);
    userIds[u] = (await clients[u].signUp(u)).id;
  }
  const first = clients[s.users[0]!]!;

  const brokerIds: Record<string, number> = {};
  for (const b of s.brokers) {
    const c = clients[b.owner]!;
    const body = await ok(await c.post("/brokers", [{
      name: b.name, opened_at: "2020-01-01",
      ...(b.allow_cash_overdraft ? { allow_cash_overdraft: true } : {}),
      ...(b.allow_asset_shorting ? { allow_asset_shorting: true } : {}),
    }]), `create broker ${b.key}`);
    if (!body.results[0].success) throw new Error(`create broker ${b.key}: ${JSON.stringify(body)}`);
    const id = body.results[0].broker_id as number;
    brokerIds[b.key] = id;
    if (b.owner_share !== undefined) {
      await ok(await c.patch(`/brokers/${id}/access/${userIds[b.owner]}`, { share_percentage: b.owner_share }), `share of ${b.owner} in ${b.key}`);
    }
    for (const a of b.access ?? []) {
      await ok(await c.post(`/brokers/${id}/access`, {
        user_id: userIds[a.user], role: a.role, ...(a.role === "OWNER" ? { share_percentage: a.share ?? "0" } : {}),
      }), `access of ${a.user} to ${b.key}`, 201);
    }
  }

  const assetIds: Record<string, number> = {};
  const eventIds: Record<string, number> = {};
  for (const a of s.assets) {
    const body = await ok(await first.post("/assets", [{ name: a.name, currency: a.currency, ...(a.quote_base_quantity ? { quote_base_quantity: a.quote_base_quantity } : {}) }]), `create asset ${a.key}`, 201);
    if (!body.results[0].success) throw new Error(`create asset ${a.key}: ${JSON.stringify(body)}`);
    const id = body.results[0].asset_id as number;
    assetIds[a.key] = id;
    if (a.provider) {
      const out = await ok(await first.post("/assets/provider", [{ asset_id: id, provider_code: a.provider.code,
        identifier: a.provider.identifier, identifier_type: a.provider.identifier_type }]), `provider of ${a.key}`);
      if (out.success_count !== 1) throw new Error(`provider of ${a.key}: ${JSON.stringify(out)}`);
    }
    if (a.prices?.length) {
      const out = await ok(await first.post("/assets/prices", [{ asset_id: id, prices: a.prices }]), `prices of ${a.key}`);
      if (out.success_count !== 1) throw new Error(`prices of ${a.key}: ${JSON.stringify(out)}`);
    }
    if (a.events?.length) {
      await ok(await first.post("/assets/events", [{ asset_id: id, events: a.events.map((e) => ({
        date: e.date, type: e.type, value: { code: a.currency, amount: e.value },
      })) }]), `events of ${a.key}`);
      const q = await ok(await first.post("/assets/events/query", [{ asset_id: id, date_range: { start: "1900-01-01", end: "2100-12-31" } }]),
        `events query of ${a.key}`);
      const stored = q.items[0].events as { id: number; date: string; type: string }[];
      for (const e of a.events) {
        const match = stored.find((x) => x.date === e.date && x.type === e.type);
        if (!match) throw new Error(`event ${e.key} not stored: ${JSON.stringify(q)}`);
        eventIds[e.key] = match.id;
      }
    }
  }

  if (s.fx?.routes?.length) {
    const out = await ok(await first.post("/fx/providers/routes", s.fx.routes), "fx routes", 201);
    if (out.error_count) throw new Error(`fx routes: ${JSON.stringify(out)}`);
  }
  if (s.fx?.manual_rates?.length) {
    const out = await ok(await first.post("/fx/currencies/rate", s.fx.manual_rates.map((r) => ({ ...r, source: "MANUAL" }))), "manual rates");
    if (out.success_count !== s.fx.manual_rates.length) throw new Error(`manual rates: ${JSON.stringify(out)}`);
  }
  if (s.fx?.provider_rates?.length) {
    for (const r of s.fx.provider_rates) if (!(r.base < r.quote)) throw new Error(`provider rate ${r.base}-${r.quote} must be alphabetical`);
    sql(server.dataDir, `INSERT INTO fx_rates (base, quote, provider, date, rate, source) VALUES (?, ?, ?, ?, ?, 'sync')`,
      s.fx.provider_rates.map((r) => [r.base, r.quote, r.provider, r.date, r.rate]));
  }

  if (s.transactions.length) {
    const creates = s.transactions.map((t) => ({
      broker_id: brokerIds[t.broker], type: t.type, date: t.date,
      ...(t.asset ? { asset_id: assetIds[t.asset] } : {}),
      quantity: t.quantity ?? "0",
      ...(t.cash ? { cash: t.cash } : {}),
      ...(t.link ? { link_uuid: t.link } : {}),
      ...(t.cost_basis_override ? { cost_basis_override: t.cost_basis_override } : {}),
      ...(t.cost_basis_mode ? { cost_basis_mode: t.cost_basis_mode } : {}),
      ...(t.event ? { asset_event_id: eventIds[t.event] } : {}),
      ...(t.description ? { description: t.description } : {}),
    }));
    const by = clients[s.committed_by ?? s.users[0]!]!;
    const out = await ok(await by.post("/transactions/commit", { creates }), "commit");
    if (!out.committed) throw new Error(`commit refused: ${JSON.stringify(out.issues)}`);
  }
  if (s.sql_transactions?.length) {
    seedTransactions(server.dataDir, s.sql_transactions.map((t) => ({
      brokerId: brokerIds[t.broker]!, type: t.type, date: t.date, quantity: t.quantity,
      amount: t.cash?.amount ?? null, currency: t.cash?.code ?? null, assetId: t.asset ? assetIds[t.asset]! : null,
    })));
    // Direct SQL bypasses the cache clearing of the write paths: a fresh server has no cached report yet.
  }
  return { target: server, clients, userIds, brokerIds, assetIds, eventIds };
}

export function requestBody(fx: PortfolioFixture, seeded: Seeded): Record<string, unknown> {
  const r = fx.request;
  return {
    ...(r.broker_ids ? { broker_ids: r.broker_ids.map((k) => seeded.brokerIds[k]) } : {}),
    date_range: r.date_range,
    target_currency: r.target_currency,
    include_summary: r.include_summary ?? true,
    include_history: r.include_history ?? true,
    include_allocation_history: r.include_allocation_history ?? false,
  };
}

export async function report(c: ApiClient, body: Record<string, unknown>): Promise<any> {
  return ok(await c.post("/portfolio/report", body), "POST /portfolio/report");
}

// ---------------------------------------------------------------------------------------------
// Comparison: every mismatch is collected, so one run shows them all
// ---------------------------------------------------------------------------------------------

export interface Mismatch { field: string; expected: unknown; actual: unknown }

const MONEY_FIELDS = [
  "net_worth", "cash_total", "market_value", "in_transit_market_value", "open_cost_basis", "total_invested", "total_gain_loss",
  "realized_gain_loss", "unrealized_gain_loss", "total_income", "total_fees", "total_taxes", "period_nav_start", "period_net_flows",
  "period_pnl", "period_unrealized_gain_loss_start", "period_unrealized_gain_loss_end", "period_unrealized_gain_loss_delta",
  "period_realized_gain_loss", "period_income", "period_fees", "period_taxes", "period_fees_taxes", "period_other_result",
] as const;

const HISTORY_MONEY = ["nav_value", "cash_value", "market_value", "in_transit_market_value", "open_cost_basis", "capital_baseline",
  "total_pnl", "unrealized_gain_loss"] as const;

function num(v: unknown): number | null | undefined {
  if (v === null || v === undefined) return v as null | undefined;
  if (typeof v === "number") return v;
  if (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))) return Number(v);
  return Number.NaN;
}

function close(out: Mismatch[], field: string, expected: number | null, actual: unknown): void {
  const a = num(actual);
  if (expected === null) {
    if (a !== null) out.push({ field, expected: null, actual });
    return;
  }
  if (a === null || a === undefined || Number.isNaN(a) || Math.abs(a - expected) > TOLERANCE) out.push({ field, expected, actual });
}

function money(out: Mismatch[], field: string, expected: number, actual: any, currency: string): void {
  if (actual === null || actual === undefined || typeof actual !== "object") {
    out.push({ field, expected: { code: currency, amount: expected }, actual });
    return;
  }
  if (actual.code !== currency) out.push({ field: `${field}.code`, expected: currency, actual: actual.code });
  close(out, `${field}.amount`, expected, actual.amount);
}

/** Replaces `@asset:key` / `@broker:key` placeholders (also inside strings of arrays and objects). */
export function resolveRefs<T>(value: T, seeded: Seeded): T {
  const one = (v: unknown): unknown => {
    if (typeof v === "string") {
      const m = /^@(asset|broker):(.+)$/.exec(v);
      if (!m) return v;
      const table = m[1] === "asset" ? seeded.assetIds : seeded.brokerIds;
      const id = table[m[2]!];
      if (id === undefined) throw new Error(`unknown ${m[1]} key ${m[2]}`);
      return id;
    }
    if (Array.isArray(v)) return v.map(one);
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, one(x)]));
    return v;
  };
  return one(value) as T;
}

/** The comparable part of an issue; `cta_target` as text (the docs do not say whether an asset id target is a number or a string). */
function issueKey(i: any) {
  return {
    domain: i.domain, code: i.code, severity: i.severity, message_i18n_key: i.message_i18n_key, message_params: i.message_params,
    affected_asset_ids: i.affected_asset_ids, affected_asset_names: i.affected_asset_names, affected_fx_pairs: i.affected_fx_pairs,
    group: i.group ?? null, cta_action: i.cta_action ?? null, cta_target: i.cta_target === null || i.cta_target === undefined ? null : String(i.cta_target),
  };
}

function compareIssues(out: Mismatch[], where: string, expected: ExpectedIssue[], actual: any[] | undefined, seeded: Seeded): void {
  if (!Array.isArray(actual)) {
    out.push({ field: `${where}.issues`, expected: "an array", actual });
    return;
  }
  const exp = resolveRefs(expected, seeded).map((e) => issueKey({ domain: "portfolio", ...e }));
  const act = actual.map(issueKey);
  const sortKey = (i: ReturnType<typeof issueKey>) => `${i.code}|${i.group}|${i.cta_target}`;
  exp.sort((a, b) => sortKey(a).localeCompare(sortKey(b)));
  act.sort((a, b) => sortKey(a).localeCompare(sortKey(b)));
  // ANY_STRING params: accept any string, then compare the rest exactly.
  for (let k = 0; k < Math.min(exp.length, act.length); k++) {
    const e = exp[k]!, a = act[k]!;
    for (const [p, v] of Object.entries(e.message_params ?? {})) {
      if (v === ANY_STRING && typeof a.message_params?.[p] === "string") (e.message_params as any)[p] = a.message_params[p];
    }
  }
  if (JSON.stringify(exp) !== JSON.stringify(act)) {
    // Field by field, for a readable report.
    const n = Math.max(exp.length, act.length);
    for (let k = 0; k < n; k++) {
      if (JSON.stringify(exp[k]) !== JSON.stringify(act[k])) out.push({ field: `${where}.issues[${k}]`, expected: exp[k] ?? null, actual: act[k] ?? null });
    }
  }
}

function compareHistoryPoint(out: Mismatch[], e: ExpectedHistoryPoint, p: any, startDate: string, currency: string): void {
  const where = `history[${e.date}]`;
  if (!p) {
    out.push({ field: where, expected: "a point", actual: undefined });
    return;
  }
  for (const f of HISTORY_MONEY) if (e[f] !== undefined) money(out, `${where}.${f}`, e[f]!, p[f], currency);
  if (e.twrr !== undefined) close(out, `${where}.twrr`, e.twrr, p.twrr);
  if (e.mwrr !== undefined) {
    if (e.mwrr === null) close(out, `${where}.mwrr_cumulative`, null, p.mwrr_cumulative);
    else {
      const m = mwrrOf(e.mwrr.flows, daysBetween(startDate, e.date));
      if (Math.abs(m.npvAtRate) > 1e-9 * m.scale) out.push({ field: `${where} (fixture solver) NPV(rate)`, expected: 0, actual: m.npvAtRate });
      close(out, `${where}.mwrr_cumulative`, m.cumulative, p.mwrr_cumulative);
    }
  }
}

/** Compares one report answer with one expectation; returns every mismatch (empty = pass). */
export function compareReport(body: any, expected: ExpectedReport, currency: string, seeded: Seeded): Mismatch[] {
  const out: Mismatch[] = [];
  const s = body?.summary;
  const e = expected.summary;
  if (!s) return [{ field: "summary", expected: "an object", actual: s }];
  for (const f of MONEY_FIELDS) if (e[f] !== undefined) money(out, `summary.${f}`, e[f]!, s[f], currency);
  close(out, "summary.twrr_percent / 100", e.twrr, num(s.twrr_percent) == null ? s.twrr_percent : num(s.twrr_percent)! / 100);
  close(out, "summary.simple_roi_percent / 100", e.simple_roi, num(s.simple_roi_percent) == null ? s.simple_roi_percent : num(s.simple_roi_percent)! / 100);
  close(out, "summary.mwrr_period_days", e.mwrr_period_days, s.mwrr_period_days);
  if (e.mwrr === null) {
    if (s.mwrr_available !== false) out.push({ field: "summary.mwrr_available", expected: false, actual: s.mwrr_available });
    close(out, "summary.mwrr_cumulative_percent", null, s.mwrr_cumulative_percent);
    close(out, "summary.mwrr_annualized_percent", null, s.mwrr_annualized_percent);
  } else {
    const days = daysBetween(expected.period.start, expected.period.end);
    const m = mwrrOf(e.mwrr.flows, days);
    if (Math.abs(m.npvAtRate) > 1e-9 * m.scale) out.push({ field: "summary (fixture solver) NPV(rate)", expected: 0, actual: m.npvAtRate });
    if (s.mwrr_available !== true) out.push({ field: "summary.mwrr_available", expected: true, actual: s.mwrr_available });
    const pct = (v: unknown) => (num(v) == null ? v : num(v)! / 100);
    close(out, "summary.mwrr_cumulative_percent / 100", m.cumulative, pct(s.mwrr_cumulative_percent));
    close(out, "summary.mwrr_annualized_percent / 100", m.annualized, pct(s.mwrr_annualized_percent));
  }

  if (expected.history.length) {
    const h = body.history as any[] | null;
    if (!Array.isArray(h)) out.push({ field: "history", expected: "an array", actual: h });
    else {
      const days = daysBetween(expected.period.start, expected.period.end) + 1;
      if (h.length !== days) out.push({ field: "history.length (one point per day)", expected: days, actual: h.length });
      if (h[0]?.date !== expected.period.start) out.push({ field: "history[0].date", expected: expected.period.start, actual: h[0]?.date });
      if (h.at(-1)?.date !== expected.period.end) out.push({ field: "history[last].date", expected: expected.period.end, actual: h.at(-1)?.date });
      const byDate = new Map(h.map((p) => [p.date, p]));
      for (const point of expected.history) compareHistoryPoint(out, point, byDate.get(point.date), expected.period.start, currency);
    }
  }

  const dq = body.data_quality;
  if (!dq) out.push({ field: "data_quality", expected: "an object", actual: dq });
  else {
    compareIssues(out, "data_quality", expected.issues, dq.issues, seeded);
    if (dq.data_quality_status !== expected.data_quality_status) {
      out.push({ field: "data_quality.data_quality_status", expected: expected.data_quality_status, actual: dq.data_quality_status });
    }
    // The series check and the Report section: the summary carries the same data quality as the report.
    const sdq = s.data_quality;
    if (sdq && JSON.stringify((sdq.issues ?? []).map(issueKey)) !== JSON.stringify((dq.issues ?? []).map(issueKey))) {
      out.push({ field: "summary.data_quality.issues (= data_quality.issues)", expected: dq.issues, actual: sdq.issues });
    }
    if (expected.stale_prices) {
      const exp = resolveRefs(expected.stale_prices, seeded);
      const act = (dq.stale_prices ?? []).map((x: any) => ({ asset_id: x.asset_id, name: x.name, last_price_date: x.last_price_date, stale_days: x.stale_days }));
      if (JSON.stringify(exp) !== JSON.stringify(act)) out.push({ field: "data_quality.stale_prices", expected: exp, actual: act });
    }
  }
  return out;
}

export function formatMismatches(story: string, who: string, list: Mismatch[]): string {
  return `${story} (as ${who}): ${list.length} mismatch(es)\n` + list
    .map((m) => `  ${m.field}: expected ${JSON.stringify(m.expected)}, actual ${JSON.stringify(m.actual)}`).join("\n");
}

/** The cases of a fixture: one expectation per user it is checked for. */
function casesOf(fx: PortfolioFixture): [string, ExpectedReport][] {
  return "by_user" in fx.expected
    ? Object.entries(fx.expected.by_user) as [string, ExpectedReport][]
    : [[fx.setup.users[0]!, fx.expected as ExpectedReport]];
}

/**
 * The engine's answer to a report request, computed in this process the way the worker computes
 * it (scope and period resolved by the report service, input read in one read transaction on a
 * read-only connection, `buildReport`), without the cache, the worker pool or HTTP.
 */
export async function engineReport(app: InProcessApp, userId: number, body: Record<string, unknown>): Promise<any> {
  const { request } = await new PortfolioReportService(app.container, { kind: "sqlite", file: app.dbFile }).resolve(userId, reportQuery(ReportRequest.parse(body)));
  const db = new Database(app.dbFile, { readonly: true });
  try {
    db.exec("BEGIN");
    const input = await loadReportInput(sqliteSqlReader(db), request);
    db.exec("COMMIT");
    return JSON.parse(JSON.stringify(buildReport(input)));
  } finally {
    db.close();
  }
}

/**
 * A migrated database with the fixture's users registered in order through `POST /auth/register`
 * (the first is the superuser), built once per user list: argon2 makes each sign-up cost about a
 * second on a shared machine, and 20 of the fixtures have the same single user.
 */
const templates = new Map<string, Promise<{ file: string; accounts: Record<string, number> }>>();
function accountsTemplate(users: readonly string[]): Promise<{ file: string; accounts: Record<string, number> }> {
  const key = users.join(",");
  let t = templates.get(key);
  if (!t) {
    t = (async () => {
      const app = await startInProcess();
      const accounts: Record<string, number> = {};
      try {
        for (const u of users) {
          const res = await app.client().post("/auth/register", { username: u, email: `${u}@example.com`, password: "Secret-pass1" });
          accounts[u] = (await ok(res, `register ${u}`, 201)).user.id;
        }
      } finally {
        await app.close({ keepDataDir: true });
      }
      // VACUUM INTO: one self-contained file with everything committed (nothing left in a WAL).
      const file = join(tempDataDir("pt-fixture-template-"), "portfolio.sqlite");
      const db = new Database(app.dbFile);
      try { db.run(`VACUUM INTO '${file.replaceAll("'", "''")}'`); } finally { db.close(); }
      rmSync(app.dataDir, { recursive: true, force: true });
      return { file, accounts };
    })();
    templates.set(key, t);
  }
  return t;
}

/**
 * Runs one fixture in process: seeded through the app's handlers over a fresh migrated SQLite
 * file, the report computed by the engine directly ({@link engineReport}); throws with every
 * mismatch listed. The HTTP path is covered once per report section (fixtures-http.test.ts).
 */
export async function runFixtureInProcess(fx: PortfolioFixture): Promise<void> {
  const { file, accounts } = await accountsTemplate(fx.setup.users);
  const app = await startInProcess({ template: file });
  try {
    const seeded = await seed(fx, { ...app, accounts });
    const failures: string[] = [];
    for (const [who, expected] of casesOf(fx)) {
      const body = await engineReport(app, seeded.userIds[who]!, requestBody(fx, seeded));
      const mismatches = compareReport(body, expected, fx.request.target_currency, seeded);
      if (mismatches.length) failures.push(formatMismatches(fx.name, who, mismatches));
    }
    if (failures.length) throw new Error(failures.join("\n\n"));
  } finally {
    await app.close();
  }
}
