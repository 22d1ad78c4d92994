/**
 * Risk lab: the risk analytics of POST /risk/query on the caller's portfolio, with their
 * parameters (period, mode, benchmark, confidence, VaR method), a stress scenario, a Monte Carlo
 * fan chart, the optimised portfolios beside the holdings and the current portfolio (the points
 * of an efficient frontier), and the correlation matrix. Every figure is the API's, shown with the
 * analytic's name, version, status and data quality. The API answers a query in one response (no
 * progress events), so the lab runs its sections one request after the other, says which one is
 * running, and can be cancelled (the running request is aborted).
 */
import { useRef, useState } from "preact/hooks";
import { api } from "../api/client.ts";
import { Badge, ErrorNote, Field, Loading, Money, Page, Select } from "../components/ui.tsx";
import { formatDate } from "../lib/format.ts";
import { addCatalogs, msg, t } from "../lib/i18n.ts";
import { LAB } from "../i18n/lab.ts";
import { fractionText, num, obj, ratioText, rows, type RiskCatalogItem, type RiskItem, str } from "../lib/risk-format.ts";
import { localeOf, useApp } from "../lib/store.ts";
import { useAsync } from "../lib/use-async.ts";

addCatalogs(LAB);

type Mode = "historical" | "current_composition";
type Step = "figures" | "stress" | "simulation" | "frontier";
const STEPS: [Step, string][] = [
  ["figures", msg("Risk figures")], ["stress", msg("Stress test")], ["simulation", msg("Monte Carlo simulation")], ["frontier", msg("Efficient frontier and correlation")],
];
const PERIODS: [string, string][] = [["1", msg("1 year")], ["3", msg("3 years")], ["5", msg("5 years")], ["10", msg("10 years")]];
const VAR_METHODS: [string, string][] = [["historical", msg("Historical")], ["parametric", msg("Parametric (normal)")], ["cornish_fisher", msg("Cornish-Fisher")]];
const OBJECTIVES: [string, string][] = [["min_risk", msg("Minimum risk")], ["max_sharpe", msg("Maximum Sharpe ratio")], ["risk_parity", msg("Risk parity")]];
const STATUS_KIND = { ok: "ok", partial: "warning", unavailable: "warning", failed: "error" } as const;
const STATUS_LABEL: Record<string, string> = { ok: msg("ok"), partial: msg("partial"), unavailable: msg("unavailable"), failed: msg("failed") };

function yearsAgo(n: number): string {
  const d = new Date();
  d.setUTCFullYear(d.getUTCFullYear() - n);
  return d.toISOString().slice(0, 10);
}

interface Params {
  years: string; mode: Mode; benchmark: string; confidence: string; varMethod: string; horizon: string; riskFree: string;
  scenario: string; scenarioStart: string; scenarioEnd: string; simMethod: string; paths: string; simHorizon: string;
}

