/** One asset: details and classification, price chart, price editor, events, price source, market-data wipe. */
import { useMemo, useState } from "preact/hooks";
import { api, ApiError, errorText } from "../api/client.ts";
import { type ChartSeries, TimeChart } from "../components/chart.tsx";
import { alignToDates, crossovers, FAST, OVERLAYS, type OverlayId, SLOW, signalsFor } from "../lib/signals.ts";
import { Badge, ErrorNote, Field, Loading, Page, Select, daysAgo, today } from "../components/ui.tsx";
import { localeSeparators, readDecimal, toChartNumber, toInputText } from "../lib/decimal.ts";
import { formatDate, formatDecimal, formatMoney } from "../lib/format.ts";
import { identifierTypeLabel, runStatusLabel } from "../lib/labels.ts";
import { useProviderNames } from "../lib/provider-names.ts";
import { navigate, useLocation } from "../lib/router.tsx";
import { localeOf, useApp } from "../lib/store.ts";
import { useAsync } from "../lib/use-async.ts";
import { ProviderSearch } from "./assets.tsx";
import { assetTypeOptions } from "../lib/asset-types.ts";
import { msg, t } from "../lib/i18n.ts";

const TABS = [["overview", msg("Overview")], ["prices", msg("Prices")], ["events", msg("Events")], ["source", msg("Price source")]] as const;

export function AssetPage(props: { id: string }) {
  const id = Number(props.id);
  const loc = useLocation();
  const { me } = useApp();
  const tab = (loc.query.get("tab") ?? "overview") as (typeof TABS)[number][0];
  const asset = useAsync(async (signal) => (await api.get("/assets", { query: { asset_ids: [id] }, signal }))[0] ?? null, [id]);
  if (asset.error) return <Page title={t("Asset")}><ErrorNote error={asset.error} /></Page>;
  if (!asset.data) return <Page title={t("Asset")}>{asset.loading ? <Loading /> : <p>{t("This asset does not exist.")}</p>}</Page>;
  const a = asset.data;
  // Assets and their market data are shared: only the keeper (its creator) and administrators change
  // them (docs/assets.md), so others get no form or button that would be refused.
  const mayChange = me.is_superuser || (a.keeper_user_id !== null && a.keeper_user_id === me.id);
  return (
    <Page title={a.name} actions={<>{!a.active && <Badge kind="warning">{t("archived")}</Badge>}<Badge>{a.currency}</Badge></>}>
      {!a.active && <p class="note warning">{t("This asset is archived.")}</p>}
      {!mayChange && <p class="note" role="note">{a.keeper_user_id === null
        ? t("This asset and its market data (prices, events, price source) are shared by every user; only an administrator can change them. You can use it in your transactions and sync its prices.")
        : t("This asset and its market data (prices, events, price source) are shared by every user; only its keeper (the user who created it) or an administrator can change them. You can use it in your transactions and sync its prices.")}</p>}
      <div class="segmented" role="group" aria-label={t("Asset sections")}>
        {TABS.map(([k, label]) => (
          <button key={k} type="button" aria-pressed={tab === k} class={tab === k ? "on" : ""}
            onClick={() => navigate(`/assets/${id}?tab=${k}`, { replace: true })}>{t(label)}</button>
        ))}
      </div>
      {tab === "overview" && <Overview asset={a} onSaved={asset.reload} mayChange={mayChange} />}
      {tab === "prices" && <Prices assetId={id} currency={a.currency} mayChange={mayChange} />}
      {tab === "events" && <Events assetId={id} currency={a.currency} mayChange={mayChange} />}
      {tab === "source" && <Source assetId={id} mayChange={mayChange} />}
    </Page>
  );
}

type AssetRow = NonNullable<Awaited<ReturnType<typeof api.get<"/assets">>>[number]>;

