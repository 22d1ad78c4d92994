/**
 * Holdings: one row per asset across the chosen brokers (or per asset and broker), with the
 * report's figures (POST /portfolio/report: summary holdings and positions contribution since the
 * start) and the day's change (the same report over yesterday→today). Rows of one asset are summed
 * exactly (lib/exact.ts); a FIFO lot view per asset comes from POST /portfolio/lots/analysis.
 */
import { Fragment } from "preact";
import { useMemo, useState } from "preact/hooks";
import { api } from "../api/client.ts";
import { DataQualityPanel } from "../components/data-quality.tsx";
import { ErrorNote, Loading, Money, Page, Percent, Select, daysAgo } from "../components/ui.tsx";
import { assetTypeLabel } from "../lib/asset-types.ts";
import { cmp, isZero, percentOf, sum } from "../lib/exact.ts";
import { formatDate, formatDecimal, formatPercent, MASK } from "../lib/format.ts";
import { msg, t } from "../lib/i18n.ts";
import type { Contribution, Holding, ReportView } from "../api/types.ts";
import { Link } from "../lib/router.tsx";
import { localeOf, useApp } from "../lib/store.ts";
import { useAsync } from "../lib/use-async.ts";

/** One line of the table: a position (asset × broker) or an asset summed over its brokers. */
interface Row {
  key: string;
  assetId: number;
  assetName: string;
  assetType: string | null;
  brokerIds: number[];
  brokerNames: string[];
  quantity: string;
  price: string | null;
  priceDate: string | null;
  value: string | null;
  weight: string | null;
  cost: string | null;
  unrealised: string | null;
  unrealisedPercent: string | null;
  realised: string;
  income: string;
  dayChange: string | null;
  open: boolean;
}

type SortKey = "asset" | "quantity" | "value" | "weight" | "cost" | "unrealised" | "unrealisedPercent" | "realised" | "income" | "dayChange";

const COLUMNS: { key: SortKey; label: string; num: boolean; opt?: boolean }[] = [
  { key: "asset", label: msg("Asset"), num: false },
  { key: "quantity", label: msg("Quantity"), num: true, opt: true },
  { key: "value", label: msg("Market value"), num: true },
  { key: "weight", label: msg("Weight"), num: true, opt: true },
  { key: "cost", label: msg("Cost"), num: true, opt: true },
  { key: "unrealised", label: msg("Unrealised gain"), num: true },
  { key: "unrealisedPercent", label: msg("Unrealised %"), num: true },
  { key: "realised", label: msg("Realised gain"), num: true, opt: true },
  { key: "income", label: msg("Income"), num: true, opt: true },
  { key: "dayChange", label: msg("Day change"), num: true, opt: true },
];

const STATUS = { open: msg("Open"), closed: msg("Closed"), all: msg("All") } as const;

