/** FX: configured pairs and their routes by priority, add a pair from suggested routes, sync, manual rates, rate chart. */
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { api, errorText, type Result } from "../api/client.ts";
import type { FxRoute } from "../api/types.ts";
import { TimeChart } from "../components/chart.tsx";
import { Dialog, ErrorNote, Field, Loading, Page, daysAgo, today } from "../components/ui.tsx";
import { readDecimal, signOf, toChartNumber } from "../lib/decimal.ts";
import { formatDate, formatDecimal } from "../lib/format.ts";
import { moveItem, reorderPlan } from "../lib/reorder.ts";
import { Link, navigate, useLocation } from "../lib/router.tsx";
import { localeOf, useApp } from "../lib/store.ts";
import { useAsync } from "../lib/use-async.ts";
import { runStatusLabel } from "../lib/labels.ts";
import { useProviderNames } from "../lib/provider-names.ts";
import { msg, t } from "../lib/i18n.ts";

const slug = (r: { base: string; quote: string }) => `${r.base}-${r.quote}`;
const MANUAL = "MANUAL";
const isManualRoute = (r: FxRoute) => r.chain_steps.length === 1 && r.chain_steps[0]!.provider === MANUAL;
type ProviderStatus = Result<"get", "/fx/providers/status">[number];
type SyncCause = NonNullable<ProviderStatus["error"]>["cause"];

/** A provider failure's cause in words a user can act on. */
const CAUSES: Record<SyncCause, string> = {
  offline: msg("the server has no network connection to the provider, or the provider refused it"),
  dns: msg("the provider's address does not resolve (DNS): the server may be offline or its DNS misconfigured"),
  http: msg("the provider answered with HTTP error {status}"),
  timeout: msg("the provider did not answer in time"),
  blocked: msg("the server's outbound rules do not allow this provider (administrator settings)"),
  rate_limited: msg("the provider refuses more requests for now (rate limit); try again later"),
  bad_response: msg("the provider answered something that could not be read"),
  not_loaded: msg("the provider's plugin is not loaded on this server"),
  other: msg("the provider call failed"),
};
export const causeText = (cause: SyncCause, status: number | null | undefined) => t(CAUSES[cause] ?? CAUSES.other, { status: status ?? "?" });
/** A route's steps with each provider by name ("EUR→USD (European Central Bank)"). */
const chainText = (steps: { from: string; to: string; provider: string }[], name: (code: string) => string) => steps.map((s) => `${s.from}→${s.to} (${s.provider === MANUAL ? t("manual rates") : name(s.provider)})`).join(", ");

export function FxPage(props: { pair?: string }) {
  const loc = useLocation();
  const { me } = useApp();
  const admin = me.is_superuser;
  const routes = useAsync((signal) => api.get("/fx/providers/routes", { signal }), []);
  const status = useAsync((signal) => api.get("/fx/providers/status", { signal }), []);
  const providerName = useProviderNames("fx");
  const addPair = admin ? loc.query.get("add") : null;
  const byPair = useMemo(() => {
    const m = new Map<string, FxRoute[]>();
    for (const r of routes.data ?? []) m.set(slug(r), [...(m.get(slug(r)) ?? []), r]);
    return m;
  }, [routes.data]);
  const pair = props.pair?.toUpperCase();
  return (
    <Page title={t("Exchange rates")} actions={admin && <button type="button" class="primary" onClick={() => navigate("/fx?add=")}>{t("Add pair")}</button>}>
      <ErrorNote error={routes.error} />
      {!admin && <p class="note" role="note">{t("Pairs, routes and shared rates value every user's portfolio, so only administrators change them. You can sync rates, and keep private rates that fill the days the shared data cannot convert, for your own figures only.")}</p>}
      <div class="grid-2">
        <section class="card" aria-labelledby="h-pairs">
          <h2 id="h-pairs">{t("Pairs")}</h2>
          {routes.loading && !routes.data && <Loading />}
          {routes.data && byPair.size === 0 && <p class="muted">{t("No pair configured. Add one for each currency your assets or cash use besides your base currency.")}</p>}
          <ul class="pair-list">
            {[...byPair.entries()].map(([p, rs]) => (
              <li key={p}>
                <Link href={`/fx/${p}`} aria-current={pair === p ? "page" : undefined}>{p}</Link>
                <span class="muted"> {rs.slice().sort((a, b) => a.priority - b.priority).map((r) => isManualRoute(r) ? t("manual rates") : r.chain_steps.map((s) => providerName(s.provider)).join(" + ")).join(" › ")}</span>
              </li>
            ))}
          </ul>
        </section>
        {pair && <PairDetail pair={pair} routes={byPair.get(pair) ?? []} status={status.data ?? []} onChanged={() => { routes.reload(); status.reload(); }} />}
      </div>
      <AddPair open={addPair !== null} initial={addPair ?? ""} onClose={() => navigate(pair ? `/fx/${pair}` : "/fx", { replace: true })}
        onAdded={(p) => { routes.reload(); navigate(`/fx/${p}`, { replace: true }); }} />
    </Page>
  );
}