export function RiskPage() {
  const { prefs } = useApp();
  const locale = localeOf(prefs);
  const currency = prefs.base_currency || "EUR";
  const catalog = useAsync((signal) => api.get("/risk/catalog", { signal }), []);
  const scenarios = useAsync((signal) => api.get("/risk/scenario-catalog", { signal }), []);
  const assets = useAsync((signal) => api.get("/assets/all", { signal }), []);
  const [p, setP] = useState<Params>({
    years: "3", mode: "historical", benchmark: "", confidence: "0.95", varMethod: "historical", horizon: "1", riskFree: "0",
    scenario: "equity_crash", scenarioStart: "", scenarioEnd: "", simMethod: "bootstrap", paths: "1000", simHorizon: "252",
  });
  const set = (k: keyof Params) => (v: string) => setP((x) => ({ ...x, [k]: v }));
  const [results, setResults] = useState<Partial<Record<Step, RiskItem[]>>>({});
  const [running, setRunning] = useState<{ step: Step; index: number; started: number } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [cancelled, setCancelled] = useState(false);
  const controller = useRef<AbortController | null>(null);
  const [, tick] = useState(0);

  const byCode = new Map((catalog.data?.items ?? []).map((c) => [c.analytic_code, c]));
  const scenarioItems = scenarios.data?.items ?? [];
  const chosenScenario = scenarioItems.find((s) => s.scenario.id === p.scenario)?.scenario;
  const datesEditable = !!obj(chosenScenario, "editable")?.dates;

  const run = async () => {
    controller.current?.abort();
    const ctl = new AbortController();
    controller.current = ctl;
    setResults({}); setError(null); setCancelled(false);
    const rf = Number(p.riskFree) / 100 || 0;
    const range = { start: yearsAgo(Number(p.years)) };
    const current = { mode: "current_composition" as const, composition_policy: "current_buy_and_hold" as const };
    const modeOf = p.mode === "historical" ? { mode: "historical" as const } : current;
    const requests: Record<Step, { mode: Mode; composition_policy?: "current_buy_and_hold"; analytics: { instance_id: string; analytic_code: string; parameters?: Record<string, unknown> }[] }> = {
      figures: { ...modeOf, analytics: [
        { instance_id: "kpi", analytic_code: "historical_kpi", parameters: { risk_free_rate: rf } },
        { instance_id: "var", analytic_code: "historical_var", parameters: { confidence_level: Number(p.confidence), horizon_days: Number(p.horizon) || 1, method: p.varMethod } },
        ...(p.benchmark ? [{ instance_id: "comparison", analytic_code: "comparison", parameters: { benchmark_asset_id: Number(p.benchmark), risk_free_rate: rf } }] : []),
      ] },
      stress: { ...current, analytics: [{ instance_id: "stress", analytic_code: "stress", parameters: {
        scenario_id: p.scenario, ...(datesEditable && p.scenarioStart ? { start: p.scenarioStart } : {}), ...(datesEditable && p.scenarioEnd ? { end: p.scenarioEnd } : {}),
      } }] },
      simulation: { ...current, analytics: [{ instance_id: "simulation", analytic_code: "simulation", parameters: {
        method: p.simMethod, paths: Number(p.paths) || 1000, horizon_days: Number(p.simHorizon) || 252,
      } }] },
      frontier: { ...current, analytics: [
        { instance_id: "current", analytic_code: "historical_kpi", parameters: { risk_free_rate: rf } },
        { instance_id: "assets", analytic_code: "asset_risk_return", parameters: { risk_free_rate: rf } },
        ...OBJECTIVES.map(([objective]) => ({ instance_id: objective, analytic_code: "portfolio_optimization", parameters: { objective, risk_free_rate: rf } })),
        { instance_id: "correlation", analytic_code: "correlation", parameters: {} },
      ] },
    };
    const timer = setInterval(() => tick((n) => n + 1), 1000);
    try {
      for (const [i, [step]] of STEPS.entries()) {
        setRunning({ step, index: i, started: Date.now() });
        const r = requests[step];
        const answer = await api.post("/risk/query", { signal: ctl.signal, body: { scope: { kind: "portfolio" }, date_range: range, target_currency: currency, ...r } });
        setResults((x) => ({ ...x, [step]: answer.items }));
      }
    } catch (e) {
      if ((e as Error)?.name === "AbortError") setCancelled(true);
      else setError(e);
    } finally {
      clearInterval(timer);
      if (controller.current === ctl) { setRunning(null); controller.current = null; }
    }
  };
  const cancel = () => controller.current?.abort();
  const item = (step: Step, id: string) => results[step]?.find((x) => x.instance_id === id);

  return (
    <Page title={t("Risk lab")}>
      <ErrorNote error={catalog.error ?? scenarios.error} />
      <form class="card form" aria-labelledby="h-risk-params" onSubmit={(e) => { e.preventDefault(); void run(); }}>
        <h2 id="h-risk-params">{t("Parameters")}</h2>
        <div class="row">
          <Field label={t("Period")}>{(id) => <Select id={id} value={p.years} options={PERIODS.map(([v, l]) => ({ value: v, label: t(l) }))} onChange={set("years")} />}</Field>
          <Field label={t("Composition")}>{(id) => (
            <Select id={id} value={p.mode} onChange={set("mode")} options={[
              { value: "historical", label: t("As it was (historical)") }, { value: "current_composition", label: t("Today's holdings over the period") },
            ]} />
          )}</Field>
          <Field label={t("Benchmark")}>{(id) => <Select id={id} value={p.benchmark} placeholder={t("None")} options={(assets.data ?? []).map((a) => ({ value: String(a.id), label: a.name }))} onChange={set("benchmark")} />}</Field>
          <Field label={t("Risk-free rate (% a year)")}>{(id) => <input id={id} inputMode="decimal" size={6} value={p.riskFree} onInput={(e) => set("riskFree")((e.target as HTMLInputElement).value)} />}</Field>
        </div>
        <div class="row">
          <Field label={t("Confidence level")}>{(id) => <Select id={id} value={p.confidence} onChange={set("confidence")} options={["0.9", "0.95", "0.975", "0.99"].map((c) => ({ value: c, label: fractionText(Number(c), locale) }))} />}</Field>
          <Field label={t("VaR method")}>{(id) => <Select id={id} value={p.varMethod} options={VAR_METHODS.map(([v, l]) => ({ value: v, label: t(l) }))} onChange={set("varMethod")} />}</Field>
          <Field label={t("VaR horizon (trading days)")}>{(id) => <input id={id} type="number" min={1} max={252} value={p.horizon} onInput={(e) => set("horizon")((e.target as HTMLInputElement).value)} />}</Field>
        </div>
        <div class="row">
          <Field label={t("Stress scenario")}>{(id) => (
            <Select id={id} value={p.scenario} onChange={set("scenario")}
              options={scenarioItems.map((s) => ({ value: s.scenario.id, label: scenarioName(s.scenario, prefs.language) }))} />
          )}</Field>
          {datesEditable && <Field label={t("Scenario start")}>{(id) => <input id={id} type="date" value={p.scenarioStart} onInput={(e) => set("scenarioStart")((e.target as HTMLInputElement).value)} />}</Field>}
          {datesEditable && <Field label={t("Scenario end")}>{(id) => <input id={id} type="date" value={p.scenarioEnd} onInput={(e) => set("scenarioEnd")((e.target as HTMLInputElement).value)} />}</Field>}
          <Field label={t("Simulation method")}>{(id) => <Select id={id} value={p.simMethod} onChange={set("simMethod")} options={[{ value: "bootstrap", label: t("Block bootstrap") }, { value: "gbm", label: t("Geometric Brownian motion") }]} />}</Field>
          <Field label={t("Paths")}>{(id) => <input id={id} type="number" min={100} max={100000} value={p.paths} onInput={(e) => set("paths")((e.target as HTMLInputElement).value)} />}</Field>
          <Field label={t("Horizon (trading days)")}>{(id) => <input id={id} type="number" min={1} max={2520} value={p.simHorizon} onInput={(e) => set("simHorizon")((e.target as HTMLInputElement).value)} />}</Field>
        </div>
        <div class="row">
          <button type="submit" class="primary" disabled={!!running}>{t("Compute")}</button>
          {running && <button type="button" onClick={cancel}>{t("Cancel")}</button>}
        </div>
        <div role="status" aria-live="polite" data-testid="risk-progress">
          {running && (
            <>
              <progress max={STEPS.length} value={running.index} aria-label={t("Progress")} />{" "}
              {t("Step {n} of {total}: {name} ({seconds} s)…", { n: running.index + 1, total: STEPS.length, name: t(STEPS[running.index]![1]), seconds: Math.round((Date.now() - running.started) / 1000) })}
            </>
          )}
          {cancelled && !running && t("Cancelled: the sections computed so far are shown.")}
        </div>
      </form>
      <ErrorNote error={error} title={t("The risk analytics could not be computed.")} />

      {results.figures && (
        <section class="card" aria-labelledby="h-risk-figures">
          <h2 id="h-risk-figures">{t("Risk figures")}</h2>
          <Envelope item={item("figures", "kpi")} catalog={byCode} />
          <KpiTable item={item("figures", "kpi")} testid="risk-kpi" />
          <Envelope item={item("figures", "var")} catalog={byCode} />
          <VarTable item={item("figures", "var")} currency={currency} />
          {item("figures", "comparison") && <><Envelope item={item("figures", "comparison")} catalog={byCode} /><ComparisonTable item={item("figures", "comparison")} /></>}
        </section>
      )}
      {results.stress && (
        <section class="card" aria-labelledby="h-risk-stress">
          <h2 id="h-risk-stress">{t("Stress test")}</h2>
          <Envelope item={item("stress", "stress")} catalog={byCode} />
          <Stress item={item("stress", "stress")} currency={currency} />
        </section>
      )}
      {results.simulation && (
        <section class="card" aria-labelledby="h-risk-sim">
          <h2 id="h-risk-sim">{t("Monte Carlo simulation")}</h2>
          <Envelope item={item("simulation", "simulation")} catalog={byCode} />
          <Simulation item={item("simulation", "simulation")} currency={currency} />
        </section>
      )}
      {results.frontier && (
        <>
          <section class="card" aria-labelledby="h-risk-frontier">
            <h2 id="h-risk-frontier">{t("Efficient frontier")}</h2>
            {["current", "assets", ...OBJECTIVES.map(([o]) => o)].map((id) => <Envelope key={id} item={item("frontier", id)} catalog={byCode} />)}
            <Frontier items={results.frontier} />
          </section>
          <section class="card" aria-labelledby="h-risk-corr">
            <h2 id="h-risk-corr">{t("Correlation")}</h2>
            <Envelope item={item("frontier", "correlation")} catalog={byCode} />
            <Correlation item={item("frontier", "correlation")} />
          </section>
        </>
      )}
      {!running && !results.figures && !error && !cancelled && <p class="muted">{t("Choose the parameters and press Compute.")}</p>}
    </Page>
  );
}

