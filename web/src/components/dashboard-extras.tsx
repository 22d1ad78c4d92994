/**
 * The dashboard's second row, loaded after the first paint (its own chunk): the period's top
 * movers from the report's positions contribution, income received this year (the summary's
 * `period_income` of a report from 1 January), and links into the analysis pages.
 */
import { api } from "../api/client.ts";
import type { ReportView } from "../api/types.ts";
import { cmp } from "../lib/exact.ts";
import { msg, t } from "../lib/i18n.ts";
import { Link } from "../lib/router.tsx";
import { useAsync } from "../lib/use-async.ts";
import { ErrorNote, Money, Percent, Skeleton } from "./ui.tsx";

const LINKS: [string, string][] = [
  ["/holdings", msg("Holdings")], ["/performance", msg("Performance")], ["/income", msg("Income")],
  ["/gains", msg("Realised gains")], ["/risk", msg("Risk lab")], ["/tools", msg("Tools")],
];

export function DashboardExtras(props: { report: ReportView; currency: string; brokerIds: number[] | null }) {
  const year = new Date().toISOString().slice(0, 4);
  const income = useAsync(async (signal) => (await api.post("/portfolio/report", {
    signal, body: {
      broker_ids: props.brokerIds, date_range: { start: `${year}-01-01`, end: null }, target_currency: props.currency,
      include_summary: true, include_history: false, include_allocation_history: false,
    },
  })).summary?.period_income ?? null, [props.currency, props.brokerIds?.join(","), year]);
  // The best and the worst three open positions (per broker) by the period's P&L in percent.
  const positions = (props.report.positions_contribution?.positions ?? []).filter((p) => p.period_pnl !== null && !p.is_fully_sold);
  const movers = positions.slice().sort((a, b) => cmp(b.period_pnl_percent ?? "0", a.period_pnl_percent ?? "0"));
  const top = movers.length <= 6 ? movers : [...movers.slice(0, 3), ...movers.slice(-3)];
  return (
    <div class="grid-2">
      <section class="card" aria-labelledby="h-movers">
        <h2 id="h-movers">{t("Top movers")}</h2>
        {top.length === 0 ? <p class="muted">{t("No open positions.")}</p> : (
          <table class="table compact" data-testid="movers">
            <thead><tr><th scope="col">{t("Asset")}</th><th scope="col" class="num">{t("Period P&L")}</th><th scope="col" class="num">%</th></tr></thead>
            <tbody>{top.map((p) => (
              <tr key={`${p.asset_id}-${p.broker_id}`} data-testid={`mover-${p.asset_id}-${p.broker_id}`}>
                <th scope="row"><Link href={`/assets/${p.asset_id}`}>{p.asset_name}</Link> <span class="muted small">{p.broker_name}</span></th>
                <td class="num"><Money amount={p.period_pnl} currency={props.currency} signed /></td>
                <td class="num"><Percent value={p.period_pnl_percent} /></td>
              </tr>
            ))}</tbody>
          </table>
        )}
      </section>
      <section class="card" aria-labelledby="h-income-year">
        <h2 id="h-income-year">{t("Income this year")}</h2>
        <ErrorNote error={income.error} />
        <p class="kpi-value" data-testid="income-year">{income.data ? <Money amount={income.data.amount} currency={income.data.code} /> : income.loading ? <Skeleton /> : "—"}</p>
        <p><Link href="/income">{t("Income by month and asset")}</Link></p>
        <nav aria-label={t("Analysis")}>
          <ul class="quick-links">{LINKS.map(([href, label]) => <li key={href}><Link href={href} class="button">{t(label)}</Link></li>)}</ul>
        </nav>
      </section>
    </div>
  );
}
