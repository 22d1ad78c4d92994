/** Dashboard: net worth, P&L and returns for a period and a set of brokers, history, allocation, holdings, data quality. */
import { useMemo, useState } from "preact/hooks";
import { api } from "../api/client.ts";
import type { Allocation, ReportView } from "../api/types.ts";
import { TimeChart } from "../components/chart.tsx";
import { DataQualityPanel } from "../components/data-quality.tsx";
import { ErrorNote, Loading, Money, Page, Percent, Skeleton, SkeletonLines, daysAgo, today } from "../components/ui.tsx";
import { formatDecimal, formatMoney, MASK } from "../lib/format.ts";
import { toChartNumber } from "../lib/decimal.ts";
import { Link } from "../lib/router.tsx";
import { localeOf, useApp } from "../lib/store.ts";
import { useAsync } from "../lib/use-async.ts";
import { msg, t } from "../lib/i18n.ts";
import { assetTypeLabel } from "../lib/asset-types.ts";

const PERIODS: { id: string; label: string; start: () => string | null }[] = [
  { id: "1m", label: msg("1M"), start: () => daysAgo(30) },
  { id: "3m", label: msg("3M"), start: () => daysAgo(91) },
  { id: "ytd", label: msg("YTD"), start: () => `${today().slice(0, 4)}-01-01` },
  { id: "1y", label: msg("1Y"), start: () => daysAgo(365) },
  { id: "5y", label: msg("5Y"), start: () => daysAgo(5 * 365 + 1) },
  { id: "all", label: msg("All"), start: () => null },
];

