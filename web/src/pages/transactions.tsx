/**
 * Transactions: every row of the visible brokers in a virtualised table (only the rows in view
 * are in the DOM, so 20,000 rows scroll like 20), filters by broker, asset, type and dates, and a
 * form that knows each type's fields. The form validates the batch with the API before it
 * commits, and shows the API's issues on the fields they concern.
 */
import { Fragment } from "preact";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { api, errorText, type Body } from "../api/client.ts";
import type { Transaction } from "../api/types.ts";
import { Dialog, ErrorNote, Field, Loading, Page, Select } from "../components/ui.tsx";
import { formatDate, formatDecimal, formatMoney, MASK } from "../lib/format.ts";
import { roundDecimal, signOf, toInputText } from "../lib/decimal.ts";
import { navigate, useLocation } from "../lib/router.tsx";
import { localeOf, useApp } from "../lib/store.ts";
import {
  checkForm, conversionCost, emptyForm, fromTransaction, issuesToErrors, paysByConversion, readNumbers, toCreates, txRules, txTypeLabel, txTypeMenuLabel,
  visibleFields, type FormErrors, type TxForm, type TxRules, type TxType,
} from "../lib/tx-form.ts";
import { useAsync } from "../lib/use-async.ts";
import { assetTypeOptions } from "../lib/asset-types.ts";
import { msg, t } from "../lib/i18n.ts";

const FIRST_PAGE = 500;
const PAGE = 10_000;

interface Loaded { data?: Transaction[]; done: boolean; error?: unknown; loading: boolean; reload(): void }

/**
 * Loads every matching row: a first small page is shown at once, the rest follows in pages of
 * 10,000 (the API's maximum) appended as they arrive, so a long ledger is usable before it is whole.
 */
function useTransactions(filters: Record<string, string>, key: string): Loaded {
  const [state, setState] = useState<{ data?: Transaction[]; done: boolean; error?: unknown }>({ done: false });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    const query = {
      broker_id: filters.broker_id ? Number(filters.broker_id) : undefined,
      asset_id: filters.asset_id ? Number(filters.asset_id) : undefined,
      types: filters.type ? [filters.type as TxType] : undefined,
      date_start: filters.date_start || undefined, date_end: filters.date_end || undefined,
    };
    setState((s) => ({ data: s.data, done: false }));
    (async () => {
      let out: Transaction[] = [];
      let offset = 0;
      let limit = FIRST_PAGE;
      while (true) {
        const page = await api.get("/transactions", { signal: controller.signal, query: { ...query, limit, offset } });
        out = offset === 0 ? page : out.concat(page);
        const done = page.length < limit;
        setState({ data: out, done });
        if (done) return;
        offset += limit;
        limit = PAGE;
      }
    })().catch((error) => { if ((error as Error).name !== "AbortError") setState((s) => ({ ...s, error, done: true })); });
    return () => controller.abort();
  }, [key, tick]);
  return { ...state, loading: !state.done, reload: () => setTick((t) => t + 1) };
}
const ROW_HEIGHT = 40;
/** On a phone each row is a card of four lines (styles.css), every column shown. */
const CARD_HEIGHT = 104;
const PHONE_QUERY = "(max-width: 720px)";

/** Whether the viewport is phone-sized, following resizes and rotations. */
function usePhone(): boolean {
  const [phone, setPhone] = useState(() => typeof matchMedia === "function" && matchMedia(PHONE_QUERY).matches);
  useEffect(() => {
    if (typeof matchMedia !== "function") return;
    const mq = matchMedia(PHONE_QUERY);
    const on = () => setPhone(mq.matches);
    mq.addEventListener("change", on);
    return () => mq.removeEventListener("change", on);
  }, []);
  return phone;
}