function scenarioName(s: { id: string }, language: string): string {
  const name = obj(s, "name");
  return (name && (str(name, language) ?? str(name, "en"))) ?? s.id;
}

/** The analytic's name, version, status, data quality, observation window, warnings and error. */
function Envelope(props: { item: RiskItem | undefined; catalog: Map<string, RiskCatalogItem> }) {
  const { prefs } = useApp();
  const locale = localeOf(prefs);
  const it = props.item;
  if (!it) return null;
  const c = props.catalog.get(it.analytic_code);
  const quality = str(it.data_quality, "data_quality_status");
  const from = str(it.metadata, "observations_start"), to = str(it.metadata, "observations_end");
  const method = str(it.output, "method") ?? str(it.output, "objective");
  return (
    <div class="envelope" data-testid={`envelope-${it.instance_id}`}>
      <p>
        <strong>{c?.name ?? it.analytic_code}</strong>
        {method && <> · <span data-field="method">{method}</span></>}
        {" "}<span class="muted small">v{str(it.metadata, "algorithm_version") ?? c?.algorithm_version}</span>{" "}
        <Badge kind={STATUS_KIND[it.status]}><span data-field="status">{t(STATUS_LABEL[it.status] ?? it.status)}</span></Badge>{" "}
        {quality && <span class="muted small">{t("Data quality: {status}", { status: quality })}</span>}
        {from && to && <span class="muted small"> · {t("{from} to {to}", { from: formatDate(from, locale), to: formatDate(to, locale) })}</span>}
      </p>
      {it.error && <p class="note error" data-field="error">{it.error.code}: {it.error.message}</p>}
      {it.warnings.length > 0 && (
        <ul class="warnings small">{it.warnings.map((w, i) => <li key={i}><code>{w.code}</code> {w.message}</li>)}</ul>
      )}
    </div>
  );
}