function Overview(props: { asset: AssetRow; onSaved(): void; mayChange: boolean }) {
  const a = props.asset;
  const [name, setName] = useState(a.name);
  const [type, setType] = useState<string>(a.asset_type ?? "");
  const [active, setActive] = useState(a.active);
  const locale = localeOf(useApp().prefs);
  const providerName = useProviderNames("asset");
  // Weights are written with the locale's decimal mark; where that is a comma, parts are joined by "; ".
  const joiner = localeSeparators(locale).decimal === "," ? "; " : ", ";
  const showDist = (d: Record<string, unknown> | undefined) => Object.entries(d ?? {}).map(([k, v]) => `${k}=${toInputText(String(v), locale)}`).join(joiner);
  const [sector, setSector] = useState(showDist(a.classification_params?.sector_area?.distribution));
  const [geo, setGeo] = useState(showDist(a.classification_params?.geographic_area?.distribution));
  const [msg, setMsg] = useState<{ ok: boolean; text: string } | null>(null);
  const parseDist = (s: string) => {
    const out: Record<string, string> = {};
    // Parts end at ";" or at a comma that no digit follows ("Tech=0,5, Health=0,5").
    for (const part of s.split(/;|,(?!\d)/).map((x) => x.trim()).filter(Boolean)) {
      const [k, v] = part.split("=").map((x) => x.trim());
      const w = v ? readDecimal(v, locale) : null;
      if (w && !w.ok && w.reason === "ambiguous") throw new Error(w.message);
      if (!k || !w?.ok) throw new Error(t("\"{part}\" is not NAME=WEIGHT", { part }));
      out[k] = w.value;
    }
    return Object.keys(out).length ? { distribution: out } : null;
  };
  const save = async (e: Event) => {
    e.preventDefault();
    try {
      const r = await api.patch("/assets", { body: [{
        asset_id: a.asset_id, name, asset_type: (type || null) as "STOCK" | null, active,
        classification_params: { short_description: a.classification_params?.short_description ?? null, sector_area: parseDist(sector), geographic_area: parseDist(geo) },
      }] });
      const res = r.results[0];
      if (!res?.success) throw new Error(res?.message ?? t("Not saved"));
      setMsg({ ok: true, text: t("Saved.") });
      props.onSaved();
    } catch (err) { setMsg({ ok: false, text: errorText(err) }); }
  };
  const wipe = async () => {
    try {
      const s = await api.get("/assets/{id}/market-data/summary", { path: { id: a.asset_id } });
      const question = t("Delete {prices} price(s) and {events} event(s) ({manual} entered by hand) of this asset? {linked} transaction(s) linked to its events will be unlinked. This cannot be undone.",
        { prices: s.price_count, events: s.event_count, manual: s.manual_event_count, linked: s.linked_transaction_count });
      if (!confirm(question)) return;
      await api.post("/assets/{asset_id}/market-data/wipe", { path: { asset_id: a.asset_id } });
      setMsg({ ok: true, text: t("Market data deleted.") });
    } catch (err) { setMsg({ ok: false, text: errorText(err) }); }
  };
  return (
    <form class="form card" onSubmit={save}>
      <fieldset class="plain" disabled={!props.mayChange}>
      <Field label={t("Name")}>{(id) => <input id={id} required value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />}</Field>
      <div class="row">
        <Field label={t("Type")}>{(id) => <Select id={id} value={type} placeholder="—" options={assetTypeOptions()} onChange={setType} />}</Field>
        <label class="check"><input type="checkbox" checked={active} onChange={(e) => setActive((e.target as HTMLInputElement).checked)} /> {t("Active")}</label>
      </div>
      <Field label={t("Sectors")} hint={t("NAME=WEIGHT, comma separated, e.g. Technology=0.6, Health Care=0.4")}>{(id) => <input id={id} value={sector} onInput={(e) => setSector((e.target as HTMLInputElement).value)} />}</Field>
      <Field label={t("Geography")} hint={t("Country or region=WEIGHT, e.g. USA=0.7, DEU=0.3")}>{(id) => <input id={id} value={geo} onInput={(e) => setGeo((e.target as HTMLInputElement).value)} />}</Field>
      <p class="muted">{t("Ticker")}: {a.identifier_ticker ?? "—"} · ISIN: {a.identifier_isin ?? "—"} · {t("Price source")}: {a.provider_code ? providerName(a.provider_code) : t("manual")}</p>
      {msg && <p class={`note ${msg.ok ? "" : "error"}`} role={msg.ok ? "status" : "alert"}>{msg.text}</p>}
      </fieldset>
      {props.mayChange && (
        <div class="form-actions">
          <button type="button" class="danger" onClick={wipe}>{t("Delete market data…")}</button>
          <button type="submit" class="primary">{t("Save")}</button>
        </div>
      )}
    </form>
  );
}