export function DashboardPage() {
  const { prefs, privacy } = useApp();
  const locale = localeOf(prefs);
  const [period, setPeriod] = useState("all");
  const [selected, setSelected] = useState<number[] | null>(null);
  const brokers = useAsync((signal) => api.get("/brokers", { signal }), []);
  const currency = prefs.base_currency || "EUR";
  const report = useAsync(async (signal) => {
    const start = PERIODS.find((p) => p.id === period)!.start();
    return api.post("/portfolio/report", {
      signal,
      body: {
        broker_ids: selected && selected.length ? selected : null,
        date_range: start ? { start, end: null } : null,
        target_currency: currency,
        include_summary: true,
        include_history: true,
        include_allocation_history: false,
        include_positions_contribution: true,
      },
    });
  }, [period, selected?.join(","), currency]);

  const format = useMemo(() => privacy ? () => MASK : (v: number) => formatDecimal(v.toFixed(0), locale), [privacy, locale]);
  const history = report.data?.history ?? [];
  const chart = useMemo(() => ({
    dates: history.map((h) => h.date),
    series: [
      { label: t("Net worth"), color: "var(--chart-1)", values: history.map((h) => toChartNumber(h.nav_value.amount)) },
      { label: t("Invested capital"), color: "var(--chart-2)", dash: true, values: history.map((h) => toChartNumber(h.capital_baseline.amount)) },
    ],
  }), [report.data, prefs.language]);

  const s = report.data?.summary;
  // The headline figures say so themselves when they rest on missing exchange rates or prices: a
  // marker next to each (linking to the data-quality panel), not only the panel further down.
  const gap = useMemo(() => {
    const issues = s?.data_quality.issues ?? [];
    const pairs = [...new Set(issues.filter((i) => i.code === "MISSING_FX_MARKET" || i.code === "MISSING_FX_RATES").flatMap((i) => i.affected_fx_pairs))];
    const prices = issues.some((i) => i.code === "MISSING_PRICE");
    const parts = [
      ...(pairs.length ? [t("exchange rates are missing for {pairs}", { pairs: pairs.join(", ") })] : []),
      ...(prices ? [t("some positions have no price")] : []),
    ];
    return parts.length ? t("Incomplete: {reasons}. See Data quality.", { reasons: parts.join("; ") }) : undefined;
  }, [s, prefs.language]);
  const computing = report.loading && !report.data;
  const items = brokers.data?.items ?? [];
  const toggleBroker = (id: number) => {
    const cur = selected ?? [];
    setSelected(cur.includes(id) ? cur.filter((x) => x !== id) : [...cur, id]);
  };

  return (
    <Page title={t("Dashboard")}>
      <div class="toolbar" role="group" aria-label={t("Period and brokers")}>
        <div class="segmented" role="group" aria-label={t("Period")}>
          {PERIODS.map((p) => (
            <button key={p.id} type="button" aria-pressed={period === p.id} class={period === p.id ? "on" : ""}
              onClick={() => setPeriod(p.id)}>{t(p.label)}</button>
          ))}
        </div>
        {items.length > 1 && (
          <fieldset class="broker-filter">
            <legend>{t("Brokers")}</legend>
            {items.map((b) => (
              <label key={b.id} class="check">
                <input type="checkbox" checked={!selected || selected.length === 0 || selected.includes(b.id)}
                  onChange={() => toggleBroker(b.id)} /> {b.name}
              </label>
            ))}
          </fieldset>
        )}
      </div>
      <ErrorNote error={report.error} title={t("The report could not be computed.")} />
      {report.loading && !report.data && <Loading label={t("Computing the portfolio…")} />}
      {items.length === 0 && brokers.data && (
        <div class="note">{t("No broker yet.")} <Link href="/brokers">{t("Create a broker")}</Link> {t("to start recording transactions.")}</div>
      )}
      {/* While a cold report computes (the portfolio engine can take seconds), the page keeps its
          layout with placeholders instead of waiting blank. */}
      {(s || computing) && (
        <>
          <div class="kpis" aria-busy={report.loading}>
            <Kpi label={t("Net worth")} testid="net-worth" gap={gap}>{s ? <Money amount={s.net_worth.amount} currency={s.net_worth.code} /> : <Skeleton />}</Kpi>
            <Kpi label={t("Invested")} gap={gap}>{s ? <Money amount={s.total_invested.amount} currency={currency} /> : <Skeleton />}</Kpi>
            <Kpi label={t("Total P&L")} gap={gap}>{s ? <><Money amount={s.total_gain_loss.amount} currency={currency} signed /> <Percent value={s.total_gain_loss_percent} /></> : <Skeleton />}</Kpi>
            <Kpi label={t("Period P&L")} gap={gap}>{s ? <Money amount={s.period_pnl.amount} currency={currency} signed /> : <Skeleton />}</Kpi>
            <Kpi label={t("TWR")}>{s ? <Percent value={s.twrr_percent} /> : <Skeleton width="4em" />}</Kpi>
            <Kpi label={t("MWRR (annualised)")}>{!s ? <Skeleton width="4em" /> : s.mwrr_available ? <Percent value={s.mwrr_annualized_percent} /> : <span class="muted">{t("n/a")}</span>}</Kpi>
          </div>
          <div class="grid-2">
            <section class="card wide" aria-labelledby="h-history">
              <h2 id="h-history">{t("Net worth and invested capital")}</h2>
              {s ? <TimeChart title={t("Net worth and invested capital over time")} dates={chart.dates} series={chart.series} format={format} /> : <Skeleton block height="280px" />}
            </section>
            <section class="card" aria-labelledby="h-dq">
              <h2 id="h-dq">{t("Data quality")}</h2>
              {s ? <DataQualityPanel issues={s.data_quality.issues} onFixed={report.reload} /> : <SkeletonLines n={2} />}
            </section>
            <section class="card" aria-labelledby="h-alloc">
              <h2 id="h-alloc">{t("Allocation")}</h2>
              {s ? <AllocationTabs type={s.allocation_by_type} sector={s.allocation_by_sector} geography={s.allocation_by_geography} currency={currency} /> : <SkeletonLines n={4} />}
            </section>
            <section class="card wide" aria-labelledby="h-hold">
              <h2 id="h-hold">{t("Top holdings")}</h2>
              {s ? <TopHoldings report={report.data!} currency={currency} /> : <SkeletonLines n={5} />}
            </section>
          </div>
        </>
      )}
    </Page>
  );
}