const KPI_ROWS: [string, string, "fraction" | "ratio" | "days" | "count"][] = [
  ["annualized_return", msg("Annualised return"), "fraction"], ["annualized_volatility", msg("Annualised volatility"), "fraction"],
  ["sharpe_ratio", msg("Sharpe ratio"), "ratio"], ["sortino_ratio", msg("Sortino ratio"), "ratio"],
  ["max_drawdown", msg("Maximum drawdown"), "fraction"], ["max_drawdown_duration_days", msg("Longest drawdown (days)"), "days"],
  ["observations", msg("Observations"), "count"],
];

function figure(v: number | null, kind: "fraction" | "ratio" | "days" | "count", locale: string): string {
  if (kind === "fraction") return fractionText(v, locale);
  if (kind === "ratio") return ratioText(v, locale);
  return v === null ? "—" : String(v);
}

function KpiTable(props: { item: RiskItem | undefined; testid: string }) {
  const { prefs } = useApp();
  const locale = localeOf(prefs);
  const m = obj(props.item?.output, "metrics");
  if (!m) return null;
  return (
    <div class="table-wrap"><table class="table compact" data-testid={props.testid}>
      <tbody>{KPI_ROWS.map(([k, label, kind]) => <tr key={k}><th scope="row">{t(label)}</th><td class="num" data-col={k}>{figure(num(m, k), kind, locale)}</td></tr>)}</tbody>
    </table></div>
  );
}