export function TransactionsPage() {
  const loc = useLocation();
  const { prefs, privacy } = useApp();
  const locale = localeOf(prefs);
  const q = loc.query;
  const filters = {
    broker_id: q.get("broker_id") ?? "", asset_id: q.get("asset_id") ?? "", type: q.get("type") ?? "",
    date_start: q.get("date_start") ?? "", date_end: q.get("date_end") ?? "",
  };
  const setFilter = (k: keyof typeof filters, v: string) => {
    const next = new URLSearchParams(location.search);
    if (v) next.set(k, v); else next.delete(k);
    navigate(`/transactions${next.toString() ? `?${next}` : ""}`, { replace: true });
  };
  const brokers = useAsync((signal) => api.get("/brokers", { signal }), []);
  const assets = useAsync((signal) => api.get("/assets/all", { signal }), []);
  // The types and their field and sign rules come from the API, never from a copy here.
  const types = useAsync((signal) => api.get("/transactions/types", { signal }), []);
  const rules = useMemo(() => (types.data ? txRules(types.data.transaction_types) : null), [types.data]);
  const typeOptions = [...(rules?.keys() ?? [])].map((x) => ({ value: x, label: txTypeMenuLabel(x) }));
  const rows = useTransactions(filters, loc.query.toString());
  const [editing, setEditing] = useState<Transaction | "new" | null>(null);
  const brokerName = useMemo(() => new Map((brokers.data?.items ?? []).map((b) => [b.id, b.name])), [brokers.data]);
  const assetById = useMemo(() => new Map((assets.data ?? []).map((a) => [a.id, a])), [assets.data]);
  const writable = (brokers.data?.items ?? []).filter((b) => b.user_role !== "VIEWER");

  const remove = async (tx: Transaction) => {
    const ids = tx.related_transaction_id ? [tx.id, tx.related_transaction_id] : [tx.id];
    if (!confirm(ids.length > 1 ? t("Delete both legs of this pair?") : t("Delete this transaction?"))) return;
    try {
      const r = await api.post("/transactions/commit", { body: { deletes: ids } });
      if (!r.committed) throw new Error(r.issues.map((i) => i.error).join("; "));
      rows.reload();
    } catch (e) { alert(errorText(e)); }
  };

  return (
    <Page title={t("Transactions")} actions={writable.length > 0 && <button type="button" class="primary" onClick={() => setEditing("new")}>{t("New transaction")}</button>}>
      <form class="toolbar filters" aria-label={t("Filters")} onSubmit={(e) => e.preventDefault()}>
        <Field label={t("Broker")}>{(id) => <Select id={id} value={filters.broker_id} placeholder={t("All")} options={(brokers.data?.items ?? []).map((b) => ({ value: String(b.id), label: b.name }))} onChange={(v) => setFilter("broker_id", v)} />}</Field>
        <Field label={t("Asset")}>{(id) => <Select id={id} value={filters.asset_id} placeholder={t("All")} options={(assets.data ?? []).map((a) => ({ value: String(a.id), label: a.name }))} onChange={(v) => setFilter("asset_id", v)} />}</Field>
        <Field label={t("Type")}>{(id) => <Select id={id} value={filters.type} placeholder={t("All")} options={typeOptions} onChange={(v) => setFilter("type", v)} />}</Field>
        <Field label={t("From")}>{(id) => <input id={id} type="date" value={filters.date_start} onChange={(e) => setFilter("date_start", (e.target as HTMLInputElement).value)} />}</Field>
        <Field label={t("To")}>{(id) => <input id={id} type="date" value={filters.date_end} onChange={(e) => setFilter("date_end", (e.target as HTMLInputElement).value)} />}</Field>
      </form>
      <ErrorNote error={rows.error ?? types.error} />
      {rows.loading && !rows.data && <Loading label={t("Loading transactions…")} />}
      {rows.data && (
        <>
          <p class="muted" role="status" aria-live="polite">
            {formatDecimal(String(rows.data.length), locale)} {rows.data.length === 1 ? t("transaction") : t("transactions")}{rows.done ? "" : ` ${t("so far, loading more…")}`}
          </p>
          <VirtualTable
            rows={rows.data}
            render={(tx) => {
              const asset = tx.asset_id ? assetById.get(tx.asset_id) : undefined;
              const canWrite = writable.some((b) => b.id === tx.broker_id);
              return [
                formatDate(tx.date, locale),
                txTypeLabel(tx.type),
                brokerName.get(tx.broker_id) ?? `#${tx.broker_id}`,
                asset?.name ?? (tx.asset_id ? `#${tx.asset_id}` : ""),
                signOf(tx.quantity) === 0 ? "" : privacy ? MASK : formatDecimal(tx.quantity, locale, { maxPlaces: 8 }),
                tx.cash ? (privacy ? MASK : formatMoney(tx.cash.amount, tx.cash.code, locale)) : "",
                tx.description ?? "",
                canWrite ? (
                  <span class="row-actions">
                    {!tx.related_transaction_id && <button type="button" class="ghost" onClick={() => setEditing(tx)} aria-label={t("Edit transaction {id}", { id: tx.id })}>{t("Edit")}</button>}
                    <button type="button" class="ghost" onClick={() => remove(tx)} aria-label={t("Delete transaction {id}", { id: tx.id })}>{t("Delete")}</button>
                  </span>
                ) : "",
              ];
            }}
          />
        </>
      )}
      {editing && rules && (
        <TxDialog rules={rules} tx={editing === "new" ? null : editing} brokers={writable} assets={assets.data ?? []}
          defaults={{ broker_id: filters.broker_id, asset_id: filters.asset_id }} onAssetCreated={assets.reload}
          onClose={() => setEditing(null)} onSaved={() => { setEditing(null); rows.reload(); }} />
      )}
    </Page>
  );
}