function AddPair(props: { open: boolean; initial: string; onClose(): void; onAdded(pair: string): void }) {
  const [base, quote] = props.initial.toUpperCase().split(/[-/]/);
  const [b, setB] = useState(base ?? "");
  const [q, setQ] = useState(quote ?? "");
  const [key, setKey] = useState(props.initial);
  if (key !== props.initial) { setKey(props.initial); setB(base ?? ""); setQ(quote ?? ""); }
  const valid = /^[A-Z]{3}$/.test(b) && /^[A-Z]{3}$/.test(q) && b !== q;
  const providerName = useProviderNames("fx");
  const suggestions = useAsync(async (signal) => valid ? api.get("/fx/providers/routes/suggest", { query: { base: b, quote: q, limit: 10 }, signal }) : null, [b, q, props.open]);
  const [error, setError] = useState<string | null>(null);
  const add = async (steps: { from: string; to: string; provider: string }[], priority: number) => {
    setError(null);
    try {
      const [x, y] = [b, q].sort();
      const r = await api.post("/fx/providers/routes", { body: [{ base: x!, quote: y!, priority, chain_steps: steps.map(({ from, to, provider }) => ({ from, to, provider })) }] });
      const first = r.results[0];
      if (!first?.success) throw new Error(first?.message ?? r.errors.join("; "));
      props.onAdded(`${x}-${y}`);
    } catch (e) { setError(errorText(e)); }
  };
  return (
    <Dialog title={t("Add a currency pair")} open={props.open} onClose={props.onClose}>
      <div class="form">
        <div class="row">
          <Field label={t("Base currency")}>{(id) => <input id={id} maxLength={3} size={4} value={b} onInput={(e) => setB((e.target as HTMLInputElement).value.toUpperCase())} />}</Field>
          <Field label={t("Quote currency")}>{(id) => <input id={id} maxLength={3} size={4} value={q} onInput={(e) => setQ((e.target as HTMLInputElement).value.toUpperCase())} />}</Field>
        </div>
        {valid && (
          <>
            <h3>{t("Suggested routes")}</h3>
            {suggestions.loading && <Loading />}
            <ErrorNote error={suggestions.error} />
            <ul class="picker">
              {suggestions.data?.paths.map((p, i) => (
                <li key={i}><button type="button" onClick={() => add(p.chain_steps, 1)}>{chainText(p.chain_steps, providerName)}</button></li>
              ))}
            </ul>
            {suggestions.data && suggestions.data.paths.length === 0 && <p class="muted">{t("No provider offers this pair.")}</p>}
            <button type="button" onClick={() => add([{ from: b, to: q, provider: "MANUAL" }], 999)}>{t("Enter rates by hand instead")}</button>
          </>
        )}
        {error && <p class="note error" role="alert">{error}</p>}
      </div>
    </Dialog>
  );
}