function VarTable(props: { item: RiskItem | undefined; currency: string }) {
  const { prefs } = useApp();
  const locale = localeOf(prefs);
  const o = props.item?.output;
  if (!o) return null;
  return (
    <div class="table-wrap"><table class="table compact" data-testid="risk-var">
      <thead><tr><th scope="col">{t("Measure")}</th><th scope="col" class="num">{t("Share of the value")}</th><th scope="col" class="num">{t("Amount")}</th></tr></thead>
      <tbody>
        <tr><th scope="row">{t("Value at risk ({confidence}, {days} d)", { confidence: fractionText(num(o, "confidence_level"), locale), days: num(o, "horizon_days") ?? "" })}</th>
          <td class="num" data-col="var">{fractionText(num(o, "var"), locale)}</td><td class="num" data-col="var_amount"><Money amount={str(o, "var_amount")} currency={props.currency} /></td></tr>
        <tr><th scope="row">{t("Expected shortfall (CVaR)")}</th>
          <td class="num" data-col="cvar">{fractionText(num(o, "cvar"), locale)}</td><td class="num" data-col="cvar_amount"><Money amount={str(o, "cvar_amount")} currency={props.currency} /></td></tr>
      </tbody>
    </table></div>
  );
}

const COMPARISON_ROWS: [string, string, "fraction" | "ratio" | "count"][] = [
  ["annualized_return", msg("Annualised return"), "fraction"], ["benchmark_annualized_return", msg("Benchmark annualised return"), "fraction"],
  ["beta", msg("Beta"), "ratio"], ["alpha", msg("Alpha (Jensen)"), "fraction"], ["correlation", msg("Correlation"), "ratio"],
  ["tracking_error", msg("Tracking error"), "fraction"], ["information_ratio", msg("Information ratio"), "ratio"],
  ["up_capture", msg("Up capture"), "ratio"], ["down_capture", msg("Down capture"), "ratio"], ["observations", msg("Observations"), "count"],
];

function ComparisonTable(props: { item: RiskItem | undefined }) {
  const { prefs } = useApp();
  const locale = localeOf(prefs);
  const m = obj(props.item?.output, "metrics");
  if (!m) return null;
  return (
    <div class="table-wrap"><table class="table compact" data-testid="risk-comparison">
      <tbody>{COMPARISON_ROWS.map(([k, label, kind]) => <tr key={k}><th scope="row">{t(label)}</th><td class="num" data-col={k}>{figure(num(m, k), kind, locale)}</td></tr>)}</tbody>
    </table></div>
  );
}