function Kpi(props: { label: string; testid?: string; gap?: string; children: preact.ComponentChildren }) {
  return (
    <div class="kpi card" data-testid={props.testid}>
      <div class="kpi-label">{props.label}</div>
      <div class="kpi-value">{props.children}{props.gap && <>{" "}<a href="#h-dq" class="gap-marker" title={props.gap} aria-label={props.gap}>⚠</a></>}</div>
    </div>
  );
}

const ALLOCATION_TABS = { type: msg("Type"), sector: msg("Sector"), geography: msg("Geography") };

function AllocationTabs(props: { type: Allocation[]; sector: Allocation[]; geography: Allocation[]; currency: string }) {
  const [tab, setTab] = useState<"type" | "sector" | "geography">("type");
  const { prefs, privacy } = useApp();
  const rows = (props[tab] ?? []).slice().sort((a, b) => Number(b.value) - Number(a.value));
  return (
    <div>
      <div class="segmented" role="group" aria-label={t("Allocation by")}>
        {(["type", "sector", "geography"] as const).map((k) => (
          <button key={k} type="button" aria-pressed={tab === k} class={tab === k ? "on" : ""} onClick={() => setTab(k)}>
            {t(ALLOCATION_TABS[k])}
          </button>
        ))}
      </div>
      {rows.length === 0 ? <p class="muted">{t("No valued positions.")}</p> : (
        <table class="table compact" aria-label={t("Allocation by {what}", { what: t(ALLOCATION_TABS[tab]).toLowerCase() })}>
          <thead><tr><th scope="col">{t("Name")}</th><th scope="col" class="num">{t("Weight")}</th><th scope="col" class="num">{t("Amount")}</th></tr></thead>
          <tbody>
            {rows.map((a) => (
              <tr key={a.name}>
                <td>
                  {tab === "type" ? assetTypeLabel(a.name) : a.name}
                  <div class="bar" aria-hidden="true"><span style={{ width: `${Math.min(100, Math.max(0, Number(a.value)))}%` }} /></div>
                </td>
                <td class="num">{formatDecimal(a.value, localeOf(prefs), { minPlaces: 1, maxPlaces: 1 })} %</td>
                <td class="num">{privacy ? MASK : formatMoney(a.amount, props.currency, localeOf(prefs))}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

function TopHoldings(props: { report: ReportView; currency: string }) {
  const holdings = (props.report.summary?.holdings ?? []).slice()
    .sort((a, b) => Number(b.current_value ?? 0) - Number(a.current_value ?? 0)).slice(0, 10);
  const contribution = new Map((props.report.positions_contribution?.positions ?? []).map((p) => [`${p.asset_id}/${p.broker_id}`, p]));
  if (holdings.length === 0) return <p class="muted">{t("No open positions.")}</p>;
  return (
    <div class="table-wrap">
      <table class="table phone-cards">
        <thead>
          <tr>
            <th scope="col">{t("Asset")}</th><th scope="col">{t("Broker")}</th><th scope="col" class="num">{t("Quantity")}</th>
            <th scope="col" class="num">{t("Value")}</th><th scope="col" class="num">{t("Gain/loss")}</th><th scope="col" class="num">{t("Period contribution")}</th>
          </tr>
        </thead>
        <tbody>
          {holdings.map((h) => {
            const c = contribution.get(`${h.asset_id}/${h.broker_id}`);
            return (
              <tr key={`${h.asset_id}/${h.broker_id}`}>
                <td><Link href={`/assets/${h.asset_id}`}>{h.asset_name}</Link></td>
                <td data-label={t("Broker")}>{h.broker_name ?? ""}</td>
                <td class="num" data-label={t("Quantity")}><Qty value={h.quantity} /></td>
                <td class="num" data-label={t("Value")}><Money amount={h.current_value} currency={props.currency} /></td>
                <td class="num" data-label={t("Gain/loss")}><Money amount={h.gain_loss} currency={props.currency} signed /></td>
                <td class="num" data-label={t("Period contribution")}><Money amount={c?.period_pnl ?? null} currency={props.currency} signed /></td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

export function Qty(props: { value: string }) {
  const { prefs, privacy } = useApp();
  return <>{privacy ? MASK : formatDecimal(props.value, localeOf(prefs), { maxPlaces: 8 })}</>;
}