function PairDetail(props: { pair: string; routes: FxRoute[]; status: ProviderStatus[]; onChanged(): void }) {
  const { me, prefs } = useApp();
  const admin = me.is_superuser;
  const locale = localeOf(prefs);
  const providerName = useProviderNames("fx");
  const [base, quote] = props.pair.split("-") as [string, string];
  const [msg, setMsg] = useState<{ ok: boolean; text: string } | null>(null);
  const [syncing, setSyncing] = useState(false);
  const [start, setStart] = useState(daysAgo(365));
  const rates = useAsync(async (signal) => {
    try {
      return (await api.post("/fx/currencies/convert", { signal, body: [{ from_amount: { code: base, amount: "1" }, to: quote, date_range: { start, end: today() } }] })).results;
    } catch { return []; }
  }, [props.pair, start, props.routes.length, props.routes.map((r) => r.priority).join()]);
  const privateRates = useAsync(async (signal) => (await api.get("/fx/currencies/private-rates", { signal, query: { base, quote } })).items.length, [props.pair, rates.data]);
  const sorted = props.routes.slice().sort((a, b) => a.priority - b.priority);
  const chart = useMemo(() => ({
    dates: (rates.data ?? []).map((r) => r.conversion_date),
    series: [{ label: `${base}→${quote}`, color: "var(--chart-1)", values: (rates.data ?? []).map((r) => toChartNumber(r.rate)) }],
  }), [rates.data]);
  const fmt = useMemo(() => (v: number) => formatDecimal(v.toPrecision(6), locale), [locale]);

  // A new order shows at once (pending) and stays until the reloaded routes arrive.
  const [pending, setPending] = useState<FxRoute[] | null>(null);
  useEffect(() => setPending(null), [props.routes]);
  const shown = pending ?? sorted;
  const reorder = async (next: FxRoute[]) => {
    const plan = reorderPlan(sorted, next);
    if (!plan.creates.length) { setPending(null); return; }
    setPending(next);
    try {
      await api.delete("/fx/providers/routes", { body: plan.deletes.map((priority) => ({ base, quote, priority })) });
      // A manual fallback is posted again last: a provider route written to a pair left with only
      // its MANUAL route would take that route for a placeholder and remove it.
      const fallback = sorted.find(isManualRoute);
      await api.post("/fx/providers/routes", { body: [...plan.creates.filter(({ route }) => !isManualRoute(route)).map(({ route, priority }) => ({
        base, quote, priority, chain_steps: route.chain_steps.map(({ from, to, provider }) => ({ from, to, provider })),
      })), ...(fallback ? [{ base, quote, priority: fallback.priority, chain_steps: [{ from: base, to: quote, provider: MANUAL }] }] : [])] });
    } catch (e) { setMsg({ ok: false, text: errorText(e) }); }
    props.onChanged();
  };
  const move = (i: number, dir: -1 | 1) => void reorder(moveItem(shown, i, i + dir));

  // Drag and drop with the mouse; the same with the keyboard on each route's handle (Space or
  // Enter picks the route up, the arrow keys move it, Space or Enter drops it, Escape cancels).
  const [drag, setDrag] = useState<{ from: number; over: number } | null>(null);
  const [grabbed, setGrabbed] = useState<number | null>(null);
  const [live, setLive] = useState("");
  const handles = useRef<(HTMLButtonElement | null)[]>([]);
  useEffect(() => { if (grabbed !== null) handles.current[grabbed]?.focus(); }, [grabbed, pending]);
  const routeName = (r: FxRoute) => chainText(r.chain_steps, providerName);
  const onHandleKey = (e: KeyboardEvent, i: number) => {
    const r = shown[i]!;
    if (e.key === " " || e.key === "Enter") {
      e.preventDefault();
      if (grabbed === null) {
        setGrabbed(i); setPending(shown.slice());
        setLive(t("Picked up {route}, position {n} of {total}. Use the arrow keys to move it, Space to drop it, Escape to cancel.", { route: routeName(r), n: i + 1, total: shown.length }));
      } else {
        setGrabbed(null);
        setLive(t("Dropped {route} at position {n} of {total}.", { route: routeName(r), n: i + 1, total: shown.length }));
        void reorder(shown);
      }
    } else if (grabbed !== null && (e.key === "ArrowUp" || e.key === "ArrowDown")) {
      e.preventDefault();
      const to = Math.max(0, Math.min(shown.length - 1, i + (e.key === "ArrowUp" ? -1 : 1)));
      if (to === i) return;
      setPending(moveItem(shown, i, to)); setGrabbed(to);
      setLive(t("{route}: position {n} of {total}.", { route: routeName(r), n: to + 1, total: shown.length }));
    } else if (grabbed !== null && e.key === "Escape") {
      e.preventDefault();
      setGrabbed(null); setPending(null);
      setLive(t("Reordering cancelled."));
    }
  };
  const remove = async (priority: number) => {
    try { await api.delete("/fx/providers/routes", { body: [{ base, quote, priority }] }); props.onChanged(); }
    catch (e) { setMsg({ ok: false, text: errorText(e) }); }
  };
  const sync = async () => {
    setSyncing(true); setMsg(null);
    try {
      const r = await api.post("/fx/currencies/sync", { body: { pairs: [props.pair], start, end: today() } });
      // Each failed provider with its cause ("ECB: the provider answered with HTTP error 503").
      const failures = r.results.flatMap((x) => x.detail.filter((d) => d.error !== undefined).map((d) => `${providerName(d.provider)}: ${causeText(d.cause ?? "other", d.http_status)}`));
      const failed = r.results.some((x) => x.status === "failed");
      setMsg({ ok: !failed, text: [
        ...r.results.map((x) => `${x.pair}: ${runStatusLabel(x.status)}, ${t("{count} rate(s) changed", { count: x.points_changed })}${x.message && !failures.length ? ` — ${x.message}` : ""}`),
        ...[...new Set(failures)],
      ].join("; ") });
      rates.reload();
    } catch (e) { setMsg({ ok: false, text: errorText(e) }); } finally { setSyncing(false); props.onChanged(); }
  };
  const providers = [...new Set(sorted.filter((r) => !isManualRoute(r)).flatMap((r) => r.chain_steps.map((s) => providerName(s.provider))))];
  const hasFallback = sorted.some(isManualRoute);
  const addFallback = async () => {
    try {
      const r = await api.post("/fx/providers/routes", { body: [{ base, quote, priority: 999, chain_steps: [{ from: base, to: quote, provider: MANUAL }] }] });
      if (!r.results[0]?.success) throw new Error(r.results[0]?.message ?? r.errors.join("; "));
      setMsg({ ok: true, text: t("Manual rates now convert the days {providers} has no rate for.", { providers: providers.join(", ") }) });
      props.onChanged();
    } catch (e) { setMsg({ ok: false, text: errorText(e) }); }
  };
  return (
    <>
      <section class="card" aria-labelledby="h-routes">
        <h2 id="h-routes">{t("{pair}: routes", { pair: props.pair })}</h2>
        {sorted.length === 0 && <p class="muted">{t("This pair has no route.")} {admin && <><Link href={`/fx?add=${props.pair}`}>{t("Add one")}</Link>.</>}</p>}
        <h3>{t("Where the rates come from")}</h3>
        <ul class="sources" aria-label={t("Where the rates come from")}>
          {sorted.map((r) => {
            const failures = isManualRoute(r) ? [] : r.chain_steps.map((s) => props.status.find((x) => x.provider === s.provider)).filter((x): x is ProviderStatus => !!x?.error);
            return (
              <li key={r.priority}>
                {isManualRoute(r)
                  ? (providers.length ? t("Manual rates, on the days the providers above have no rate for") : t("Manual rates entered by an administrator"))
                  : t("Provider {providers}, synced", { providers: r.chain_steps.map((s) => providerName(s.provider)).join(" + ") })}
                {failures.map((f) => (
                  <p key={f.provider} class="note error" role="alert">{t("{provider}: the last sync on {date} failed: {cause}.", {
                    provider: providerName(f.provider), date: formatDate(f.error!.at.slice(0, 10), locale), cause: causeText(f.error!.cause, f.error!.http_status),
                  })}</p>
                ))}
              </li>
            );
          })}
          {(privateRates.data ?? 0) > 0 && <li>{t("Your private rates ({count}), for your own figures, on days the shared data cannot convert", { count: privateRates.data ?? 0 })}</li>}
        </ul>
        {providers.length > 0 && !hasFallback && (
          <p class="note warning" role="note">{t("Manual rates of this pair are not used: its rates come from {providers}.", { providers: providers.join(", ") })}{" "}
            {admin
              ? <button type="button" onClick={addFallback}>{t("Use manual rates when {providers} has none", { providers: providers.join(", ") })}</button>
              : t("Your private rates are used on the days the shared data cannot convert.")}
          </p>
        )}
        {admin && sorted.length > 1 && <p class="muted" id="reorder-help">{t("Drag a route, or focus its handle and press Space, to change the order in which providers are tried.")}</p>}
        <ol class="routes">
          {shown.map((r, i) => (
            <li key={r.priority} draggable={admin && shown.length > 1} data-priority={r.priority}
              class={`${drag?.over === i && drag.from !== i ? "drop-target" : ""} ${grabbed === i || drag?.from === i ? "grabbed" : ""}`}
              onDragStart={(e) => { setDrag({ from: i, over: i }); e.dataTransfer?.setData("text/plain", String(r.priority)); if (e.dataTransfer) e.dataTransfer.effectAllowed = "move"; }}
              onDragOver={(e) => { if (!drag) return; e.preventDefault(); if (drag.over !== i) setDrag({ ...drag, over: i }); }}
              onDrop={(e) => { e.preventDefault(); if (drag && drag.from !== i) void reorder(moveItem(shown, drag.from, i)); setDrag(null); }}
              onDragEnd={() => setDrag(null)}>
              {admin && shown.length > 1 && (
                <button type="button" class="ghost handle" ref={(el) => { handles.current[i] = el; }} aria-describedby="reorder-help"
                  aria-pressed={grabbed === i} aria-label={t("Reorder route {n}", { n: r.priority })}
                  onKeyDown={(e) => onHandleKey(e as unknown as KeyboardEvent, i)}>⠿</button>
              )}
              <span>{r.priority === 999 ? t("Manual") : t("Priority {n}", { n: r.priority })}: {chainText(r.chain_steps, providerName)}</span>
              {admin && <span class="row-actions">
                <button type="button" class="ghost" disabled={i === 0} onClick={() => move(i, -1)} aria-label={t("Move route {n} up", { n: r.priority })}>↑</button>
                <button type="button" class="ghost" disabled={i === sorted.length - 1} onClick={() => move(i, 1)} aria-label={t("Move route {n} down", { n: r.priority })}>↓</button>
                <button type="button" class="ghost" onClick={() => remove(r.priority)} aria-label={t("Delete route {n}", { n: r.priority })}>{t("Delete")}</button>
              </span>}
            </li>
          ))}
        </ol>
        <div class="form-actions">
          <label class="check">{t("From")} <input type="date" aria-label={t("Sync and chart from")} value={start} onChange={(e) => setStart((e.target as HTMLInputElement).value)} /></label>
          <button type="button" class="primary" disabled={syncing} onClick={sync}>{syncing ? t("Syncing…") : t("Sync rates")}</button>
        </div>
        <p class="sr-only" role="status" aria-live="assertive">{live}</p>
        {syncing && <progress aria-label={t("Syncing rates")} />}
        {msg && <p class={`note ${msg.ok ? "" : "error"}`} role={msg.ok ? "status" : "alert"}>{msg.text}</p>}
      </section>
      <section class="card wide" aria-labelledby="h-rate">
        <h2 id="h-rate">{t("Rate history: {base} to {quote}", { base, quote })}</h2>
        <TimeChart title={t("{base} to {quote} rate", { base, quote })} dates={chart.dates} series={chart.series} format={fmt} />
      </section>
      <ManualRate base={base} quote={quote} onSaved={() => { rates.reload(); privateRates.reload(); }}
        unused={providers.length > 0 && !hasFallback ? providers : null} onUseAsFallback={addFallback} />
    </>
  );
}