const COLUMNS = [msg("Date"), msg("Type"), msg("Broker"), msg("Asset"), msg("Quantity"), msg("Cash"), msg("Description"), ""];

/** A table that renders only the rows in view (plus a margin), positioned in a full-height spacer. */
function VirtualTable<T extends { id: number }>(props: { rows: T[]; render(row: T): preact.ComponentChildren[] }) {
  const box = useRef<HTMLDivElement>(null);
  const [scroll, setScroll] = useState(0);
  const [height, setHeight] = useState(600);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setHeight(el.clientHeight));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  const rowHeight = usePhone() ? CARD_HEIGHT : ROW_HEIGHT;
  const first = Math.max(0, Math.floor(scroll / rowHeight) - 10);
  const last = Math.min(props.rows.length, Math.ceil((scroll + height) / rowHeight) + 10);
  const visible = props.rows.slice(first, last);
  return (
    <div class="vtable" role="table" aria-label={t("Transactions")} aria-rowcount={props.rows.length + 1}>
      <div class="vbody" ref={box} tabIndex={0} aria-label={t("Transaction rows, scroll for more")}
        onScroll={(e) => setScroll((e.target as HTMLDivElement).scrollTop)}>
        <div class="vrow vhead" role="row" aria-rowindex={1}>
          {COLUMNS.map((c, i) => <div key={i} role="columnheader" class={`c${i}`}>{c ? t(c) : <span class="sr-only">{t("Actions")}</span>}</div>)}
        </div>
        <div class="vspace" style={{ height: `${props.rows.length * rowHeight}px` }}>
          {visible.map((row, i) => (
            <div key={row.id} class="vrow" role="row" aria-rowindex={first + i + 2} data-id={row.id}
              style={{ top: `${(first + i) * rowHeight}px`, height: `${rowHeight}px` }}>
              {props.render(row).map((cell, c) => <div key={c} role="cell" class={`c${c}`} data-label={COLUMNS[c] ? t(COLUMNS[c]!) : undefined} title={typeof cell === "string" ? cell : undefined}>{cell}</div>)}
            </div>
          ))}
        </div>
      </div>
      {props.rows.length === 0 && <p class="muted">{t("No transactions match.")}</p>}
    </div>
  );
}

/**
 * A new asset created from inside the transaction form, so a first buy does not start with a
 * detour to the assets page: name, currency and type, then it is chosen in the form.
 */
