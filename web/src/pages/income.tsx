/**
 * Income: dividends and interest received, by month and year, by asset and by broker, and the
 * yield on cost of the positions held. Every payment (dividends of assets, interest on cash) is the
 * report's `income_payments`: in the target currency, at the caller's share, per broker, as the
 * report counts them, so the totals are the report's (`summary.total_income`); one request,
 * whatever the number of assets paying. The upcoming income
 * of the next 12 months (confirmed and projected, web/src/lib/upcoming-income.ts) takes two more
 * requests: the held assets' events in one query, and one rate per foreign currency.
 */
import { useMemo, useState } from "preact/hooks";
import { api } from "../api/client.ts";
import { Badge, ErrorNote, Loading, Money, Page, Percent, daysAgo, today } from "../components/ui.tsx";
import { assetTypeLabel } from "../lib/asset-types.ts";
import { cmp, isZero, percentOf, sum, times } from "../lib/exact.ts";
import { formatDate, formatDecimal, formatMoney, MASK } from "../lib/format.ts";
import { addCatalogs, msg, t } from "../lib/i18n.ts";
import { LAB } from "../i18n/lab.ts";
import type { Holding } from "../api/types.ts";
import { Link } from "../lib/router.tsx";
import { localeOf, useApp } from "../lib/store.ts";
import { useAsync } from "../lib/use-async.ts";
import { addMonths, upcomingIncome, type UpcomingEvent } from "../lib/upcoming-income.ts";

addCatalogs(LAB);

/** One payment received, in the target currency (the caller's share). */
interface Payment { date: string; type: string; brokerId: number; assetId: number | null; amount: string }

const VIEWS = { month: msg("By month"), year: msg("By year") } as const;

