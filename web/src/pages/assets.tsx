/** Assets: search the list, create an asset, search providers for an instrument. */
import { useEffect, useRef, useState } from "preact/hooks";
import { api, buildUrl, errorText } from "../api/client.ts";
import { Badge, Dialog, ErrorNote, Field, Loading, Page, Select } from "../components/ui.tsx";
import { Link, navigate } from "../lib/router.tsx";
import { useApp } from "../lib/store.ts";
import { useAsync } from "../lib/use-async.ts";
import { useProviderNames } from "../lib/provider-names.ts";
import { t } from "../lib/i18n.ts";
import { assetTypeLabel, assetTypeOptions } from "../lib/asset-types.ts";


export function AssetsPage() {
  const [search, setSearch] = useState("");
  const [showArchived, setShowArchived] = useState(false);
  const [creating, setCreating] = useState(false);
  const providerName = useProviderNames("asset");
  const list = useAsync((signal) => api.get("/assets/query", {
    signal, query: { search: search.trim() || undefined, active: showArchived ? undefined : "true" },
  }), [search, showArchived]);
  return (
    <Page title={t("Assets")} actions={<button type="button" class="primary" onClick={() => setCreating(true)}>{t("New asset")}</button>}>
      <div class="toolbar">
        <Field label={t("Search by name, ticker or ISIN")}>{(id) => <input id={id} type="search" value={search} onInput={(e) => setSearch((e.target as HTMLInputElement).value)} />}</Field>
        <label class="check"><input type="checkbox" checked={showArchived} onChange={(e) => setShowArchived((e.target as HTMLInputElement).checked)} /> {t("Show archived")}</label>
      </div>
      <ErrorNote error={list.error} />
      {list.loading && !list.data && <Loading />}
      {list.data && list.data.length === 0 && <p class="muted">{t("No asset found.")}</p>}
      {list.data && list.data.length > 0 && (
        <div class="table-wrap"><table class="table">
          <thead><tr><th scope="col">{t("Name")}</th><th scope="col">{t("Type")}</th><th scope="col">{t("Currency")}</th><th scope="col">{t("Ticker / ISIN")}</th><th scope="col">{t("Price source")}</th></tr></thead>
          <tbody>{list.data.map((a) => (
            <tr key={a.id}>
              <td><Link href={`/assets/${a.id}`}>{a.name}</Link> {!a.active && <Badge kind="warning">{t("archived")}</Badge>}</td>
              <td>{assetTypeLabel(a.asset_type)}</td><td>{a.currency}</td>
              <td>{[a.identifier_ticker, a.identifier_isin].filter(Boolean).join(" · ")}</td>
              <td>{a.provider_code ? providerName(a.provider_code) : <span class="muted">{t("manual")}</span>}</td>
            </tr>
          ))}</tbody>
        </table></div>
      )}
      <NewAsset open={creating} onClose={() => setCreating(false)} />
    </Page>
  );
}

