/** Brokers as cards with their cash balances; create, edit and delete. */
import { useState } from "preact/hooks";
import { api, ApiError, errorText } from "../api/client.ts";
import type { Broker } from "../api/types.ts";
import { Badge, Dialog, ErrorNote, Field, Loading, Money, Page, today } from "../components/ui.tsx";
import { readDecimal, toInputText } from "../lib/decimal.ts";
import { Link } from "../lib/router.tsx";
import { localeOf, useApp } from "../lib/store.ts";
import { useAsync } from "../lib/use-async.ts";
import { t } from "../lib/i18n.ts";
import { roleLabel } from "../lib/labels.ts";

export function BrokersPage() {
  const list = useAsync(async (signal) => (await api.get("/brokers", { signal })).items.map((broker) => ({ broker })), []);
  const [editing, setEditing] = useState<Broker | "new" | null>(null);

  return (
    <Page title={t("Brokers")} actions={<button type="button" class="primary" onClick={() => setEditing("new")}>{t("New broker")}</button>}>
      <ErrorNote error={list.error} />
      {list.loading && !list.data && <Loading />}
      {list.data?.length === 0 && <p class="note">{t("No broker yet. A broker is an account at a bank or trading platform: create one to record its transactions.")}</p>}
      <ul class="cards">
        {list.data?.map(({ broker: b }) => (
          <li key={b.id} class="card broker-card">
            <h2><Link href={`/brokers/${b.id}`}>{b.name}</Link></h2>
            <p><Badge>{roleLabel(b.user_role)}</Badge> {!b.is_active && <Badge kind="warning">{t("inactive")}</Badge>}</p>
            {b.description && <p class="muted">{b.description}</p>}
            <Balances brokerId={b.id} />
            {b.user_role !== "VIEWER" && (
              <button type="button" class="ghost" onClick={() => setEditing(b)} aria-label={t("Edit {name}", { name: b.name })}>{t("Edit")}</button>
            )}
          </li>
        ))}
      </ul>
      <BrokerForm broker={editing} onClose={() => setEditing(null)} onSaved={() => { setEditing(null); list.reload(); }} />
    </Page>
  );
}

/** A card's balances, loaded on their own so the cards show before every summary is computed. */
function Balances(props: { brokerId: number }) {
  const summary = useAsync((signal) => api.get("/brokers/{id}/summary", { path: { id: props.brokerId }, signal }), [props.brokerId]);
  if (summary.error) return <p class="muted">{t("Balances unavailable.")}</p>;
  if (!summary.data) return <p class="muted" aria-busy="true">{t("Loading balances…")}</p>;
  return (
    <dl class="balances">
      {summary.data.cash_balances.map((c) => (
        <div key={c.code}><dt>{c.code}</dt><dd><Money amount={c.amount} currency={c.code} /></dd></div>
      ))}
      {summary.data.cash_balances.length === 0 && <div><dt>{t("Cash")}</dt><dd class="muted">{t("none")}</dd></div>}
      <div><dt>{t("Positions")}</dt><dd>{summary.data.holdings.length}</dd></div>
    </dl>
  );
}