export function IncomePage() {
  const { prefs } = useApp();
  const locale = localeOf(prefs);
  const currency = prefs.base_currency || "EUR";
  const [view, setView] = useState<keyof typeof VIEWS>("month");

  // One report: the holdings and positions (yield on cost, sold assets) and every dividend and
  // interest payment in the target currency at the caller's share, as its total_income counts them.
  const data = useAsync(async (signal) => {
    const [report, brokers] = await Promise.all([
      api.post("/portfolio/report", {
        signal, body: {
          target_currency: currency, include_summary: true, include_history: false, include_allocation_history: false,
          include_positions_contribution: true, include_income_payments: true,
        },
      }),
      api.get("/brokers", { signal }),
    ]);
    const payments: Payment[] = (report.income_payments ?? []).map((p) => ({ date: p.date, type: p.type, brokerId: p.broker_id, assetId: p.asset_id, amount: p.amount ?? "0" }));
    return { report, brokers: brokers.items, payments };
  }, [currency]);

  const d = data.data;
  const buckets = useMemo(() => {
    const by = (key: (p: Payment) => string) => {
      const m = new Map<string, string[]>();
      for (const p of d?.payments ?? []) m.set(key(p), [...(m.get(key(p)) ?? []), p.amount]);
      return [...m.entries()].map(([k, v]) => ({ key: k, amount: sum(v) }));
    };
    return {
      month: fillMonths(by((p) => p.date.slice(0, 7))),
      year: by((p) => p.date.slice(0, 4)).sort((a, b) => a.key.localeCompare(b.key)),
      asset: by((p) => String(p.assetId ?? "")),
      broker: by((p) => String(p.brokerId)),
    };
  }, [d]);

  const s = d?.report.summary;
  const total = sum((d?.payments ?? []).map((p) => p.amount));
  const end = d?.report.metadata.computed_date_to ?? "";
  const yearAgo = end ? `${Number(end.slice(0, 4)) - 1}${end.slice(4)}` : "";

  return (
    <Page title={t("Income")}>
      <ErrorNote error={data.error} title={t("The income could not be computed.")} />
      {data.loading && !d && <Loading label={t("Computing the portfolio…")} />}
      {d && s && (
        <>
          <div class="kpis">
            <div class="kpi card" data-testid="income-total"><div class="kpi-label">{t("Income received")}</div><div class="kpi-value"><Money amount={total} currency={currency} /></div></div>
            <div class="kpi card" data-testid="income-12m"><div class="kpi-label">{t("Last 12 months")}</div><div class="kpi-value"><Money amount={sum(d.payments.filter((p) => p.date > yearAgo).map((p) => p.amount))} currency={currency} /></div></div>
            <div class="kpi card" data-testid="income-yield"><div class="kpi-label">{t("Yield on cost (12 months)")}</div><div class="kpi-value"><Percent signed={false} value={yieldOnCost(d.payments.filter((p) => p.date > yearAgo && p.assetId !== null), s.holdings)} /></div></div>
          </div>
          <p class="muted">{t("Dividends and interest in {currency}, your share, from {from} to {to}.", {
            currency, from: formatDate(d.report.metadata.computed_date_from, locale), to: formatDate(end, locale),
          })}</p>

          <section class="card" aria-labelledby="h-income-time">
            <h2 id="h-income-time">{t("Income over time")}</h2>
            <div class="segmented" role="group" aria-label={t("Group by")}>
              {(Object.keys(VIEWS) as (keyof typeof VIEWS)[]).map((k) => (
                <button key={k} type="button" aria-pressed={view === k} class={view === k ? "on" : ""} onClick={() => setView(k)}>{t(VIEWS[k])}</button>
              ))}
            </div>
            <Bars rows={(view === "month" ? buckets.month : buckets.year).slice().reverse()} currency={currency}
              label={(k) => view === "month" ? monthLabel(k, locale) : k} caption={t("Income over time")} testid={`income-${view}`} />
          </section>

          <Upcoming holdings={s.holdings} currency={currency} />

          <div class="grid-2">
            <section class="card" aria-labelledby="h-income-asset">
              <h2 id="h-income-asset">{t("By asset")}</h2>
              <ByAsset payments={d.payments} holdings={s.holdings} names={new Map((d.report.positions_contribution?.positions ?? []).map((p) => [p.asset_id, { name: p.asset_name, type: p.asset_type }]))} currency={currency} since={yearAgo} />
            </section>
            <section class="card" aria-labelledby="h-income-broker">
              <h2 id="h-income-broker">{t("By broker")}</h2>
              <table class="table compact" aria-label={t("Income by broker")}>
                <thead><tr><th scope="col">{t("Broker")}</th><th scope="col" class="num">{t("Income")}</th></tr></thead>
                <tbody>
                  {d.brokers.map((b) => {
                    const amount = buckets.broker.find((x) => x.key === String(b.id))?.amount ?? "0";
                    return <tr key={b.id} data-testid={`income-broker-${b.id}`}><th scope="row">{b.name}</th><td class="num"><Money amount={amount} currency={currency} /></td></tr>;
                  })}
                </tbody>
              </table>
            </section>
          </div>
        </>
      )}
    </Page>
  );
}

/** Every month from the first payment to the last, empty months as zero, so the bars show the gaps. */
function fillMonths(rows: { key: string; amount: string }[]): { key: string; amount: string }[] {
  if (rows.length === 0) return [];
  const keys = rows.map((r) => r.key).sort();
  const by = new Map(rows.map((r) => [r.key, r.amount]));
  const out: { key: string; amount: string }[] = [];
  let [y, m] = keys[0]!.split("-").map(Number) as [number, number];
  const last = keys[keys.length - 1]!;
  for (;;) {
    const k = `${y}-${String(m).padStart(2, "0")}`;
    out.push({ key: k, amount: by.get(k) ?? "0" });
    if (k >= last) break;
    m++; if (m > 12) { m = 1; y++; }
  }
  return out;
}

function monthLabel(key: string, locale: string): string {
  try {
    return new Intl.DateTimeFormat(locale, { month: "short", year: "numeric", timeZone: "UTC" }).format(new Date(`${key}-01T00:00:00Z`));
  } catch {
    return key;
  }
}