function NewAsset(props: { open: boolean; onClose(): void }) {
  const { prefs } = useApp();
  const [name, setName] = useState("");
  const [currency, setCurrency] = useState(prefs.base_currency || "EUR");
  const [type, setType] = useState<string>("STOCK");
  const [ticker, setTicker] = useState("");
  const [isin, setIsin] = useState("");
  const [error, setError] = useState<string | null>(null);
  const save = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      const r = await api.post("/assets", { body: [{
        name, currency: currency.toUpperCase(), asset_type: type as "STOCK",
        identifier_ticker: ticker.trim() || null, identifier_isin: isin.trim().toUpperCase() || null,
      }] });
      const res = r.results[0];
      if (!res?.success || !res.asset_id) throw new Error(res?.message ?? r.errors.join("; "));
      props.onClose();
      navigate(`/assets/${res.asset_id}?tab=prices`);
    } catch (err) { setError(errorText(err)); }
  };
  return (
    <Dialog title={t("New asset")} open={props.open} onClose={props.onClose}>
      <form class="form" onSubmit={save}>
        <Field label={t("Name")}>{(id) => <input id={id} required maxLength={255} value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />}</Field>
        <div class="row">
          <Field label={t("Currency")}>{(id) => <input id={id} required pattern="[A-Za-z]{3}" maxLength={3} size={4} value={currency} onInput={(e) => setCurrency((e.target as HTMLInputElement).value)} />}</Field>
          <Field label={t("Type")}>{(id) => <Select id={id} value={type} options={assetTypeOptions()} onChange={setType} />}</Field>
        </div>
        <div class="row">
          <Field label={t("Ticker (optional)")}>{(id) => <input id={id} maxLength={20} value={ticker} onInput={(e) => setTicker((e.target as HTMLInputElement).value)} />}</Field>
          <Field label={t("ISIN (optional)")}>{(id) => <input id={id} maxLength={12} value={isin} onInput={(e) => setIsin((e.target as HTMLInputElement).value)} />}</Field>
        </div>
        {error && <p class="note error" role="alert">{error}</p>}
        <div class="form-actions"><button type="button" onClick={props.onClose}>{t("Cancel")}</button><button type="submit" class="primary">{t("Create asset")}</button></div>
      </form>
    </Dialog>
  );
}

interface Hit { provider_code: string; identifier: string; name: string; currency: string | null; identifier_type: string | null }

/**
 * Searches every provider for an instrument through the streamed endpoint: each provider's
 * results appear as it answers (a slow provider holds up nobody), then `done` ends the search.
 */
export function ProviderSearch(props: { onPick(r: Hit): void }) {
  const [q, setQ] = useState("");
  const [hits, setHits] = useState<Hit[]>([]);
  const [failures, setFailures] = useState<string[]>([]);
  const providerName = useProviderNames("asset");
  const [state, setState] = useState<"idle" | "searching" | "done">("idle");
  const source = useRef<EventSource | null>(null);
  useEffect(() => () => source.current?.close(), []);
  const search = (e: Event) => {
    e.preventDefault();
    source.current?.close();
    if (!q.trim()) return;
    setHits([]); setFailures([]); setState("searching");
    const es = new EventSource(buildUrl("/assets/provider/search/stream", undefined, { q: q.trim() }));
    source.current = es;
    es.addEventListener("provider_results", (ev) => {
      const data = JSON.parse((ev as MessageEvent).data) as { provider_code: string; results: Hit[] };
      setHits((h) => [...h, ...data.results.map((r) => ({ ...r, provider_code: r.provider_code ?? data.provider_code }))]);
    });
    es.addEventListener("provider_error", (ev) => {
      const data = JSON.parse((ev as MessageEvent).data) as { provider_code: string; error?: string };
      setFailures((f) => [...f, `${providerName(data.provider_code)}: ${data.error ?? t("failed")}`]);
    });
    es.addEventListener("done", () => { es.close(); setState("done"); });
    es.onerror = () => { es.close(); setState("done"); };
  };
  return (
    <div>
      <form class="row" onSubmit={search}>
        <Field label={t("Search providers")}>{(id) => <input id={id} type="search" value={q} onInput={(e) => setQ((e.target as HTMLInputElement).value)} />}</Field>
        <button type="submit">{t("Search")}</button>
      </form>
      {state === "searching" && <Loading label={t("Asking the providers…")} />}
      <ul class="picker" aria-live="polite">
        {hits.map((r) => (
          <li key={`${r.provider_code}:${r.identifier}`}>
            <button type="button" onClick={() => props.onPick(r)}>{r.name} — {r.identifier} ({providerName(r.provider_code)}{r.currency ? `, ${r.currency}` : ""})</button>
          </li>
        ))}
      </ul>
      {state === "done" && hits.length === 0 && <p class="muted">{t("No result.")}</p>}
      {failures.map((f) => <p key={f} class="muted">{f}</p>)}
    </div>
  );
}