export function BrokerForm(props: { broker: Broker | "new" | null; onClose(): void; onSaved(): void }) {
  const { prefs } = useApp();
  const locale = localeOf(prefs);
  const b = props.broker && props.broker !== "new" ? props.broker : null;
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [overdraft, setOverdraft] = useState(false);
  const [shorting, setShorting] = useState(false);
  const [active, setActive] = useState(true);
  const [initialAmount, setInitialAmount] = useState("");
  const [initialCurrency, setInitialCurrency] = useState(prefs.base_currency || "EUR");
  // The day the account was opened: the opening deposit is dated then, so past trades fit after it.
  const [openedAt, setOpenedAt] = useState(today());
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [key, setKey] = useState<unknown>(null);
  if (props.broker !== key) {
    setKey(props.broker);
    setName(b?.name ?? ""); setDescription(b?.description ?? ""); setOverdraft(b?.allow_cash_overdraft ?? false);
    setShorting(b?.allow_asset_shorting ?? false); setActive(b?.is_active ?? true); setInitialAmount(""); setOpenedAt(b?.opened_at ?? today()); setError(null);
  }

  const save = async (e: Event) => {
    e.preventDefault();
    setBusy(true); setError(null);
    try {
      const fields = { name: name.trim(), description: description.trim() || null, allow_cash_overdraft: overdraft, allow_asset_shorting: shorting, is_active: active };
      if (b) {
        const r = await api.patch("/brokers/{id}", { path: { id: b.id }, body: fields });
        const failed = r.results.find((x) => !x.success);
        if (failed) throw new Error(failed.error ?? t("The broker was not saved."));
      } else {
        const initial = initialAmount.trim() ? readDecimal(initialAmount, locale) : null;
        if (initial && !initial.ok) {
          throw new Error(initial.reason === "ambiguous" ? initial.message
            : t("The initial balance must be a number such as {whole} or {decimal}.", { whole: "1000", decimal: toInputText("1000.50", locale) }));
        }
        const r = await api.post("/brokers", {
          body: [{
            ...fields, opened_at: openedAt || null,
            initial_balances: initial?.ok ? [{ code: initialCurrency.toUpperCase(), amount: initial.value }] : undefined,
          }],
        });
        const failed = r.results.find((x) => !x.success);
        if (failed) throw new Error(failed.error ?? r.errors.join("; "));
      }
      props.onSaved();
    } catch (err) {
      setError(err instanceof ApiError && err.code === "BROKER_NAME_TAKEN" ? t("You already have a broker with this name.") : errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    if (!b || !confirm(t("Delete the broker \"{name}\" and all its transactions? This cannot be undone.", { name: b.name }))) return;
    try {
      await api.delete("/brokers/{id}", { path: { id: b.id } });
      props.onSaved();
    } catch (err) { setError(errorText(err)); }
  };

  return (
    <Dialog title={b ? t("Edit {name}", { name: b.name }) : t("New broker")} open={props.broker !== null} onClose={props.onClose}>
      <form onSubmit={save} class="form">
        <Field label={t("Name")}>{(id) => <input id={id} required maxLength={100} value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />}</Field>
        <Field label={t("Description")}>{(id) => <input id={id} maxLength={500} value={description} onInput={(e) => setDescription((e.target as HTMLInputElement).value)} />}</Field>
        {!b && (
          <Field label={t("Opened on")} hint={t("The initial cash is deposited on this day: choose the day the account was opened to enter older trades.")}>
            {(id, describedBy) => <input id={id} type="date" max={today()} aria-describedby={describedBy} value={openedAt} onInput={(e) => setOpenedAt((e.target as HTMLInputElement).value)} />}
          </Field>
        )}
        {!b && (
          <div class="row">
            <Field label={t("Initial cash balance (optional)")}>{(id) => <input id={id} inputMode="decimal" value={initialAmount} onInput={(e) => setInitialAmount((e.target as HTMLInputElement).value)} />}</Field>
            <Field label={t("Currency")}>{(id) => <input id={id} maxLength={3} size={4} value={initialCurrency} onInput={(e) => setInitialCurrency((e.target as HTMLInputElement).value)} />}</Field>
          </div>
        )}
        <label class="check"><input type="checkbox" checked={overdraft} onChange={(e) => setOverdraft((e.target as HTMLInputElement).checked)} /> {t("Allow negative cash (overdraft)")}</label>
        <label class="check"><input type="checkbox" checked={shorting} onChange={(e) => setShorting((e.target as HTMLInputElement).checked)} /> {t("Allow short positions")}</label>
        {b && <label class="check"><input type="checkbox" checked={active} onChange={(e) => setActive((e.target as HTMLInputElement).checked)} /> {t("Active")}</label>}
        {error && <p class="note error" role="alert">{error}</p>}
        <div class="form-actions">
          {b && b.user_role === "OWNER" && <button type="button" class="danger" onClick={remove}>{t("Delete broker")}</button>}
          <button type="button" onClick={props.onClose}>{t("Cancel")}</button>
          <button type="submit" class="primary" disabled={busy}>{b ? t("Save") : t("Create broker")}</button>
        </div>
      </form>
    </Dialog>
  );
}