function InlineAsset(props: { defaultCurrency: string; onCancel(): void; onCreated(a: { id: number; name: string; currency: string }): void }) {
  const [name, setName] = useState("");
  const [currency, setCurrency] = useState(props.defaultCurrency || "EUR");
  const [type, setType] = useState<string>("STOCK");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const create = async () => {
    setError(null);
    if (!name.trim()) { setError(t("Enter the asset's name.")); return; }
    if (!/^[A-Za-z]{3}$/.test(currency.trim())) { setError(t("Enter a three-letter currency code.")); return; }
    setBusy(true);
    try {
      const r = await api.post("/assets", { body: [{ name: name.trim(), currency: currency.trim().toUpperCase(), asset_type: type as "STOCK" }] });
      const res = r.results[0];
      if (!res?.success || !res.asset_id) throw new Error(res?.message ?? r.errors.join("; "));
      props.onCreated({ id: res.asset_id, name: name.trim(), currency: currency.trim().toUpperCase() });
    } catch (err) { setError(errorText(err)); } finally { setBusy(false); }
  };
  return (
    <fieldset class="inline-create" aria-label={t("New asset")}>
      <Field label={t("Name of the new asset")}>{(id) => <input id={id} maxLength={255} value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)}
        onKeyDown={(e) => { if (e.key === "Enter") { e.preventDefault(); void create(); } }} />}</Field>
      <div class="row">
        <Field label={t("Its currency")}>{(id) => <input id={id} maxLength={3} size={4} value={currency} onInput={(e) => setCurrency((e.target as HTMLInputElement).value.toUpperCase())} />}</Field>
        <Field label={t("Its type")}>{(id) => <Select id={id} value={type} options={assetTypeOptions()} onChange={setType} />}</Field>
      </div>
      {error && <p class="note error" role="alert">{error}</p>}
      <div class="form-actions">
        <button type="button" onClick={props.onCancel}>{t("Cancel")}</button>
        <button type="button" class="primary" disabled={busy} onClick={create}>{t("Create asset")}</button>
      </div>
    </fieldset>
  );
}

const FIELD_LABEL: Record<string, string> = {
  type: msg("Type"), broker_id: msg("Broker"), to_broker_id: msg("To broker"), date: msg("Date"), asset_id: msg("Asset"), quantity: msg("Quantity"),
  amount: msg("Amount"), currency: msg("Currency"), to_amount: msg("Amount received"), to_currency: msg("Currency received"),
  cost_basis: msg("Cost per unit"), description: msg("Description"), tags: msg("Tags (comma separated)"),
  pay_currency: msg("Pay from"), fx_rate: msg("Exchange rate"),
};