export function HoldingsPage() {
  const { prefs } = useApp();
  const locale = localeOf(prefs);
  const currency = prefs.base_currency || "EUR";
  const [selected, setSelected] = useState<number[]>([]);
  const [perBroker, setPerBroker] = useState(false);
  const [status, setStatus] = useState<keyof typeof STATUS>("open");
  const [type, setType] = useState("");
  const [sector, setSector] = useState("");
  const [geo, setGeo] = useState("");
  const [sort, setSort] = useState<{ key: SortKey; desc: boolean }>({ key: "value", desc: true });
  const [lotsOf, setLotsOf] = useState<string | null>(null);

  const brokers = useAsync((signal) => api.get("/brokers", { signal }), []);
  const scope = selected.length ? selected : null;
  const report = useAsync((signal) => api.post("/portfolio/report", {
    signal,
    body: {
      broker_ids: scope, target_currency: currency, include_summary: true, include_history: false,
      include_allocation_history: false, include_positions_contribution: true,
    },
  }), [scope?.join(","), currency]);
  // The day's change: the same scope from yesterday's close to today.
  const day = useAsync((signal) => api.post("/portfolio/report", {
    signal,
    body: {
      broker_ids: scope, target_currency: currency, date_range: { start: daysAgo(1), end: null }, include_summary: false,
      include_history: false, include_allocation_history: false, include_positions_contribution: true,
    },
  }), [scope?.join(","), currency]);
  const assetIds = useMemo(() => [...new Set((report.data?.positions_contribution?.positions ?? []).map((p) => p.asset_id))].sort((a, b) => a - b), [report.data]);
  const assets = useAsync(async (signal) => assetIds.length ? api.get("/assets", { query: { asset_ids: assetIds }, signal }) : [], [assetIds.join(",")]);

  const classOf = useMemo(() => {
    const m = new Map<number, { sectors: string[]; areas: string[] }>();
    for (const a of assets.data ?? []) {
      const c = a.classification_params;
      const keys = (d: { distribution: Record<string, string> } | null | undefined) => Object.entries(d?.distribution ?? {}).filter(([, w]) => !isZero(w)).map(([k]) => k);
      m.set(a.asset_id, { sectors: keys(c?.sector_area), areas: keys(c?.geographic_area) });
    }
    return m;
  }, [assets.data]);

  const rows = useMemo(() => buildRows(report.data, day.data, perBroker), [report.data, day.data, perBroker]);
  const options = useMemo(() => {
    const types = new Set<string>(), sectors = new Set<string>(), areas = new Set<string>();
    for (const r of rows) {
      if (r.assetType) types.add(r.assetType);
      const c = classOf.get(r.assetId);
      c?.sectors.forEach((s) => sectors.add(s));
      c?.areas.forEach((s) => areas.add(s));
    }
    const list = (s: Set<string>) => [...s].sort();
    return { types: list(types), sectors: list(sectors), areas: list(areas) };
  }, [rows, classOf]);

  const shown = useMemo(() => {
    const out = rows.filter((r) => (status === "all" || (status === "open") === r.open)
      && (!type || r.assetType === type)
      && (!sector || classOf.get(r.assetId)?.sectors.includes(sector))
      && (!geo || classOf.get(r.assetId)?.areas.includes(geo)));
    const by = (r: Row) => sort.key === "asset" ? null : r[sort.key];
    out.sort((a, b) => {
      const c = sort.key === "asset" ? a.assetName.localeCompare(b.assetName, locale) || cmp(a.brokerNames.join(), b.brokerNames.join()) : cmp(by(a), by(b));
      return sort.desc ? -c : c;
    });
    return out;
  }, [rows, status, type, sector, geo, sort, classOf, locale]);

  const totals = useMemo(() => ({
    value: sum(shown.map((r) => r.value)), cost: sum(shown.map((r) => r.open ? r.cost : null)),
    unrealised: sum(shown.map((r) => r.unrealised)), realised: sum(shown.map((r) => r.realised)),
    income: sum(shown.map((r) => r.income)), dayChange: sum(shown.map((r) => r.dayChange)), weight: sum(shown.map((r) => r.weight)),
  }), [shown]);

  const items = brokers.data?.items ?? [];
  const contribution = report.data?.positions_contribution;
  const cashIncome = sum((contribution?.unallocated ?? []).map((u) => u.unallocated_income));
  const s = report.data?.summary;
  const toggleSort = (key: SortKey) => setSort((cur) => ({ key, desc: cur.key === key ? !cur.desc : key !== "asset" }));

  return (
    <Page title={t("Holdings")}>
      <div class="toolbar" role="group" aria-label={t("Filters")}>
        {items.length > 1 && (
          <fieldset class="broker-filter">
            <legend>{t("Brokers")}</legend>
            {items.map((b) => (
              <label key={b.id} class="check">
                <input type="checkbox" checked={selected.length === 0 || selected.includes(b.id)}
                  onChange={() => setSelected((cur) => {
                    const base = cur.length ? cur : items.map((x) => x.id);
                    const next = base.includes(b.id) ? base.filter((x) => x !== b.id) : [...base, b.id];
                    return next.length === items.length ? [] : next;
                  })} /> {b.name}
              </label>
            ))}
          </fieldset>
        )}
        <div class="segmented" role="group" aria-label={t("Positions")}>
          {(Object.keys(STATUS) as (keyof typeof STATUS)[]).map((k) => (
            <button key={k} type="button" aria-pressed={status === k} class={status === k ? "on" : ""} onClick={() => setStatus(k)}>{t(STATUS[k])}</button>
          ))}
        </div>
        <label class="check"><input type="checkbox" checked={perBroker} onChange={() => setPerBroker(!perBroker)} /> {t("One row per broker")}</label>
        <FilterSelect label={t("Type")} value={type} onChange={setType} options={options.types.map((v) => ({ value: v, label: assetTypeLabel(v) }))} />
        <FilterSelect label={t("Sector")} value={sector} onChange={setSector} options={options.sectors.map((v) => ({ value: v, label: v }))} />
        <FilterSelect label={t("Geography")} value={geo} onChange={setGeo} options={options.areas.map((v) => ({ value: v, label: v }))} />
      </div>
      <ErrorNote error={report.error} title={t("The report could not be computed.")} />
      <ErrorNote error={day.error} title={t("The day's change could not be computed.")} />
      {report.loading && !report.data && <Loading label={t("Computing the portfolio…")} />}
      {report.data && (
        <>
          <p class="muted">
            {t("Figures in {currency} on {date}; realised gains and income since the first transaction (average cost).", {
              currency, date: formatDate(report.data.metadata.computed_date_to, locale),
            })}
          </p>
          {shown.length === 0 ? <p class="muted">{t("No positions match these filters.")}</p> : (
            <div class="table-wrap positioned">
              <table class="table compact holdings" aria-label={t("Holdings")}>
                <thead>
                  <tr>
                    {COLUMNS.map((c) => (
                      <th key={c.key} scope="col" class={`${c.num ? "num" : ""} ${c.opt ? "opt" : ""}`}
                        aria-sort={sort.key === c.key ? (sort.desc ? "descending" : "ascending") : undefined}>
                        <button type="button" class="sort" onClick={() => toggleSort(c.key)}>
                          {t(c.label)}{sort.key === c.key ? (sort.desc ? " ▼" : " ▲") : ""}
                        </button>
                      </th>
                    ))}
                    <th scope="col" class="opt">{t("Price")}</th>
                    <th scope="col"><span class="sr-only">{t("Lots")}</span></th>
                  </tr>
                </thead>
                <tbody>
                  {shown.map((r) => (
                    <Fragment key={r.key}>
                      <tr data-testid={`holding-${r.key}`} class={r.open ? "" : "closed"}>
                        <th scope="row">
                          <Link href={`/assets/${r.assetId}`}>{r.assetName}</Link>
                          <div class="muted small">
                            {r.assetType ? assetTypeLabel(r.assetType) : ""}{r.brokerNames.length ? ` · ${r.brokerNames.join(", ")}` : ""}
                            {!r.open && ` · ${t("closed")}`}
                          </div>
                        </th>
                        <td class="num opt" data-col="quantity"><Qty value={r.quantity} /></td>
                        <td class="num" data-col="value"><Money amount={r.value} currency={currency} /></td>
                        <td class="num opt" data-col="weight">{formatPercent(r.weight, locale)}</td>
                        <td class="num opt" data-col="cost"><Money amount={r.cost} currency={currency} /></td>
                        <td class="num" data-col="unrealised"><Money amount={r.unrealised} currency={currency} signed /></td>
                        <td class="num" data-col="unrealisedPercent"><Percent value={r.unrealisedPercent} /></td>
                        <td class="num opt" data-col="realised"><Money amount={r.realised} currency={currency} signed /></td>
                        <td class="num opt" data-col="income"><Money amount={r.income} currency={currency} /></td>
                        <td class="num opt" data-col="dayChange"><Money amount={r.dayChange} currency={currency} signed /></td>
                        <td class="num opt" data-col="price">
                          <Money amount={r.price} currency={currency} />
                          {r.priceDate && <div class="muted small">{formatDate(r.priceDate, locale)}</div>}
                        </td>
                        <td>
                          <button type="button" class="ghost" aria-expanded={lotsOf === r.key}
                            aria-label={t("FIFO lots of {name}", { name: r.assetName })}
                            onClick={() => setLotsOf(lotsOf === r.key ? null : r.key)}>{t("Lots")}</button>
                        </td>
                      </tr>
                      {lotsOf === r.key && (
                        <tr class="lots-row"><td colSpan={COLUMNS.length + 2}>
                          <Lots assetId={r.assetId} assetName={r.assetName} brokerIds={perBroker ? r.brokerIds : scope} currency={currency} />
                        </td></tr>
                      )}
                    </Fragment>
                  ))}
                </tbody>
                <tfoot>
                  <tr data-testid="holdings-total">
                    <th scope="row">{t("Total")}</th>
                    <td class="opt" />
                    <td class="num" data-col="value"><Money amount={totals.value} currency={currency} /></td>
                    <td class="num opt" data-col="weight">{formatPercent(totals.weight, locale)}</td>
                    <td class="num opt" data-col="cost"><Money amount={totals.cost} currency={currency} /></td>
                    <td class="num" data-col="unrealised"><Money amount={totals.unrealised} currency={currency} signed /></td>
                    <td class="num"><Percent value={percentOf(totals.unrealised, totals.cost)} /></td>
                    <td class="num opt" data-col="realised"><Money amount={totals.realised} currency={currency} signed /></td>
                    <td class="num opt" data-col="income"><Money amount={totals.income} currency={currency} /></td>
                    <td class="num opt" data-col="dayChange"><Money amount={totals.dayChange} currency={currency} signed /></td>
                    <td class="opt" /><td />
                  </tr>
                </tfoot>
              </table>
            </div>
          )}
          {s && (
            <dl class="kv holdings-summary">
              <div><dt>{t("Cash")}</dt><dd data-testid="holdings-cash"><Money amount={s.cash_total.amount} currency={currency} /></dd></div>
              {!isZero(cashIncome) && <div><dt>{t("Income not tied to an asset (interest on cash)")}</dt><dd data-testid="holdings-cash-income"><Money amount={cashIncome} currency={currency} /></dd></div>}
              <div><dt>{t("Net worth")}</dt><dd><Money amount={s.net_worth.amount} currency={currency} /></dd></div>
            </dl>
          )}
          {s && s.data_quality.issues.length > 0 && <DataQualityPanel issues={s.data_quality.issues} onFixed={report.reload} />}
        </>
      )}
    </Page>
  );
}