function Stress(props: { item: RiskItem | undefined; currency: string }) {
  const { prefs } = useApp();
  const locale = localeOf(prefs);
  const o = props.item?.output;
  if (!o) return null;
  const w = obj(o, "window");
  return (
    <>
      <div class="kpis" data-testid="risk-stress">
        <div class="kpi card"><div class="kpi-label">{t("Portfolio return")}</div><div class="kpi-value" data-col="portfolio_return">{fractionText(num(o, "portfolio_return"), locale)}</div></div>
        <div class="kpi card"><div class="kpi-label">{t("Profit or loss")}</div><div class="kpi-value" data-col="pnl_amount"><Money amount={str(o, "pnl_amount")} currency={props.currency} signed /></div></div>
        <div class="kpi card"><div class="kpi-label">{t("Coverage")}</div><div class="kpi-value" data-col="coverage">{fractionText(num(o, "coverage"), locale)}</div></div>
      </div>
      {w && <p class="muted">{t("{from} to {to}", { from: formatDate(str(w, "start"), locale), to: formatDate(str(w, "end"), locale) })}</p>}
      <div class="table-wrap">
        <table class="table compact">
          <thead><tr><th scope="col">{t("Asset")}</th><th scope="col" class="num">{t("Weight")}</th><th scope="col" class="num">{t("Shock")}</th><th scope="col" class="num">{t("Contribution")}</th><th scope="col">{t("Source")}</th></tr></thead>
          <tbody>{rows(o, "items").map((r) => (
            <tr key={String(r.asset_id)} data-testid={`stress-${r.asset_id}`}>
              <th scope="row">{str(r, "name")}</th><td class="num">{fractionText(num(r, "weight"), locale)}</td>
              <td class="num" data-col="shock">{fractionText(num(r, "shock"), locale)}</td><td class="num" data-col="contribution">{fractionText(num(r, "contribution"), locale)}</td><td>{str(r, "source")}</td>
            </tr>
          ))}</tbody>
        </table>
      </div>
    </>
  );
}

function Simulation(props: { item: RiskItem | undefined; currency: string }) {
  const { prefs } = useApp();
  const locale = localeOf(prefs);
  const o = props.item?.output;
  if (!o) return null;
  const term = obj(o, "terminal");
  const values = obj(o, "terminal_value");
  const path = rows(o, "path_percentiles");
  return (
    <>
      <div class="kpis" data-testid="risk-simulation">
        <div class="kpi card"><div class="kpi-label">{t("Median return")}</div><div class="kpi-value" data-col="p50">{fractionText(num(term, "p50"), locale)}</div></div>
        <div class="kpi card"><div class="kpi-label">{t("Probability of a loss")}</div><div class="kpi-value" data-col="probability_of_loss">{fractionText(num(term, "probability_of_loss"), locale)}</div></div>
        <div class="kpi card"><div class="kpi-label">{t("Value at risk (95 %)")}</div><div class="kpi-value" data-col="var_95">{fractionText(num(term, "var_95"), locale)}</div></div>
      </div>
      <FanChart path={path} />
      <details>
        <summary>{t("Chart as a table")}</summary>
        <div class="table-wrap">
          <table class="table compact">
            <thead><tr><th scope="col">{t("Percentile")}</th><th scope="col" class="num">{t("Return at the horizon")}</th><th scope="col" class="num">{t("Value at the horizon")}</th></tr></thead>
            <tbody>{["p5", "p25", "p50", "p75", "p95"].map((k) => (
              <tr key={k} data-testid={`sim-${k}`}><th scope="row">{k.slice(1)}</th><td class="num" data-col="return">{fractionText(num(term, k), locale)}</td>
                <td class="num" data-col="value">{values && str(values, k) ? <Money amount={str(values, k)} currency={props.currency} /> : "—"}</td></tr>
            ))}</tbody>
          </table>
        </div>
      </details>
    </>
  );
}

