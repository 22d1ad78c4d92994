/**
 * Performance: time-weighted (TWR) and money-weighted (MWR) returns per month, quarter or year
 * and since the start, all from one POST /portfolio/report (its summary, and its `period_returns`:
 * each period's figures are the engine's, equal to that period's own report, never recomputed
 * here); a monthly heat map and a drawdown chart chained from the daily TWR of the same report's
 * history; and a benchmark asset's price rebased on the same chart. Every chart has a table beside it.
 */
import { useMemo, useState } from "preact/hooks";
import { api } from "../api/client.ts";
import { TimeChart } from "../components/chart.tsx";
import { ErrorNote, Field, Loading, Page, Percent, Select } from "../components/ui.tsx";
import { toChartNumber } from "../lib/decimal.ts";
import { chainBetween, growth, times } from "../lib/exact.ts";
import { formatDate, formatDecimal, fractionToPercent } from "../lib/format.ts";
import { msg, t } from "../lib/i18n.ts";
import type { HistoryPoint, PeriodReturn } from "../api/types.ts";
import { localeOf, useApp } from "../lib/store.ts";
import { useAsync } from "../lib/use-async.ts";

type Granularity = "month" | "quarter" | "year";
const GRANULARITY: Record<Granularity, string> = { month: msg("Months"), quarter: msg("Quarters"), year: msg("Years") };
const MONTHS = [msg("Jan"), msg("Feb"), msg("Mar"), msg("Apr"), msg("May"), msg("Jun"), msg("Jul"), msg("Aug"), msg("Sep"), msg("Oct"), msg("Nov"), msg("Dec")];