function FilterSelect(props: { label: string; value: string; onChange(v: string): void; options: { value: string; label: string }[] }) {
  if (props.options.length === 0) return null;
  return (
    <label class="field">
      <span>{props.label}</span>
      <Select value={props.value} placeholder={t("All")} options={props.options} onChange={props.onChange} />
    </label>
  );
}

function Qty(props: { value: string | null }) {
  const { prefs, privacy } = useApp();
  return <>{privacy ? MASK : formatDecimal(props.value, localeOf(prefs), { maxPlaces: 8 })}</>;
}

/** Report rows → table rows: positions (open from the holdings, closed from the contribution), summed per asset unless per broker. */
function buildRows(report: ReportView | undefined, day: ReportView | undefined, perBroker: boolean): Row[] {
  if (!report) return [];
  const holdings = new Map<string, Holding>((report.summary?.holdings ?? []).map((h) => [`${h.asset_id}/${h.broker_id}`, h]));
  const dayOf = new Map((day?.positions_contribution?.positions ?? []).map((p) => [`${p.asset_id}/${p.broker_id}`, p.period_pnl]));
  const positions = new Map<string, { c: Contribution | null; h: Holding | null }>();
  for (const c of report.positions_contribution?.positions ?? []) positions.set(`${c.asset_id}/${c.broker_id}`, { c, h: holdings.get(`${c.asset_id}/${c.broker_id}`) ?? null });
  for (const [k, h] of holdings) if (!positions.has(k)) positions.set(k, { c: null, h });
  const single: Row[] = [...positions.entries()].map(([key, { c, h }]) => ({
    key,
    assetId: (h ?? c)!.asset_id,
    assetName: (h ?? c)!.asset_name,
    assetType: (h ?? c)!.asset_type,
    brokerIds: [(h ?? c)!.broker_id],
    brokerNames: [(h ?? c)!.broker_name ?? ""],
    quantity: h?.quantity ?? "0",
    price: h?.current_price ?? null,
    priceDate: h?.valuation_reference_date ?? null,
    value: h ? h.current_value : null,
    weight: h?.nav_weight_percent ?? null,
    cost: h?.open_cost_basis ?? null,
    unrealised: h?.gain_loss ?? null,
    unrealisedPercent: h?.gain_loss_percent ?? null,
    realised: c?.period_realized_gain_loss ?? "0",
    income: c?.period_income ?? "0",
    dayChange: dayOf.get(key) ?? null,
    open: h !== null,
  }));
  if (perBroker) return single;
  const byAsset = new Map<number, Row[]>();
  for (const r of single) byAsset.set(r.assetId, [...(byAsset.get(r.assetId) ?? []), r]);
  return [...byAsset.entries()].map(([assetId, rs]) => {
    if (rs.length === 1) return { ...rs[0]!, key: String(assetId) };
    const open = rs.filter((r) => r.open);
    const priced = open.find((r) => r.price !== null);
    const cost = open.some((r) => r.cost === null) ? null : sum(open.map((r) => r.cost));
    const unrealised = open.some((r) => r.unrealised === null) ? null : sum(open.map((r) => r.unrealised));
    return {
      key: String(assetId),
      assetId,
      assetName: rs[0]!.assetName,
      assetType: rs[0]!.assetType,
      brokerIds: rs.flatMap((r) => r.brokerIds),
      brokerNames: rs.flatMap((r) => r.brokerNames),
      quantity: sum(open.map((r) => r.quantity)),
      price: priced?.price ?? null,
      priceDate: priced?.priceDate ?? null,
      value: open.length ? sum(open.map((r) => r.value)) : null,
      weight: open.length ? sum(open.map((r) => r.weight)) : null,
      cost: open.length ? cost : null,
      unrealised: open.length ? unrealised : null,
      unrealisedPercent: open.length ? percentOf(unrealised, cost) : null,
      realised: sum(rs.map((r) => r.realised)),
      income: sum(rs.map((r) => r.income)),
      dayChange: rs.every((r) => r.dayChange === null) ? null : sum(rs.map((r) => r.dayChange)),
      open: open.length > 0,
    };
  });
}