/** The simulated return per day (a fraction): the 5–95 percentile band and the median. */
function FanChart(props: { path: Record<string, unknown>[] }) {
  const { prefs } = useApp();
  const locale = localeOf(prefs);
  const pts = props.path.map((r) => ({ day: num(r, "day") ?? 0, p5: num(r, "p5") ?? 0, p50: num(r, "p50") ?? 0, p95: num(r, "p95") ?? 0 }));
  if (pts.length === 0) return null;
  const W = 600, H = 240, pad = 44;
  const maxDay = Math.max(1, ...pts.map((q) => q.day));
  const lo = Math.min(0, ...pts.map((q) => q.p5)), hi = Math.max(0, ...pts.map((q) => q.p95));
  const x = (d: number) => pad + (d / maxDay) * (W - pad - 8);
  const y = (v: number) => H - 20 - ((v - lo) / (hi - lo || 1)) * (H - 30);
  const band = [...pts.map((q) => `${x(q.day)},${y(q.p95)}`), ...pts.slice().reverse().map((q) => `${x(q.day)},${y(q.p5)}`)].join(" ");
  const median = pts.map((q) => `${x(q.day)},${y(q.p50)}`).join(" ");
  const label = (v: number) => fractionText(v, locale);
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={t("Simulated growth: 5th to 95th percentile band and median")} class="svg-chart">
        <polygon points={band} fill="var(--chart-1)" opacity="0.2" />
        <polyline points={median} fill="none" stroke="var(--chart-1)" stroke-width="2" />
        <line x1={pad} x2={W - 8} y1={y(0)} y2={y(0)} stroke="var(--muted)" stroke-dasharray="4 4" />
        <text x={2} y={y(hi) + 4} class="axis">{label(hi)}</text>
        <text x={2} y={y(lo)} class="axis">{label(lo)}</text>
        <text x={W - 8} y={H - 4} class="axis" text-anchor="end">{t("{n} days", { n: maxDay })}</text>
      </svg>
    </figure>
  );
}

/** Volatility against return: each holding, the current portfolio and the three optimised portfolios. */
function Frontier(props: { items: RiskItem[] }) {
  const { prefs } = useApp();
  const locale = localeOf(prefs);
  const get = (id: string) => props.items.find((x) => x.instance_id === id)?.output;
  const points: { key: string; label: string; vol: number | null; ret: number | null; sharpe: number | null; kind: "asset" | "current" | "optimal" }[] = [];
  for (const r of rows(get("assets"), "items")) points.push({ key: `a${r.asset_id}`, label: str(r, "name") ?? "", vol: num(r, "annualized_volatility"), ret: num(r, "annualized_return"), sharpe: num(r, "sharpe_ratio"), kind: "asset" });
  const cur = obj(get("current"), "metrics");
  if (cur) points.push({ key: "current", label: t("Current portfolio"), vol: num(cur, "annualized_volatility"), ret: num(cur, "annualized_return"), sharpe: num(cur, "sharpe_ratio"), kind: "current" });
  for (const [o, name] of OBJECTIVES) {
    const out = get(o);
    if (out) points.push({ key: o, label: t(name), vol: num(out, "volatility"), ret: num(out, "expected_return"), sharpe: num(out, "sharpe_ratio"), kind: "optimal" });
  }
  const plotted = points.filter((q) => q.vol !== null && q.ret !== null) as (typeof points[number] & { vol: number; ret: number })[];
  const W = 600, H = 280, pad = 50;
  const vx = plotted.map((q) => q.vol), ry = plotted.map((q) => q.ret);
  // Axes around the points (a tenth of the spread as margin), so close portfolios stay apart.
  const spread = (xs: number[]) => { const a = Math.min(...xs), z = Math.max(...xs), m = (z - a || Math.abs(z) || 0.01) / 10; return [a - m, z + m] as const; };
  const [x0, x1] = spread(vx), [y0, y1] = spread(ry);
  const x = (v: number) => pad + ((v - x0) / (x1 - x0 || 1)) * (W - pad - 10);
  const y = (v: number) => H - 24 - ((v - y0) / (y1 - y0 || 1)) * (H - 34);
  const color = { asset: "var(--chart-4)", current: "var(--chart-2)", optimal: "var(--chart-1)" };
  const weights = (o: string) => rows(get(o), "weights");
  return (
    <>
      {plotted.length > 0 && (
        <figure class="chart">
          <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={t("Annualised volatility against annualised return")} class="svg-chart">
            {y0 < 0 && y1 > 0 && <line x1={pad} x2={W - 10} y1={y(0)} y2={y(0)} stroke="var(--border)" />}
            {plotted.map((q) => (
              <g key={q.key}>
                <circle cx={x(q.vol)} cy={y(q.ret)} r={q.kind === "asset" ? 4 : 6} fill={color[q.kind]} />
                <text x={x(q.vol) + 8} y={y(q.ret) + 4} class="axis">{q.label}</text>
              </g>
            ))}
            <text x={pad} y={H - 4} class="axis">{fractionText(x0, locale)}</text>
            <text x={W - 10} y={H - 4} class="axis" text-anchor="end">{t("Volatility")} {fractionText(x1, locale)}</text>
            <text x={2} y={12} class="axis">{t("Return")} {fractionText(y1, locale)}</text>
            <text x={2} y={H - 24} class="axis">{fractionText(y0, locale)}</text>
          </svg>
        </figure>
      )}
      <div class="table-wrap">
        <table class="table compact" data-testid="risk-frontier">
          <thead><tr><th scope="col">{t("Portfolio or holding")}</th><th scope="col" class="num">{t("Annualised return")}</th><th scope="col" class="num">{t("Annualised volatility")}</th><th scope="col" class="num">{t("Sharpe ratio")}</th></tr></thead>
          <tbody>{points.map((q) => (
            <tr key={q.key} data-testid={`frontier-${q.key}`}>
              <th scope="row">{q.label}</th><td class="num" data-col="return">{fractionText(q.ret, locale)}</td>
              <td class="num" data-col="volatility">{fractionText(q.vol, locale)}</td><td class="num" data-col="sharpe">{ratioText(q.sharpe, locale)}</td>
            </tr>
          ))}</tbody>
        </table>
      </div>
      {OBJECTIVES.some(([o]) => weights(o).length > 0) && (
        <div class="table-wrap">
          <table class="table compact" data-testid="risk-weights">
            <caption>{t("Weights")}</caption>
            <thead><tr><th scope="col">{t("Asset")}</th><th scope="col" class="num">{t("Current")}</th>{OBJECTIVES.map(([o, name]) => <th key={o} scope="col" class="num">{t(name)}</th>)}</tr></thead>
            <tbody>{(weights(OBJECTIVES.find(([o]) => weights(o).length)![0])).map((w) => (
              <tr key={String(w.asset_id)} data-testid={`weights-${w.asset_id}`}>
                <th scope="row">{str(w, "name")}</th><td class="num">{fractionText(num(w, "current_weight"), locale)}</td>
                {OBJECTIVES.map(([o]) => <td key={o} class="num" data-col={o}>{fractionText(num(weights(o).find((x) => x.asset_id === w.asset_id), "weight"), locale)}</td>)}
              </tr>
            ))}</tbody>
          </table>
        </div>
      )}
    </>
  );
}