function Prices(props: { assetId: number; currency: string; mayChange: boolean }) {
  const { prefs, privacy } = useApp();
  const locale = localeOf(prefs);
  const [start, setStart] = useState(daysAgo(365 * 10));
  const [overlays, setOverlays] = useState<ReadonlySet<OverlayId>>(new Set());
  const wanted = signalsFor(overlays);
  const query = useAsync(async (signal) => {
    const item = (await api.post("/assets/prices/query", {
      signal, body: [{ asset_id: props.assetId, date_range: { start, end: today() }, include_prices: true, include_events: false, ...(wanted.length ? { signals: wanted } : {}) }],
    })).items[0];
    return { prices: item?.prices ?? [], signals: item?.signals ?? [] };
  }, [props.assetId, start, wanted.map((s) => s.instance_id).join(",")]);
  const prices = { ...query, data: query.data?.prices };
  const toggle = (id: OverlayId) => setOverlays((cur) => {
    const next = new Set(cur);
    if (next.has(id)) next.delete(id); else next.add(id);
    return next;
  });
  const [date, setDate] = useState(today());
  const [close, setClose] = useState("");
  const [error, setError] = useState<string | null>(null);
  const chart = useMemo(() => {
    const rows = query.data?.prices ?? [];
    const dates = rows.map((p) => p.date);
    const close = rows.map((p) => toChartNumber(p.close));
    const series: ChartSeries[] = [{ label: t("Closing price"), color: "var(--chart-1)", values: close }];
    const line = (id: string, output = "value") => alignToDates(dates, query.data?.signals.find((s) => s.instance_id === id && s.status === "ok")?.outputs[output]);
    const failed = (query.data?.signals ?? []).filter((s) => s.status === "failed");
    const both = overlays.has("crossovers");
    if (both || overlays.has("sma_fast")) series.push({ label: t("SMA {n}", { n: FAST }), color: "var(--chart-2)", values: line("sma_fast") });
    if (both || overlays.has("sma_slow")) series.push({ label: t("SMA {n}", { n: SLOW }), color: "var(--chart-3)", values: line("sma_slow") });
    if (overlays.has("bollinger")) {
      series.push({ label: t("Bollinger upper"), color: "var(--chart-4)", dash: true, values: line("bollinger", "upper") });
      series.push({ label: t("Bollinger middle"), color: "var(--chart-4)", values: line("bollinger", "middle") });
      series.push({ label: t("Bollinger lower"), color: "var(--chart-4)", dash: true, values: line("bollinger", "lower") });
    }
    const crossings = overlays.has("crossovers") ? crossovers(dates, line("sma_fast"), line("sma_slow")) : [];
    if (overlays.has("crossovers")) {
      const up = new Map(crossings.filter((c) => c.direction === "up").map((c) => [c.index, true]));
      const down = new Map(crossings.filter((c) => c.direction === "down").map((c) => [c.index, true]));
      // The markers sit where the lines meet: on the fast average on the crossing day.
      const fast = line("sma_fast");
      series.push({ label: t("Crosses above"), color: "var(--pos)", markers: true, values: fast.map((v, i) => up.has(i) ? v : null) });
      series.push({ label: t("Crosses below"), color: "var(--neg)", markers: true, values: fast.map((v, i) => down.has(i) ? v : null) });
    }
    // The averages of the latest answer (a toggle refetches; until then the old answer lacks them).
    const averagesIn = ["sma_fast", "sma_slow"].every((id) => query.data?.signals.some((s) => s.instance_id === id && s.status === "ok"));
    return { dates, series, crossings, failed, averagesIn };
  }, [query.data, overlays, prefs.language]);
  const fmt = useMemo(() => (v: number) => formatDecimal(String(v), locale, { maxPlaces: 2 }), [locale]);
  const add = async (e: Event) => {
    e.preventDefault();
    setError(null);
    const price = readDecimal(close, locale);
    if (!price.ok && price.reason === "ambiguous") { setError(price.message); return; }
    if (!price.ok || price.value.startsWith("-")) { setError(t("The price must be a positive number such as {example}.", { example: toInputText("12.34", locale) })); return; }
    try {
      const r = await api.post("/assets/prices", { body: [{ asset_id: props.assetId, prices: [{ date, close: price.value }] }] });
      if (r.errors.length) throw new Error(r.errors.join("; "));
      setClose("");
      prices.reload();
    } catch (err) { setError(err instanceof ApiError && err.code === "PRICE_CURRENCY_MISMATCH" ? t("The price must be in the asset's currency.") : errorText(err)); }
  };
  const remove = async (d: string) => {
    try { await api.delete("/assets/prices", { body: [{ asset_id: props.assetId, date_ranges: [{ start: d, end: d }] }] }); prices.reload(); }
    catch (err) { setError(errorText(err)); }
  };
  const rows = (prices.data ?? []).slice().reverse();
  return (
    <div class="grid-2">
      <section class="card wide" aria-labelledby="h-pc">
        <h2 id="h-pc">{t("Price history")}</h2>
        <label class="check">{t("From")} <input type="date" aria-label={t("Chart from")} value={start} onChange={(e) => setStart((e.target as HTMLInputElement).value)} /></label>
        <fieldset class="overlays">
          <legend>{t("Signals on the chart")}</legend>
          {OVERLAYS.map((o) => (
            <label key={o.id} class="check"><input type="checkbox" checked={overlays.has(o.id)} onChange={() => toggle(o.id)} /> {t(o.label)}</label>
          ))}
        </fieldset>
        <TimeChart title={t("Price history")} dates={chart.dates} series={chart.series} format={fmt} />
        {chart.failed.map((s) => <p key={s.instance_id} class="note error" role="alert">{s.signal_code}: {s.error?.message ?? t("failed")}</p>)}
        {overlays.has("crossovers") && chart.averagesIn && (chart.crossings.length === 0
          ? <p class="muted" role="status">{t("The {fast}-day average does not cross the {slow}-day average in this period.", { fast: FAST, slow: SLOW })}</p>
          : (
            <ul class="crossings" aria-label={t("Crossovers")}>
              {chart.crossings.slice().reverse().map((c) => (
                <li key={c.date}>{c.direction === "up" ? "▲ " : "▼ "}{formatDate(c.date, locale)}: {c.direction === "up"
                  ? t("the {fast}-day average crosses above the {slow}-day average", { fast: FAST, slow: SLOW })
                  : t("the {fast}-day average crosses below the {slow}-day average", { fast: FAST, slow: SLOW })}</li>
              ))}
            </ul>
          ))}
      </section>
      {props.mayChange && <section class="card" aria-labelledby="h-pe" id="price-editor">
        <h2 id="h-pe">{t("Add or change a price")}</h2>
        <form class="form" onSubmit={add}>
          <div class="row">
            <Field label={t("Date")}>{(id) => <input id={id} type="date" required value={date} max={today()} onInput={(e) => setDate((e.target as HTMLInputElement).value)} />}</Field>
            <Field label={t("Close ({currency})", { currency: props.currency })}>{(id) => <input id={id} inputMode="decimal" required value={close} onInput={(e) => setClose((e.target as HTMLInputElement).value)} />}</Field>
          </div>
          {error && <p class="note error" role="alert">{error}</p>}
          <button type="submit" class="primary">{t("Save price")}</button>
        </form>
      </section>}
      <section class="card" aria-labelledby="h-pl">
        <h2 id="h-pl">{t("Stored prices")}</h2>
        <ErrorNote error={prices.error} />
        {rows.length === 0 ? <p class="muted">{t("No price stored.")}</p> : (
          <div class="table-wrap scroll-y"><table class="table compact">
            <thead><tr><th scope="col">{t("Date")}</th><th scope="col" class="num">{t("Closing price")}</th><th scope="col">{t("Source")}</th>{props.mayChange && <th scope="col"><span class="sr-only">{t("Actions")}</span></th>}</tr></thead>
            <tbody>{rows.slice(0, 200).map((p) => (
              <tr key={p.date}>
                <td>{formatDate(p.date, locale)}</td>
                <td class="num">{privacy ? "•••" : formatMoney(p.close, p.currency, locale)}</td>
                <td>{p.source_plugin_key}</td>
                {props.mayChange && <td><button type="button" class="ghost" onClick={() => remove(p.date)} aria-label={t("Delete the price of {date}", { date: formatDate(p.date, locale) })}>{t("Delete")}</button></td>}
              </tr>
            ))}</tbody>
          </table></div>
        )}
      </section>
    </div>
  );
}

