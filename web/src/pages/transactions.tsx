/**
 * Transactions: every row of the visible brokers in a virtualised table (only the rows in view
 * are in the DOM, so 20,000 rows scroll like 20), filters by broker, asset, type and dates, and a
 * form that knows each type's fields. The form validates the batch with the API before it
 * commits, and shows the API's issues on the fields they concern.
 */
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { api, errorText, type Body } from "../api/client.ts";
import type { Transaction } from "../api/types.ts";
import { Dialog, ErrorNote, Field, Loading, Page, Select } from "../components/ui.tsx";
import { formatDate, formatDecimal, formatMoney, MASK } from "../lib/format.ts";
import { signOf, toInputText } from "../lib/decimal.ts";
import { navigate, useLocation } from "../lib/router.tsx";
import { localeOf, useApp } from "../lib/store.ts";
import {
  checkForm, emptyForm, fromTransaction, issuesToErrors, toCreates, TX_RULES, TX_TYPES, txTypeLabel, visibleFields,
  type BatchIssue, type FormErrors, type TxForm, type TxType,
} from "../lib/tx-form.ts";
import { useAsync } from "../lib/use-async.ts";
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
  const rows = useTransactions(filters, loc.query.toString());
  // A draft (from the tools' plans) opens the form filled in; nothing is saved until the user saves it.
  const draft = q.get("draft");
  const [editing, setEditing] = useState<Transaction | "new" | null>(() => draft ? "new" : null);
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
        <Field label={t("Type")}>{(id) => <Select id={id} value={filters.type} placeholder={t("All")} options={TX_TYPES.map((x) => ({ value: x, label: t(TX_RULES[x].label) }))} onChange={(v) => setFilter("type", v)} />}</Field>
        <Field label={t("From")}>{(id) => <input id={id} type="date" value={filters.date_start} onChange={(e) => setFilter("date_start", (e.target as HTMLInputElement).value)} />}</Field>
        <Field label={t("To")}>{(id) => <input id={id} type="date" value={filters.date_end} onChange={(e) => setFilter("date_end", (e.target as HTMLInputElement).value)} />}</Field>
      </form>
      <ErrorNote error={rows.error} />
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
      {editing && (
        <TxDialog tx={editing === "new" ? null : editing} brokers={writable} assets={assets.data ?? []}
          defaults={draft ? draftDefaults(q, locale) : { broker_id: filters.broker_id, asset_id: filters.asset_id }}
          onClose={() => { setEditing(null); if (draft) navigate("/transactions", { replace: true }); }}
          onSaved={() => { setEditing(null); if (draft) navigate("/transactions", { replace: true }); rows.reload(); }} />
      )}
    </Page>
  );
}

/** The form's fields from a draft link (`?draft=BUY&broker_id=…&asset_id=…&quantity=…&amount=…&currency=…`). */
function draftDefaults(q: URLSearchParams, locale: string): Partial<TxForm> {
  const type = TX_TYPES.find((x) => x === q.get("draft")) ?? "BUY";
  return {
    type, broker_id: q.get("broker_id") ?? "", asset_id: q.get("asset_id") ?? "", currency: q.get("currency") ?? "",
    quantity: toInputText(q.get("quantity"), locale), amount: toInputText(q.get("amount"), locale),
  };
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
  const first = Math.max(0, Math.floor(scroll / ROW_HEIGHT) - 10);
  const last = Math.min(props.rows.length, Math.ceil((scroll + height) / ROW_HEIGHT) + 10);
  const visible = props.rows.slice(first, last);
  return (
    <div class="vtable" role="table" aria-label={t("Transactions")} aria-rowcount={props.rows.length + 1}>
      <div class="vbody" role="rowgroup" ref={box} tabIndex={0} aria-label={t("Transaction rows, scroll for more")}
        onScroll={(e) => setScroll((e.target as HTMLDivElement).scrollTop)}>
        <div class="vrow vhead" role="row" aria-rowindex={1}>
          {COLUMNS.map((c, i) => <div key={i} role="columnheader" class={`c${i}`}>{c ? t(c) : <span class="sr-only">{t("Actions")}</span>}</div>)}
        </div>
        <div class="vspace" style={{ height: `${props.rows.length * ROW_HEIGHT}px` }}>
          {visible.map((row, i) => (
            <div key={row.id} class="vrow" role="row" aria-rowindex={first + i + 2} data-id={row.id}
              style={{ top: `${(first + i) * ROW_HEIGHT}px`, height: `${ROW_HEIGHT}px` }}>
              {props.render(row).map((cell, c) => <div key={c} role="cell" class={`c${c}`} title={typeof cell === "string" ? cell : undefined}>{cell}</div>)}
            </div>
          ))}
        </div>
      </div>
      {props.rows.length === 0 && <p class="muted">{t("No transactions match.")}</p>}
    </div>
  );
}