function Correlation(props: { item: RiskItem | undefined }) {
  const { prefs } = useApp();
  const locale = localeOf(prefs);
  const o = props.item?.output;
  if (!o) return null;
  const labels = Array.isArray((o as Record<string, unknown>).labels) ? (o as { labels: unknown[] }).labels.map(String) : [];
  const values = Array.isArray((o as Record<string, unknown>).values) ? (o as { values: unknown[][] }).values : [];
  if (labels.length === 0) return <Loading label={t("No data for this period.")} />;
  return (
    <div class="table-wrap">
      <table class="table compact heatmap" data-testid="risk-correlation" aria-label={t("Correlation")}>
        <thead><tr><th scope="col"><span class="sr-only">{t("Asset")}</span></th>{labels.map((l) => <th key={l} scope="col" class="num">{l}</th>)}</tr></thead>
        <tbody>{labels.map((l, i) => (
          <tr key={l}>
            <th scope="row">{l}</th>
            {labels.map((_, j) => {
              const v = values[i]?.[j];
              const n = typeof v === "number" ? v : null;
              return <td key={j} data-cell={`${i}-${j}`} class={n === null ? "" : n < 0 ? "neg-cell" : "pos-cell"} style={{ "--w": `${Math.round(Math.abs(n ?? 0) * 60)}%` }}>{ratioText(n, locale)}</td>;
            })}
          </tr>
        ))}</tbody>
      </table>
    </div>
  );
}