const EVENT_TYPES = ["DIVIDEND", "INTEREST", "PRICE_ADJUSTMENT", "SPLIT", "MATURITY_SETTLEMENT"] as const;
/** Event types (docs/events.md) as names in the interface language; the code stays what the API receives. */
const EVENT_LABELS: Record<string, string> = {
  DIVIDEND: msg("Dividend"), INTEREST: msg("Interest"), PRICE_ADJUSTMENT: msg("Price adjustment"), SPLIT: msg("Split"), MATURITY_SETTLEMENT: msg("Maturity settlement"),
};
const eventTypeLabel = (type: string) => (EVENT_LABELS[type] ? t(EVENT_LABELS[type]) : type);

function Events(props: { assetId: number; currency: string; mayChange: boolean }) {
  const { prefs } = useApp();
  const locale = localeOf(prefs);
  const events = useAsync(async (signal) => (await api.post("/assets/events/query", {
    signal, body: [{ asset_id: props.assetId, date_range: { start: "1900-01-01", end: today() } }],
  })).items[0]?.events ?? [], [props.assetId]);
  const [editing, setEditing] = useState<number | null>(null);
  const [date, setDate] = useState(today());
  const [type, setType] = useState<string>("DIVIDEND");
  const [value, setValue] = useState("");
  const [notes, setNotes] = useState("");
  const [error, setError] = useState<string | null>(null);
  const reset = () => { setEditing(null); setDate(today()); setType("DIVIDEND"); setValue(""); setNotes(""); };
  const save = async (e: Event) => {
    e.preventDefault();
    setError(null);
    const amount = readDecimal(value, locale);
    if (!amount.ok) { setError(amount.reason === "ambiguous" ? amount.message : t("The value must be a number.")); return; }
    try {
      const event = { date, type: type as "DIVIDEND", value: { code: props.currency, amount: amount.value }, notes: notes.trim() || null, ...(editing ? { id: editing } : {}) };
      const r = await api.post("/assets/events", { body: [{ asset_id: props.assetId, events: [event] }] });
      if (r.errors.length) throw new Error(r.errors.join("; "));
      reset(); events.reload();
    } catch (err) { setError(errorText(err)); }
  };
  const remove = async (id: number) => {
    try { await api.delete("/assets/events", { query: { ids: [id] } }); events.reload(); }
    catch (err) { setError(errorText(err)); }
  };
  return (
    <div class="grid-2">
      <section class="card wide">
        <h2>{t("Events")}</h2>
        <ErrorNote error={events.error} />
        {(events.data ?? []).length === 0 ? <p class="muted">{t("No events.")}</p> : (
          <div class="table-wrap"><table class="table compact">
            <thead><tr><th scope="col">{t("Date")}</th><th scope="col">{t("Type")}</th><th scope="col" class="num">{t("Value")}</th><th scope="col">{t("Source")}</th><th scope="col">{t("Notes")}</th><th scope="col"><span class="sr-only">{t("Actions")}</span></th></tr></thead>
            <tbody>{events.data!.map((ev) => (
              <tr key={ev.id}>
                <td>{formatDate(ev.date, locale)}</td><td>{eventTypeLabel(ev.type)}</td>
                <td class="num">{formatMoney(ev.value.amount, ev.value.code, locale)}</td>
                <td>{ev.is_auto ? t("provider (read-only)") : t("manual")}</td><td>{ev.notes ?? ""}</td>
                <td>{!ev.is_auto && props.mayChange && (
                  <span class="row-actions">
                    <button type="button" class="ghost" aria-label={t("Edit the event of {date}", { date: formatDate(ev.date, locale) })} onClick={() => {
                      setEditing(ev.id); setDate(ev.date); setType(ev.type); setValue(toInputText(ev.value.amount, locale)); setNotes(ev.notes ?? "");
                    }}>{t("Edit")}</button>
                    <button type="button" class="ghost" aria-label={t("Delete the event of {date}", { date: formatDate(ev.date, locale) })} onClick={() => remove(ev.id)}>{t("Delete")}</button>
                  </span>
                )}</td>
              </tr>
            ))}</tbody>
          </table></div>
        )}
      </section>
      {props.mayChange && <section class="card">
        <h2>{editing ? t("Edit the manual event") : t("Add a manual event")}</h2>
        <form class="form" onSubmit={save}>
          <Field label={t("Date")}>{(id) => <input id={id} type="date" required value={date} onInput={(e) => setDate((e.target as HTMLInputElement).value)} />}</Field>
          <Field label={t("Type")}>{(id) => <Select id={id} value={type} options={EVENT_TYPES.map((x) => ({ value: x, label: eventTypeLabel(x) }))} onChange={setType} />}</Field>
          <Field label={t("Value ({currency})", { currency: props.currency })}>{(id) => <input id={id} inputMode="decimal" required value={value} onInput={(e) => setValue((e.target as HTMLInputElement).value)} />}</Field>
          <Field label={t("Notes")}>{(id) => <input id={id} maxLength={500} value={notes} onInput={(e) => setNotes((e.target as HTMLInputElement).value)} />}</Field>
          {error && <p class="note error" role="alert">{error}</p>}
          <div class="form-actions">
            {editing && <button type="button" onClick={reset}>{t("Cancel")}</button>}
            <button type="submit" class="primary">{editing ? t("Save event") : t("Add event")}</button>
          </div>
        </form>
      </section>}
    </div>
  );
}