/** Σ income of the last 12 months of the assets held ÷ their open cost, in percent. */
function yieldOnCost(payments: Payment[], holdings: Holding[]): string | null {
  const held = new Set(holdings.map((h) => h.asset_id));
  return percentOf(sum(payments.filter((p) => held.has(p.assetId!)).map((p) => p.amount)), sum(holdings.map((h) => h.open_cost_basis)));
}

/** A bar per row, drawn in CSS inside a table: the table is the chart's text alternative. */
function Bars(props: { rows: { key: string; amount: string }[]; currency: string; label(key: string): string; caption: string; testid: string }) {
  const { privacy } = useApp();
  if (props.rows.length === 0) return <p class="muted">{t("No income in this period.")}</p>;
  const max = Math.max(...props.rows.map((r) => Math.abs(Number(r.amount))), 0);
  return (
    <div class="table-wrap scroll-y">
      <table class="table compact bars-table" aria-label={props.caption} data-testid={props.testid}>
        <tbody>
          {props.rows.map((r) => (
            <tr key={r.key} data-key={r.key}>
              <th scope="row">{props.label(r.key)}</th>
              <td class="bar-cell" aria-hidden="true">
                <div class="track"><div class="fill" style={{ width: privacy || max === 0 ? "0%" : `${(Math.abs(Number(r.amount)) / max) * 100}%` }} /></div>
              </td>
              <td class="num"><Money amount={r.amount} currency={props.currency} /></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ByAsset(props: { payments: Payment[]; holdings: Holding[]; names: Map<number, { name: string; type: string | null }>; currency: string; since: string }) {
  const rows = useMemo(() => {
    const ids = [...new Set(props.payments.filter((p) => p.assetId !== null).map((p) => p.assetId!))];
    return ids.map((id) => {
      const mine = props.payments.filter((p) => p.assetId === id);
      const last12 = sum(mine.filter((p) => p.date > props.since).map((p) => p.amount));
      const cost = props.holdings.some((h) => h.asset_id === id) ? sum(props.holdings.filter((h) => h.asset_id === id).map((h) => h.open_cost_basis)) : null;
      return { id, total: sum(mine.map((p) => p.amount)), last12, cost, yield: cost === null ? null : percentOf(last12, cost) };
    }).sort((a, b) => cmp(b.total, a.total));
  }, [props.payments, props.holdings, props.since]);
  if (rows.length === 0) return <p class="muted">{t("No income in this period.")}</p>;
  return (
    <div class="table-wrap">
      <table class="table compact" aria-label={t("Income by asset")}>
        <thead><tr><th scope="col">{t("Asset")}</th><th scope="col" class="num">{t("Income")}</th><th scope="col" class="num">{t("Last 12 months")}</th><th scope="col" class="num">{t("Yield on cost")}</th></tr></thead>
        <tbody>
          {rows.map((r) => {
            const info = props.names.get(r.id);
            return (
              <tr key={r.id} data-testid={`income-asset-${r.id}`}>
                <th scope="row"><Link href={`/assets/${r.id}`}>{info?.name ?? r.id}</Link>{info?.type && <div class="muted small">{assetTypeLabel(info.type)}</div>}</th>
                <td class="num" data-col="total"><Money amount={r.total} currency={props.currency} /></td>
                <td class="num" data-col="last12"><Money amount={r.last12} currency={props.currency} /></td>
                <td class="num" data-col="yield">{r.yield === null ? <span class="muted">{t("sold")}</span> : <Percent value={r.yield} signed={false} />}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The next 12 months' payments of the positions held: the held assets' events in one query
 * (two years back for the cadence), each foreign currency's latest rate of the last two weeks.
 */
function Upcoming(props: { holdings: Holding[]; currency: string }) {
  const { prefs, privacy } = useApp();
  const locale = localeOf(prefs);
  const quantities = useMemo(() => {
    const m = new Map<number, string>();
    for (const h of props.holdings) m.set(h.asset_id, sum([m.get(h.asset_id), h.quantity]));
    for (const [id, q] of m) if (isZero(q)) m.delete(id);
    return m;
  }, [props.holdings]);
  const ids = [...quantities.keys()];
  const names = new Map(props.holdings.map((h) => [h.asset_id, h.asset_name]));
  const rows = useAsync(async (signal) => {
    if (ids.length === 0) return [];
    const now = today();
    const answer = await api.post("/assets/events/query", {
      signal, body: ids.map((id) => ({ asset_id: id, date_range: { start: addMonths(now, -24), end: addMonths(now, 12) } })),
    });
    const events = new Map<number, UpcomingEvent[]>(answer.items.map((i) => [i.asset_id, i.events.map((e) => ({ date: e.date, type: e.type, amount: e.value.amount, currency: e.value.code }))]));
    const foreign = [...new Set([...events.values()].flat().map((e) => e.currency))].filter((c) => c !== props.currency);
    const rates = new Map<string, string>();
    await Promise.all(foreign.map(async (code) => {
      const found = await api.post("/fx/currencies/convert", {
        signal, body: [{ from_amount: { code, amount: "1" }, to: props.currency, date_range: { start: daysAgo(14), end: now } }],
      }).then((r) => r.results, () => []);
      const latest = found.slice().sort((a, b) => a.conversion_date.localeCompare(b.conversion_date)).pop();
      if (latest) rates.set(code, latest.rate);
    }));
    return upcomingIncome({ today: now, quantities, events, rates, base: props.currency });
  }, [ids.join(","), props.currency]);
  const list = rows.data ?? [];
  const total = (status: string) => sum(list.filter((r) => r.status === status && r.baseAmount !== null).map((r) => r.baseAmount));
  return (
    <section class="card" aria-labelledby="h-income-upcoming">
      <h2 id="h-income-upcoming">{t("Upcoming income (next 12 months)")}</h2>
      <ErrorNote error={rows.error} />
      {rows.loading && !rows.data && <Loading label={t("Loading…")} />}
      {rows.data && list.length === 0 && <p class="muted">{t("No upcoming payments are known or projected.")}</p>}
      {list.length > 0 && (
        <>
          <p class="muted" data-testid="upcoming-totals">
            <span data-col="confirmed">{t("Confirmed: {amount}", { amount: privacy ? MASK : formatMoney(total("confirmed"), props.currency, locale) })}</span> · <span data-col="projected">{t("Projected: {amount}", { amount: privacy ? MASK : formatMoney(total("projected"), props.currency, locale) })}</span>
          </p>
          <div class="table-wrap">
            <table class="table compact" aria-label={t("Upcoming income")} data-testid="upcoming-income">
              <thead><tr><th scope="col">{t("Date")}</th><th scope="col">{t("Asset")}</th><th scope="col">{t("Status")}</th><th scope="col" class="num">{t("Per unit")}</th><th scope="col" class="num">{t("Quantity")}</th><th scope="col" class="num">{t("Amount")}</th></tr></thead>
              <tbody>{list.map((r) => (
                <tr key={`${r.assetId}-${r.date}-${r.status}-${r.type}`} data-testid={`upcoming-${r.assetId}-${r.date}`} data-status={r.status}>
                  <td>{formatDate(r.date, locale)}</td>
                  <th scope="row"><Link href={`/assets/${r.assetId}`}>{names.get(r.assetId) ?? r.assetId}</Link></th>
                  <td>{r.status === "confirmed" ? <Badge kind="ok">{t("confirmed")}</Badge> : <Badge kind="info">{t("projected")}</Badge>}</td>
                  <td class="num" data-col="per-unit">{formatDecimal(r.perUnit, locale)} {r.currency}</td>
                  <td class="num" data-col="quantity">{formatDecimal(r.quantity, locale)}</td>
                  <td class="num" data-col="amount">{r.baseAmount !== null ? <Money amount={r.baseAmount} currency={props.currency} /> : <><Money amount={r.amount} currency={r.currency} /> <span class="muted small">{t("(no rate)")}</span></>}</td>
                </tr>
              ))}</tbody>
            </table>
          </div>
          <p class="muted small">{t("Confirmed: announced events (their date is the ex-date) times the units held now. Projected: the same cadence and last amount per unit as the asset's past payments.")}</p>
        </>
      )}
    </section>
  );
}