function dayBefore(iso: string): string {
  return new Date(Date.parse(`${iso}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}

/** The row label of a period from its first calendar day. */
function periodLabel(begin: string, g: Granularity): string {
  const y = begin.slice(0, 4), m = Number(begin.slice(5, 7));
  return g === "year" ? y : g === "quarter" ? `${y} Q${(m - 1) / 3 + 1}` : `${t(MONTHS[m - 1]!)} ${y}`;
}

export function PerformancePage() {
  const { prefs } = useApp();
  const locale = localeOf(prefs);
  const currency = prefs.base_currency || "EUR";
  const [granularity, setGranularity] = useState<Granularity>("year");
  const [benchmarkId, setBenchmarkId] = useState<number | "">("");

  // One report: the summary (since the start), the daily history (heat map, drawdown, benchmark)
  // and the returns of every calendar month, quarter and year.
  const whole = useAsync((signal) => api.post("/portfolio/report", {
    signal, body: { target_currency: currency, include_summary: true, include_history: true, include_allocation_history: false, include_period_returns: true },
  }), [currency]);
  const from = whole.data?.metadata.computed_date_from ?? null;
  const to = whole.data?.metadata.computed_date_to ?? null;
  const periods: PeriodReturn[] = useMemo(() => [...(whole.data?.period_returns?.[granularity] ?? [])].reverse(), [whole.data, granularity]);

  const history = whole.data?.history ?? [];
  const monthly = useMemo(() => monthlyReturns(history), [history]);
  const drawdown = useMemo(() => drawdowns(history), [history]);
  const s = whole.data?.summary;

  return (
    <Page title={t("Performance")}>
      <ErrorNote error={whole.error} title={t("The report could not be computed.")} />
      {whole.loading && !whole.data && <Loading label={t("Computing the portfolio…")} />}
      {s && from && to && (
        <>
          <div class="kpis">
            <div class="kpi card" data-testid="perf-twr"><div class="kpi-label">{t("TWR since start")}</div><div class="kpi-value"><Percent value={s.twrr_percent} /></div></div>
            <div class="kpi card" data-testid="perf-mwr"><div class="kpi-label">{t("MWR since start (cumulative)")}</div><div class="kpi-value">{s.mwrr_available ? <Percent value={s.mwrr_cumulative_percent} /> : <span class="muted">{t("n/a")}</span>}</div></div>
            <div class="kpi card" data-testid="perf-mwr-annual"><div class="kpi-label">{t("MWR since start (annualised)")}</div><div class="kpi-value">{s.mwrr_available && s.mwrr_annualized_percent !== null ? <Percent value={s.mwrr_annualized_percent} /> : <span class="muted">{t("n/a")}</span>}</div></div>
            <div class="kpi card" data-testid="perf-max-dd"><div class="kpi-label">{t("Maximum drawdown")}</div><div class="kpi-value"><Percent value={drawdown.max === null ? null : fractionToPercent(drawdown.max)} /></div></div>
          </div>
          <p class="muted">{t("From {from} to {to}, in {currency}.", { from: formatDate(from, locale), to: formatDate(to, locale), currency })}</p>

          <section class="card" aria-labelledby="h-periods">
            <h2 id="h-periods">{t("Returns by period")}</h2>
            <div class="segmented" role="group" aria-label={t("Period length")}>
              {(Object.keys(GRANULARITY) as Granularity[]).map((g) => (
                <button key={g} type="button" aria-pressed={granularity === g} class={granularity === g ? "on" : ""} onClick={() => setGranularity(g)}>{t(GRANULARITY[g])}</button>
              ))}
            </div>
            <div class="table-wrap">
              <table class="table compact" aria-label={t("Returns by period")}>
                <thead><tr><th scope="col">{t("Period")}</th><th scope="col" class="num">{t("TWR")}</th><th scope="col" class="num">{t("MWR (cumulative)")}</th><th scope="col" class="num">{t("MWR (annualised)")}</th></tr></thead>
                <tbody>
                  {periods.map((p) => (
                    <tr key={p.period_begin} data-testid={`period-${p.period_begin}`}>
                      <th scope="row">{periodLabel(p.period_begin, granularity)}</th>
                      <td class="num" data-col="twr"><Percent value={p.twrr_percent} /></td>
                      <td class="num" data-col="mwr">{p.mwrr_available ? <Percent value={p.mwrr_cumulative_percent} /> : t("n/a")}</td>
                      <td class="num" data-col="mwr-annual">{p.mwrr_available && p.mwrr_annualized_percent !== null ? <Percent value={p.mwrr_annualized_percent} /> : t("n/a")}</td>
                    </tr>
                  ))}
                  <tr data-testid="period-all">
                    <th scope="row">{t("Since start")}</th>
                    <td class="num" data-col="twr"><Percent value={s.twrr_percent} /></td>
                    <td class="num" data-col="mwr">{s.mwrr_available ? <Percent value={s.mwrr_cumulative_percent} /> : t("n/a")}</td>
                    <td class="num" data-col="mwr-annual">{s.mwrr_available && s.mwrr_annualized_percent !== null ? <Percent value={s.mwrr_annualized_percent} /> : t("n/a")}</td>
                  </tr>
                </tbody>
              </table>
            </div>
            <p class="muted small">{t("TWR removes the effect of deposits and withdrawals; MWR (internal rate of return) counts when the money came in. The annualised MWR is shown for periods of 30 days or more.")}</p>
          </section>

          <section class="card" aria-labelledby="h-heat">
            <h2 id="h-heat">{t("Monthly returns (TWR)")}</h2>
            <HeatMap monthly={monthly} />
          </section>

          <section class="card" aria-labelledby="h-bench">
            <h2 id="h-bench">{t("Portfolio and benchmark")}</h2>
            <Benchmark history={history} from={from} to={to} currency={currency} benchmarkId={benchmarkId} onBenchmark={setBenchmarkId} />
          </section>

          <section class="card" aria-labelledby="h-dd">
            <h2 id="h-dd">{t("Drawdown")}</h2>
            <TimeChart title={t("Drawdown from the previous high (TWR)")} dates={drawdown.dates} height={200}
              series={[{ label: t("Drawdown"), color: "var(--chart-2)", values: drawdown.values }]}
              format={(v) => `${formatDecimal(v.toFixed(1), locale)} %`} />
            <details>
              <summary>{t("Drawdown as a table")}</summary>
              <DrawdownTable history={history} />
            </details>
          </section>
        </>
      )}
    </Page>
  );
}

/** Month → TWR of the month as a fraction, chained from the daily cumulative TWR (month-end over the previous month-end). */
function monthlyReturns(history: HistoryPoint[]): Map<string, string> {
  const out = new Map<string, string>();
  let prev: string | null = null;
  for (let i = 0; i < history.length; i++) {
    const h = history[i]!;
    const last = i === history.length - 1 || history[i + 1]!.date.slice(0, 7) !== h.date.slice(0, 7);
    if (!last) continue;
    out.set(h.date.slice(0, 7), prev === null ? h.twrr : chainBetween(h.twrr, prev));
    prev = h.twrr;
  }
  return out;
}

function HeatMap(props: { monthly: Map<string, string> }) {
  const years = [...new Set([...props.monthly.keys()].map((k) => k.slice(0, 4)))].sort().reverse();
  if (years.length === 0) return <p class="muted">{t("No data for this period.")}</p>;
  return (
    <div class="table-wrap">
      <table class="table compact heatmap" aria-label={t("Monthly returns (TWR)")}>
        <thead><tr><th scope="col">{t("Year")}</th>{MONTHS.map((m) => <th key={m} scope="col" class="num">{t(m)}</th>)}</tr></thead>
        <tbody>
          {years.map((y) => (
            <tr key={y}>
              <th scope="row">{y}</th>
              {MONTHS.map((_, i) => {
                const key = `${y}-${String(i + 1).padStart(2, "0")}`;
                const r = props.monthly.get(key);
                const pct = r === undefined ? null : fractionToPercent(r);
                // Colour strength: 10 % a month or more is full colour.
                const w = pct === null ? 0 : Math.min(60, Math.abs(Number(pct)) * 6);
                return (
                  <td key={key} data-month={key} class={pct === null ? "" : Number(pct) < 0 ? "neg-cell" : "pos-cell"} style={{ "--w": `${w}%` }}>
                    {pct === null ? "" : <Percent value={pct} />}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Drawdown of the TWR index (1 + TWR) from its running high; the maximum is found in floats and recomputed exactly. */
function drawdowns(history: HistoryPoint[]): { dates: string[]; values: (number | null)[]; max: string | null } {
  const dates: string[] = [], values: (number | null)[] = [];
  let peak = -Infinity, peakTwr = "0", worst = 0, worstAt = -1, worstPeak = "0";
  history.forEach((h, i) => {
    const idx = 1 + Number(h.twrr);
    if (idx > peak) { peak = idx; peakTwr = h.twrr; }
    const dd = peak > 0 ? idx / peak - 1 : 0;
    dates.push(h.date);
    values.push(dd * 100);
    if (dd < worst) { worst = dd; worstAt = i; worstPeak = peakTwr; }
  });
  const max = worstAt < 0 ? (history.length ? "0" : null) : chainBetween(history[worstAt]!.twrr, worstPeak);
  return { dates, values, max };
}

/** The month-end drawdowns, for reading without the chart. */
function DrawdownTable(props: { history: HistoryPoint[] }) {
  const { prefs } = useApp();
  const locale = localeOf(prefs);
  const rows: { date: string; dd: string }[] = [];
  let peak: string | null = null, peakN = -Infinity;
  props.history.forEach((h, i) => {
    const n = Number(h.twrr);
    if (n > peakN) { peakN = n; peak = h.twrr; }
    const last = i === props.history.length - 1 || props.history[i + 1]!.date.slice(0, 7) !== h.date.slice(0, 7);
    if (last) rows.push({ date: h.date, dd: chainBetween(h.twrr, peak ?? "0") });
  });
  return (
    <div class="table-wrap scroll-y">
      <table class="table compact">
        <thead><tr><th scope="col">{t("Date")}</th><th scope="col" class="num">{t("Drawdown")}</th></tr></thead>
        <tbody>{rows.reverse().map((r) => <tr key={r.date}><td>{formatDate(r.date, locale)}</td><td class="num"><Percent value={fractionToPercent(r.dd)} /></td></tr>)}</tbody>
      </table>
    </div>
  );
}

/**
 * The portfolio's TWR index and a benchmark asset's price, both rebased to 100 on the first day.
 * The benchmark's closes are converted into the portfolio's currency at each day's rate
 * (POST /fx/currencies/convert), or kept in the asset's currency when no rate exists; a day without
 * a quote or a rate carries the last one.
 */
function Benchmark(props: { history: HistoryPoint[]; from: string; to: string; currency: string; benchmarkId: number | ""; onBenchmark(id: number | ""): void }) {
  const { prefs } = useApp();
  const locale = localeOf(prefs);
  const assets = useAsync((signal) => api.get("/assets/all", { signal }), []);
  const assetCurrency = (assets.data ?? []).find((a) => a.id === props.benchmarkId)?.currency ?? null;
  const prices = useAsync(async (signal) => {
    if (props.benchmarkId === "" || assetCurrency === null) return null;
    const start = dayBefore(props.from).slice(0, 4) + "-01-01";
    const item = (await api.post("/assets/prices/query", {
      signal, body: [{ asset_id: props.benchmarkId, date_range: { start, end: props.to }, include_prices: true, include_events: false }],
    })).items[0];
    const closes = (item?.prices ?? []).map((p) => ({ date: p.date, close: p.close }));
    if (assetCurrency === props.currency || closes.length === 0) return { closes, converted: assetCurrency === props.currency };
    const rates = await api.post("/fx/currencies/convert", {
      signal, body: [{ from_amount: { code: assetCurrency, amount: "1" }, to: props.currency, date_range: { start, end: props.to } }],
    }).then((r) => r.results, () => []);
    if (rates.length === 0) return { closes, converted: false };
    const sortedRates = rates.slice().sort((a, b) => a.conversion_date.localeCompare(b.conversion_date));
    let k = -1;
    const out: { date: string; close: string }[] = [];
    for (const p of closes.slice().sort((a, b) => a.date.localeCompare(b.date))) {
      while (k + 1 < sortedRates.length && sortedRates[k + 1]!.conversion_date <= p.date) k++;
      if (k >= 0) out.push({ date: p.date, close: times(p.close, sortedRates[k]!.rate) });
    }
    return { closes: out, converted: true };
  }, [props.benchmarkId, assetCurrency, props.currency, props.from, props.to]);
  const series = useMemo(() => {
    const dates = props.history.map((h) => h.date);
    const portfolio = props.history.map((h) => h.twrr);
    let bench: (string | null)[] = [];
    if (prices.data && prices.data.closes.length) {
      const sorted = prices.data.closes.slice().sort((a, b) => a.date.localeCompare(b.date));
      let j = -1;
      bench = dates.map((d) => {
        while (j + 1 < sorted.length && sorted[j + 1]!.date <= d) j++;
        return j >= 0 ? sorted[j]!.close : null;
      });
    }
    const base = bench.find((v) => v !== null) ?? null;
    const benchReturn = bench.map((v) => v === null || base === null ? null : growth(v, base));
    return { dates, portfolio, benchReturn };
  }, [props.history, prices.data]);
  const name = (assets.data ?? []).find((a) => a.id === props.benchmarkId)?.name ?? "";
  const chartSeries = useMemo(() => [
    { label: t("Portfolio (TWR)"), color: "var(--chart-1)", values: series.portfolio.map((r) => 100 * (1 + Number(r))) },
    ...(props.benchmarkId !== "" && series.benchReturn.length ? [{ label: name, color: "var(--chart-2)", values: series.benchReturn.map((r) => r === null ? null : 100 * (1 + Number(r))) }] : []),
  ], [series, name, prefs.language]);
  const last = series.dates.length - 1;
  const monthEnds = series.dates.map((d, i) => ({ d, i })).filter(({ d, i }) => i === last || series.dates[i + 1]!.slice(0, 7) !== d.slice(0, 7));
  return (
    <div>
      <Field label={t("Benchmark")}>{(id) => (
        <Select id={id} value={props.benchmarkId} placeholder={t("None")}
          options={(assets.data ?? []).map((a) => ({ value: a.id, label: a.name }))} onChange={(v) => props.onBenchmark(v === "" ? "" : Number(v))} />
      )}</Field>
      <ErrorNote error={prices.error} />
      {props.benchmarkId !== "" && prices.data && prices.data.closes.length === 0 && <p class="muted">{t("This asset has no prices in the period.")}</p>}
      {prices.data && prices.data.closes.length > 0 && !prices.data.converted && assetCurrency && (
        <p class="muted" data-testid="bench-currency">{t("No exchange rate from {from} to {to}: the benchmark is shown in {from}.", { from: assetCurrency, to: props.currency })}</p>
      )}
      <TimeChart title={t("Portfolio and benchmark, rebased to 100")} dates={series.dates} series={chartSeries}
        format={(v) => formatDecimal(v.toFixed(1), locale)} />
      {props.benchmarkId !== "" && series.benchReturn.length > 0 && (
        <p data-testid="bench-summary">
          {t("Since {date}: portfolio {portfolio}, {name} {benchmark}.", {
            date: formatDate(props.from, locale), name,
            portfolio: fmtPct(series.portfolio[last]!, locale),
            benchmark: series.benchReturn[last] === null ? "—" : fmtPct(series.benchReturn[last]!, locale),
          })}
        </p>
      )}
      <details>
        <summary>{t("Chart as a table")}</summary>
        <div class="table-wrap scroll-y">
          <table class="table compact">
            <thead><tr><th scope="col">{t("Date")}</th><th scope="col" class="num">{t("Portfolio (TWR)")}</th>{props.benchmarkId !== "" && <th scope="col" class="num">{name}</th>}</tr></thead>
            <tbody>
              {monthEnds.reverse().map(({ d, i }) => (
                <tr key={d}>
                  <td>{formatDate(d, locale)}</td>
                  <td class="num"><Percent value={fractionToPercent(series.portfolio[i]!)} /></td>
                  {props.benchmarkId !== "" && <td class="num"><Percent value={series.benchReturn[i] == null ? null : fractionToPercent(series.benchReturn[i]!)} /></td>}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </div>
  );
}

function fmtPct(fraction: string, locale: string): string {
  const p = fractionToPercent(fraction);
  return p === null ? "—" : `${formatDecimal(p, locale, { minPlaces: 2, maxPlaces: 2 })} %`;
}