function TxDialog(props: {
  rules: TxRules;
  tx: Transaction | null;
  brokers: { id: number; name: string }[];
  assets: { id: number; name: string; currency: string }[];
  defaults: Partial<TxForm>;
  onClose(): void;
  onSaved(): void;
  onAssetCreated(): void;
}) {
  const { prefs } = useApp();
  const locale = localeOf(prefs);
  const [form, setForm] = useState<TxForm>(() => props.tx ? fromTransaction(props.rules, props.tx, locale) : emptyForm({
    currency: prefs.base_currency, ...Object.fromEntries(Object.entries(props.defaults).filter(([, v]) => v)),
  }));
  const [errors, setErrors] = useState<FormErrors>({});
  const [general, setGeneral] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [creatingAsset, setCreatingAsset] = useState(false);
  const [created, setCreated] = useState<{ id: number; name: string; currency: string } | null>(null);
  const assetList = created && !props.assets.some((a) => a.id === created.id) ? [...props.assets, created] : props.assets;
  const set = (k: keyof TxForm, v: string) => {
    if (k === "fx_rate") setRateTyped(true);
    if (k === "pay_currency") setRateTyped(false);
    setForm((f) => {
      const next = { ...f, [k]: v };
      if (k === "asset_id" && v && !props.tx) {
        const a = assetList.find((x) => String(x.id) === v);
        if (a) next.currency = a.currency;
      }
      return next;
    });
    setErrors((e) => ({ ...e, [k]: undefined }));
  };
  const rules = props.rules;
  const rule = rules.get(form.type);
  const fields = visibleFields(rules, form.type);
  const assetCurrency = assetList.find((a) => String(a.id) === form.asset_id)?.currency;

  // A buy in a currency the broker holds no cash in can be paid from its cash in another
  // currency: the form writes the conversion with the buy, at a rate the user sees and can change.
  const buyCurrency = form.currency.trim().toUpperCase();
  const balances = useAsync(async (signal) => form.type === "BUY" && form.broker_id && !props.tx
    ? (await api.get("/brokers/{id}/summary", { path: { id: Number(form.broker_id) }, signal })).cash_balances : null, [form.type, form.broker_id]);
  const payOptions = (balances.data ?? []).filter((c) => c.code !== buyCurrency && signOf(c.amount) > 0).map((c) => c.code);
  const ownCash = (balances.data ?? []).find((c) => c.code === buyCurrency);
  useEffect(() => {
    // No cash in the buy's currency but some in another: offer that one first.
    if (!balances.data || props.tx || !/^[A-Z]{3}$/.test(buyCurrency)) return;
    const none = !ownCash || signOf(ownCash.amount) <= 0;
    setForm((f) => {
      const chosen = f.pay_currency && f.pay_currency !== buyCurrency && payOptions.includes(f.pay_currency) ? f.pay_currency : "";
      const pay = chosen || (none && payOptions[0] ? payOptions[0] : "");
      return pay === f.pay_currency ? f : { ...f, pay_currency: pay, fx_rate: "" };
    });
  }, [balances.data, buyCurrency]);
  const converting = paysByConversion(form);
  const suggested = useAsync(async (signal) => {
    if (!converting || !/^\d{4}-\d{2}-\d{2}$/.test(form.date)) return null;
    try {
      const r = await api.post("/fx/currencies/convert", { signal, body: [{ from_amount: { code: form.pay_currency, amount: "1" }, to: buyCurrency, date_range: { start: form.date, end: form.date } }] });
      return r.results[0]?.rate ?? null;
    } catch { return null; }
  }, [converting, form.pay_currency, buyCurrency, form.date]);
  const [rateTyped, setRateTyped] = useState(false);
  useEffect(() => {
    if (suggested.data && !rateTyped) setForm((f) => ({ ...f, fx_rate: toInputText(roundDecimal(suggested.data!, 6).replace(/(\.\d*?)0+$/, "$1").replace(/\.$/, ""), locale) }));
  }, [suggested.data]);

  const submit = async (e: Event) => {
    e.preventDefault();
    setGeneral([]);
    const local = checkForm(rules, form, locale);
    setErrors(local);
    if (Object.keys(local).length) return;
    setBusy(true);
    try {
      const rows = toCreates(rules, form, { assetCurrency, locale });
      // The rows follow the per-type rules of lib/tx-form.ts (unit-tested); the generated type is a
      // union per transaction type, which a form holding any type cannot name statically.
      const body = (props.tx
        ? { updates: [{ id: props.tx.id, ...rows[0], broker_id: undefined, asset_id: undefined, link_uuid: undefined }] }
        : { creates: rows }) as unknown as Body<"post", "/transactions/commit">;
      const check = await api.post("/transactions/validate", { body });
      if (check.issues.length) {
        const mapped = issuesToErrors(rules, check.issues, form.type, { conversion: converting });
        setErrors(mapped.fields);
        setGeneral(mapped.general);
        return;
      }
      const done = await api.post("/transactions/commit", { body });
      if (!done.committed) {
        const mapped = issuesToErrors(rules, done.issues, form.type, { conversion: converting });
        setErrors(mapped.fields);
        setGeneral(mapped.general.length ? mapped.general : [t("Nothing was saved.")]);
        return;
      }
      props.onSaved();
    } catch (err) {
      setGeneral([errorText(err)]);
    } finally {
      setBusy(false);
    }
  };

  const control = (k: keyof TxForm, id: string, describedBy?: string) => {
    const common = { id, "aria-describedby": describedBy, "aria-invalid": errors[k]?.length ? true : undefined };
    switch (k) {
      case "type":
        return <Select {...common} value={form.type} disabled={!!props.tx} options={[...rules.keys()].map((x) => ({ value: x, label: txTypeMenuLabel(x) }))} onChange={(v) => set("type", v)} />;
      case "broker_id":
      case "to_broker_id":
        return <Select {...common} value={form[k]} disabled={!!props.tx && k === "broker_id"} placeholder={t("Choose…")} options={props.brokers.map((b) => ({ value: String(b.id), label: b.name }))} onChange={(v) => set(k, v)} />;
      case "asset_id":
        return <Select {...common} value={form.asset_id} disabled={!!props.tx} placeholder={rule?.asset === "optional" ? t("None") : t("Choose…")} options={assetList.map((a) => ({ value: String(a.id), label: a.name }))} onChange={(v) => set("asset_id", v)} />;
      case "date":
        return <input {...common} type="date" required value={form.date} onInput={(e) => set("date", (e.target as HTMLInputElement).value)} />;
      case "currency":
      case "to_currency":
        return <input {...common} maxLength={3} size={4} value={form[k]} onInput={(e) => set(k, (e.target as HTMLInputElement).value.toUpperCase())} />;
      default:
        return <input {...common} inputMode={["quantity", "amount", "to_amount", "cost_basis"].includes(k) ? "decimal" : undefined} value={form[k]} onInput={(e) => set(k, (e.target as HTMLInputElement).value)} />;
    }
  };

  const hint = (k: keyof TxForm) => {
    if (k === "amount") return (rule?.cashSign ?? 0) < 0 ? t("Paid out of the broker's cash.") : t("Received into the broker's cash.");
    if (k === "quantity" && rule?.quantity === "signed") return t("Negative removes units.");
    if (k === "cost_basis") return assetCurrency ? t("Per unit, in {currency}; needed when units are added.", { currency: assetCurrency }) : t("Per unit; needed when units are added.");
    return undefined;
  };

  const rateHint = () => {
    const read = readNumbers(form, locale).form;
    const cost = conversionCost(read.amount, read.fx_rate, form.pay_currency);
    const parts: string[] = [];
    if (cost) parts.push(t("{paid} are converted into {amount}.", { paid: formatMoney(cost, form.pay_currency, locale), amount: formatMoney(read.amount, buyCurrency, locale) }));
    if (suggested.loading) parts.push(t("Looking up the rate of that day…"));
    else if (suggested.data) parts.push(t("Prefilled with the rate known for that day; change it to your broker's rate."));
    else parts.push(t("No rate is known for that day: enter your broker's rate."));
    return parts.join(" ");
  };

  return (
    <Dialog title={props.tx ? t("Edit transaction") : t("New transaction")} open onClose={props.onClose}>
      <form class="form tx-form" onSubmit={submit} noValidate>
        {fields.map((k) => (
          <Fragment key={k}>
            <Field label={t(FIELD_LABEL[k]!)} error={errors[k]} hint={hint(k)}>{(id, d) => control(k, id, d)}</Field>
            {k === "asset_id" && !props.tx && (creatingAsset
              ? <InlineAsset defaultCurrency={form.currency || prefs.base_currency} onCancel={() => setCreatingAsset(false)} onCreated={(a) => {
                  setCreated(a); setCreatingAsset(false); props.onAssetCreated();
                  setForm((f) => ({ ...f, asset_id: String(a.id), currency: a.currency }));
                  setErrors((e) => ({ ...e, asset_id: undefined }));
                }} />
              : (
                <p class={assetList.length === 0 ? "note" : "muted"}>
                  {assetList.length === 0 && `${t("There is no asset yet.")} `}
                  <button type="button" class="link-button" onClick={() => setCreatingAsset(true)}>{t("Create an asset")}</button>
                </p>
              ))}
            {k === "currency" && form.type === "BUY" && !props.tx && payOptions.length > 0 && /^[A-Z]{3}$/.test(buyCurrency) && (
              <>
                <Field label={t(FIELD_LABEL.pay_currency!)} error={errors.pay_currency}
                  hint={converting ? t("A currency conversion is saved with the buy, in the same step.") : undefined}>
                  {(id, d) => <Select id={id} aria-describedby={d} value={converting ? form.pay_currency : ""}
                    options={[{ value: "", label: t("{code} cash", { code: buyCurrency }) },
                      ...payOptions.map((c) => ({ value: c, label: t("{code} cash (converted to {to})", { code: c, to: buyCurrency }) }))]}
                    onChange={(v) => set("pay_currency", v)} />}
                </Field>
                {converting && (
                  <Field label={t("Exchange rate: 1 {from} in {to}", { from: form.pay_currency, to: buyCurrency })} error={errors.fx_rate} hint={rateHint()}>
                    {(id, d) => <input id={id} aria-describedby={d} inputMode="decimal" value={form.fx_rate} aria-invalid={errors.fx_rate?.length ? true : undefined}
                      onInput={(e) => set("fx_rate", (e.target as HTMLInputElement).value)} />}
                  </Field>
                )}
              </>
            )}
          </Fragment>
        ))}
        {general.length > 0 && <div class="note error" role="alert">{general.map((g, i) => <p key={i}>{g}</p>)}</div>}
        <div class="form-actions">
          <button type="button" onClick={props.onClose}>{t("Cancel")}</button>
          <button type="submit" class="primary" disabled={busy}>{busy ? t("Saving…") : t("Save")}</button>
        </div>
      </form>
    </Dialog>
  );
}