function Source(props: { assetId: number; mayChange: boolean }) {
  const assignment = useAsync(async (signal) => (await api.get("/assets/provider/assignments", { query: { asset_ids: [props.assetId] }, signal }))[0] ?? null, [props.assetId]);
  const [msg, setMsg] = useState<{ ok: boolean; text: string } | null>(null);
  const providerName = useProviderNames("asset");
  const assign = async (r: { provider_code: string; identifier: string; identifier_type: string | null }) => {
    try {
      const res = await api.post("/assets/provider", { body: [{ asset_id: props.assetId, provider_code: r.provider_code, identifier: r.identifier, identifier_type: (r.identifier_type ?? "TICKER") as "TICKER" }] });
      const first = res.results[0];
      if (!first?.success) throw new Error(first?.message ?? t("Not assigned"));
      setMsg({ ok: true, text: t("Prices now come from {provider}.", { provider: providerName(r.provider_code) }) });
      assignment.reload();
    } catch (err) { setMsg({ ok: false, text: errorText(err) }); }
  };
  const sync = async () => {
    try {
      const r = await api.post("/assets/prices/sync", { body: [{ asset_id: props.assetId, date_range: { start: "resume" } }] });
      setMsg({ ok: true, text: t("Synced: {results}", { results: r.results.map((x) => `${runStatusLabel(x.status)}, ${t("{count} change(s)", { count: x.points_changed })}${x.message ? ` — ${x.message}` : ""}`).join("; ") }) });
    } catch (err) { setMsg({ ok: false, text: errorText(err) }); }
  };
  const unassign = async () => {
    try { await api.delete("/assets/provider", { query: { asset_ids: [props.assetId] } as never }); assignment.reload(); }
    catch (err) { setMsg({ ok: false, text: errorText(err) }); }
  };
  return (
    <div class="grid-2">
      <section class="card">
        <h2>{t("Current source")}</h2>
        {assignment.data ? (
          <>
            <p>{providerName(assignment.data.provider_code)}: {assignment.data.identifier} ({identifierTypeLabel(assignment.data.identifier_type)})</p>
            <p class="muted">{t("Last fetch: {when}", { when: assignment.data.last_fetch_at ?? t("never") })}</p>
            <div class="form-actions">{props.mayChange && <button type="button" onClick={unassign}>{t("Remove")}</button>}<button type="button" class="primary" onClick={sync}>{t("Sync prices now")}</button></div>
          </>
        ) : <p class="muted">{t("Prices are entered by hand.")}</p>}
        {msg && <p class={`note ${msg.ok ? "" : "error"}`} role={msg.ok ? "status" : "alert"}>{msg.text}</p>}
      </section>
      {props.mayChange && <section class="card"><h2>{t("Assign a provider")}</h2><ProviderSearch onPick={assign} /></section>}
    </div>
  );
}