/** Administrators keep the shared manual rates; anyone else keeps private ones that only their own figures use (docs/fx.md). */
function ManualRate(props: { base: string; quote: string; onSaved(): void; unused: string[] | null; onUseAsFallback(): void }) {
  const { me, prefs } = useApp();
  const shared = me.is_superuser;
  const locale = localeOf(prefs);
  const [date, setDate] = useState(today());
  const [rate, setRate] = useState("");
  const [msg, setMsg] = useState<{ ok: boolean; text: string } | null>(null);
  const save = async (e: Event) => {
    e.preventDefault();
    const typed = readDecimal(rate, locale);
    if (!typed.ok && typed.reason === "ambiguous") { setMsg({ ok: false, text: typed.message }); return; }
    if (!typed.ok || signOf(typed.value) <= 0) { setMsg({ ok: false, text: t("The rate must be a positive number.") }); return; }
    try {
      const body = [{ date, base: props.base, quote: props.quote, rate: typed.value }];
      const r = await (shared ? api.post("/fx/currencies/rate", { body }) : api.post("/fx/currencies/private-rates", { body }));
      if (!r.results[0]?.success) throw new Error(r.results[0]?.message ?? r.errors.join("; "));
      setMsg({ ok: true, text: t("Saved 1 {base} = {rate} {quote} on {date}.", { base: props.base, rate: formatDecimal(typed.value, locale), quote: props.quote, date: formatDate(date, locale) }) });
      setRate("");
      props.onSaved();
    } catch (err) { setMsg({ ok: false, text: errorText(err) }); }
  };
  return (
    <section class="card" aria-labelledby="h-manual">
      <h2 id="h-manual">{shared ? t("Manual rate") : t("Private rate")}</h2>
      {!shared && <p class="muted">{t("Only your own figures use it, on days the shared rates do not cover.")}</p>}
      {shared && props.unused && <p class="muted">{t("No conversion uses a manual rate of this pair while it has no manual fallback: its rates come from {providers}.", { providers: props.unused.join(", ") })}</p>}
      <form class="form" onSubmit={save}>
        <div class="row">
          <Field label={t("Date")}>{(id) => <input id={id} type="date" required value={date} max={today()} onInput={(e) => setDate((e.target as HTMLInputElement).value)} />}</Field>
          <Field label={t("1 {base} in {quote}", { base: props.base, quote: props.quote })}>{(id) => <input id={id} inputMode="decimal" required value={rate} onInput={(e) => setRate((e.target as HTMLInputElement).value)} />}</Field>
        </div>
        {msg && <p class={`note ${msg.ok ? "" : "error"}`} role={msg.ok ? "status" : "alert"}>{msg.text}
          {msg.ok && shared && props.unused && <>{" "}<button type="button" onClick={props.onUseAsFallback}>{t("Use manual rates when {providers} has none", { providers: props.unused.join(", ") })}</button></>}</p>}
        <button type="submit" class="primary">{t("Save rate")}</button>
      </form>
    </section>
  );
}