const FIELD_LABEL: Record<string, string> = {
  type: msg("Type"), broker_id: msg("Broker"), to_broker_id: msg("To broker"), date: msg("Date"), asset_id: msg("Asset"), quantity: msg("Quantity"),
  amount: msg("Amount"), currency: msg("Currency"), to_amount: msg("Amount received"), to_currency: msg("Currency received"),
  cost_basis: msg("Cost per unit"), description: msg("Description"), tags: msg("Tags (comma separated)"),
};

function TxDialog(props: {
  tx: Transaction | null;
  brokers: { id: number; name: string }[];
  assets: { id: number; name: string; currency: string }[];
  defaults: Partial<TxForm>;
  onClose(): void;
  onSaved(): void;
}) {
  const { prefs } = useApp();
  const locale = localeOf(prefs);
  const [form, setForm] = useState<TxForm>(() => props.tx ? fromTransaction(props.tx, locale) : emptyForm({
    currency: prefs.base_currency, ...Object.fromEntries(Object.entries(props.defaults).filter(([, v]) => v)),
  }));
  const [errors, setErrors] = useState<FormErrors>({});
  const [general, setGeneral] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const set = (k: keyof TxForm, v: string) => {
    setForm((f) => {
      const next = { ...f, [k]: v };
      if (k === "asset_id" && v && !props.tx) {
        const a = props.assets.find((x) => String(x.id) === v);
        if (a) next.currency = a.currency;
      }
      return next;
    });
    setErrors((e) => ({ ...e, [k]: undefined }));
  };
  const fields = visibleFields(form.type);
  const assetCurrency = props.assets.find((a) => String(a.id) === form.asset_id)?.currency;

  const submit = async (e: Event) => {
    e.preventDefault();
    setGeneral([]);
    const local = checkForm(form, locale);
    setErrors(local);
    if (Object.keys(local).length) return;
    setBusy(true);
    try {
      const rows = toCreates(form, { assetCurrency, locale });
      // The rows follow the per-type rules of lib/tx-form.ts (unit-tested); the generated type is a
      // union per transaction type, which a form holding any type cannot name statically.
      const body = (props.tx
        ? { updates: [{ id: props.tx.id, ...rows[0], broker_id: undefined, asset_id: undefined, link_uuid: undefined }] }
        : { creates: rows }) as unknown as Body<"post", "/transactions/commit">;
      const check = await api.post("/transactions/validate", { body });
      if (check.issues.length) {
        const mapped = issuesToErrors(check.issues as BatchIssue[], form.type);
        setErrors(mapped.fields);
        setGeneral(mapped.general);
        return;
      }
      const done = await api.post("/transactions/commit", { body });
      if (!done.committed) {
        const mapped = issuesToErrors(done.issues as BatchIssue[], form.type);
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
        return <Select {...common} value={form.type} disabled={!!props.tx} options={TX_TYPES.map((x) => ({ value: x, label: t(TX_RULES[x].label) }))} onChange={(v) => set("type", v)} />;
      case "broker_id":
      case "to_broker_id":
        return <Select {...common} value={form[k]} disabled={!!props.tx && k === "broker_id"} placeholder={t("Choose…")} options={props.brokers.map((b) => ({ value: String(b.id), label: b.name }))} onChange={(v) => set(k, v)} />;
      case "asset_id":
        return <Select {...common} value={form.asset_id} disabled={!!props.tx} placeholder={TX_RULES[form.type].asset === "optional" ? t("None") : t("Choose…")} options={props.assets.map((a) => ({ value: String(a.id), label: a.name }))} onChange={(v) => set("asset_id", v)} />;
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
    if (k === "amount") return TX_RULES[form.type].cashSign < 0 ? t("Paid out of the broker's cash.") : t("Received into the broker's cash.");
    if (k === "quantity" && form.type === "ADJUSTMENT") return t("Negative removes units.");
    if (k === "cost_basis") return assetCurrency ? t("Per unit, in {currency}; needed when units are added.", { currency: assetCurrency }) : t("Per unit; needed when units are added.");
    return undefined;
  };

  return (
    <Dialog title={props.tx ? t("Edit transaction") : t("New transaction")} open onClose={props.onClose}>
      <form class="form tx-form" onSubmit={submit} noValidate>
        {fields.map((k) => (
          <Field key={k} label={t(FIELD_LABEL[k]!)} error={errors[k]} hint={hint(k)}>{(id, d) => control(k, id, d)}</Field>
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