/** The FIFO lots of one asset in the page's scope: dates, quantities, cost and result per lot. */
function Lots(props: { assetId: number; assetName: string; brokerIds: number[] | null; currency: string }) {
  const { prefs } = useApp();
  const locale = localeOf(prefs);
  const lots = useAsync((signal) => api.post("/portfolio/lots/analysis", {
    signal,
    body: {
      asset_id: props.assetId, ...(props.brokerIds ? { broker_ids: props.brokerIds } : {}), target_currency: props.currency,
      requested_analyses: ["LOT_SUMMARY"],
    },
  }), [props.assetId, props.brokerIds?.join(",")]);
  const list = lots.data?.lots ?? [];
  return (
    <section aria-label={t("FIFO lots of {name}", { name: props.assetName })} class="lots">
      <h3>{t("FIFO lots of {name}", { name: props.assetName })}</h3>
      <ErrorNote error={lots.error} />
      {lots.loading && !lots.data && <Loading />}
      {lots.data && (list.length === 0 ? <p class="muted">{t("No lots in this period.")}</p> : (
        <div class="table-wrap">
          <table class="table compact">
            <thead>
              <tr>
                <th scope="col">{t("Opened")}</th><th scope="col">{t("Closed")}</th><th scope="col" class="num">{t("Original quantity")}</th>
                <th scope="col" class="num">{t("Open quantity")}</th><th scope="col" class="num">{t("Unit cost")}</th>
                <th scope="col" class="num">{t("Cost")}</th><th scope="col" class="num">{t("Open value")}</th>
                <th scope="col" class="num">{t("Realised P&L")}</th><th scope="col" class="num">{t("Income")}</th>
              </tr>
            </thead>
            <tbody>
              {list.map((l) => (
                <tr key={l.lot_id} data-testid={`lot-${l.lot_id}`}>
                  <td>{formatDate(l.opening_date, locale)}{l.direction === "SHORT" ? ` (${t("short")})` : ""}</td>
                  <td>{l.closing_date ? formatDate(l.closing_date, locale) : "—"}</td>
                  <td class="num"><Qty value={l.original_quantity} /></td>
                  <td class="num"><Qty value={l.open_quantity} /></td>
                  <td class="num"><Money amount={l.opening_unit_price} currency={l.currency} /></td>
                  <td class="num"><Money amount={l.original_cost} currency={l.currency} /></td>
                  <td class="num"><Money amount={l.open_value} currency={l.currency} /></td>
                  <td class="num"><Money amount={l.realized_pnl} currency={l.currency} signed /></td>
                  <td class="num"><Money amount={l.asset_income} currency={l.currency} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
    </section>
  );
}
