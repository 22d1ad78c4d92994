/** One broker: cash per currency, holdings, FIFO lots of a chosen asset, and sharing with other users. */
import { useState } from "preact/hooks";
import { api, ApiError, errorText } from "../api/client.ts";
import { Badge, ErrorNote, Field, Loading, Money, Page, Select } from "../components/ui.tsx";
import { formatDate, formatDecimal, formatShare, percentToFraction, shareToPercent } from "../lib/format.ts";
import { readDecimal, toInputText } from "../lib/decimal.ts";
import { Link } from "../lib/router.tsx";
import { localeOf, useApp } from "../lib/store.ts";
import { useAsync } from "../lib/use-async.ts";
import { BrokerForm } from "./brokers.tsx";
import { Qty } from "./dashboard.tsx";
import { msg, t } from "../lib/i18n.ts";

export function BrokerPage(props: { id: string }) {
  const id = Number(props.id);
  const data = useAsync((signal) => api.get("/brokers/{id}/summary", { path: { id }, signal }), [id]);
  const [editing, setEditing] = useState(false);
  if (data.error) {
    return <Page title={t("Broker")}><ErrorNote error={data.error instanceof ApiError && data.error.status === 404 ? new Error(t("This broker does not exist or is not shared with you.")) : data.error} /></Page>;
  }
  if (!data.data) return <Page title={t("Broker")}><Loading /></Page>;
  const b = data.data;
  const canEdit = b.user_role !== "VIEWER";
  return (
    <Page title={b.name} actions={<>
      <Badge>{t("Your role: {role}", { role: b.user_role })}</Badge>
      {canEdit && <button type="button" onClick={() => setEditing(true)}>{t("Edit broker")}</button>}
      <Link class="button" href={`/transactions?broker_id=${b.id}`}>{t("Transactions")}</Link>
    </>}>
      {b.description && <p class="muted">{b.description}</p>}
      {!canEdit && <p class="note" role="status">{t("You can view this broker; only its owners and editors can change it.")}</p>}
      <div class="grid-2">
        <section class="card" aria-labelledby="h-cash">
          <h2 id="h-cash">{t("Cash")}</h2>
          {b.cash_balances.length === 0 ? <p class="muted">{t("No cash.")}</p> : (
            <table class="table compact"><thead><tr><th scope="col">{t("Currency")}</th><th scope="col" class="num">{t("Balance")}</th></tr></thead>
              <tbody>{b.cash_balances.map((c) => <tr key={c.code}><td>{c.code}</td><td class="num"><Money amount={c.amount} currency={c.code} /></td></tr>)}</tbody>
            </table>
          )}
        </section>
        <section class="card" aria-labelledby="h-share"><h2 id="h-share">{t("Sharing")}</h2><Sharing brokerId={b.id} role={b.user_role} /></section>
        <section class="card wide" aria-labelledby="h-hold">
          <h2 id="h-hold">{t("Holdings")}</h2>
          {b.holdings.length === 0 ? <p class="muted">{t("No open positions.")}</p> : (
            <div class="table-wrap"><table class="table phone-cards">
              <thead><tr><th scope="col">{t("Asset")}</th><th scope="col" class="num">{t("Quantity")}</th><th scope="col" class="num">{t("Average cost")}</th><th scope="col" class="num">{t("Total cost")}</th></tr></thead>
              <tbody>{b.holdings.map((h) => (
                <tr key={h.asset_id}>
                  <td><Link href={`/assets/${h.asset_id}`}>{h.asset_name}</Link></td>
                  <td class="num" data-label={t("Quantity")}><Qty value={h.quantity} /></td>
                  <td class="num" data-label={t("Average cost")}>{h.total_cost ? <Money amount={h.average_cost_per_unit} currency={h.total_cost.code} /> : "—"}</td>
                  <td class="num" data-label={t("Total cost")}>{h.total_cost ? <Money amount={h.total_cost.amount} currency={h.total_cost.code} /> : <span class="muted">{t("unknown")}</span>}</td>
                </tr>
              ))}</tbody>
            </table></div>
          )}
        </section>
        <section class="card wide" aria-labelledby="h-lots"><h2 id="h-lots">{t("FIFO lots")}</h2><Lots brokerId={b.id} assets={b.holdings.map((h) => ({ id: h.asset_id, name: h.asset_name }))} /></section>
      </div>
      {editing && <BrokerForm broker={b} onClose={() => setEditing(false)} onSaved={() => { setEditing(false); data.reload(); }} />}
    </Page>
  );
}

function Lots(props: { brokerId: number; assets: { id: number; name: string }[] }) {
  const { prefs } = useApp();
  const locale = localeOf(prefs);
  const [assetId, setAssetId] = useState<number | "">(props.assets[0]?.id ?? "");
  const lots = useAsync(async (signal) => assetId === "" ? null : api.post("/portfolio/lots/analysis", {
    signal, body: { asset_id: assetId, broker_ids: [props.brokerId], requested_analyses: ["LOT_SUMMARY"], target_currency: prefs.base_currency || undefined },
  }), [assetId, props.brokerId]);
  if (props.assets.length === 0) return <p class="muted">{t("No open positions, so no open lots.")}</p>;
  return (
    <div>
      <Field label={t("Asset")}>{(id) => <Select id={id} value={assetId} options={props.assets.map((a) => ({ value: a.id, label: a.name }))} onChange={(v) => setAssetId(Number(v))} />}</Field>
      <ErrorNote error={lots.error} />
      {lots.data && (
        <>
          <p class="muted">{t("Status: {status}", { status: lots.data.calculation_status })}</p>
          <div class="table-wrap"><table class="table">
            <thead><tr><th scope="col">{t("Opened")}</th><th scope="col">{t("Direction")}</th><th scope="col" class="num">{t("Original quantity")}</th><th scope="col" class="num">{t("Open quantity")}</th><th scope="col" class="num">{t("Unit price")}</th><th scope="col" class="num">{t("Realised P&L")}</th></tr></thead>
            <tbody>{(lots.data.lots ?? []).map((l) => (
              <tr key={l.lot_id}>
                <td>{formatDate(l.opening_date, locale)}</td><td>{l.direction}</td>
                <td class="num"><Qty value={l.original_quantity} /></td><td class="num"><Qty value={l.open_quantity} /></td>
                <td class="num"><Money amount={l.opening_unit_price} currency={l.currency} /></td>
                <td class="num"><Money amount={l.realized_pnl} currency={lots.data!.target_currency} signed /></td>
              </tr>
            ))}</tbody>
          </table></div>
          {(lots.data.lots ?? []).length === 0 && <p class="muted">{t("No lots in this period.")}</p>}
          {formatDecimal("0", locale) && null}
        </>
      )}
    </div>
  );
}

const ROLES = ["VIEWER", "EDITOR", "OWNER"] as const;
const SHARE_ERRORS: Record<string, string> = {
  SHARE_INVALID: msg("The owners' shares of a broker must add up to at most 100 %."),
  ACCESS_EXISTS: msg("This user already has access to the broker."),
  LAST_OWNER: msg("A broker needs at least one owner: make someone else owner first."),
  PROMOTION_NOT_ALLOWED: msg("You cannot raise your own role."),
  BROKER_ROLE_REQUIRED: msg("Only an owner of this broker can change who has access."),
  USER_NOT_FOUND: msg("This user does not exist."),
};

function shareError(e: unknown): string {
  if (e instanceof ApiError && SHARE_ERRORS[e.code]) return t(SHARE_ERRORS[e.code]!);
  return errorText(e);
}

/**
 * A share as typed in percent ("50", "33,3333" in Italian) as the API's fraction ("0.5"), or the
 * message saying what to type. The API takes 0 to 1 with six decimals: 0 to 100 % with four.
 */
function readShare(typed: string, locale: string): { ok: true; value: string } | { ok: false; message: string } {
  const r = readDecimal(typed, locale);
  if (!r.ok && r.reason === "ambiguous") return r;
  const fraction = r.ok ? percentToFraction(r.value) : null;
  const places = r.ok ? (r.value.split(".")[1]?.replace(/0+$/, "").length ?? 0) : 0;
  if (!r.ok || fraction === null || r.value.startsWith("-") || places > 4 || !/^(0(\.\d+)?|1)$/.test(fraction)) {
    return { ok: false, message: t("Enter a share between 0 and 100 %, with at most four decimals.") };
  }
  return { ok: true, value: fraction };
}

/**
 * Who has access and how much of the broker each owner counts. Only an OWNER row holds a share
 * (the API refuses one above 0 for EDITOR and VIEWER rows, who count the whole broker), so only
 * those rows have a share field; shares are shown and typed as percentages in the user's locale.
 */
function Sharing(props: { brokerId: number; role: string }) {
  const { me, prefs } = useApp();
  const locale = localeOf(prefs);
  const access = useAsync((signal) => api.get("/brokers/{id}/access", { path: { id: props.brokerId }, signal }), [props.brokerId]);
  const [q, setQ] = useState("");
  const found = useAsync(async (signal) => q.trim().length < 1 ? [] : (await api.get("/users/search", { query: { q: q.trim(), limit: 10 }, signal })).items, [q]);
  const [userId, setUserId] = useState<number | null>(null);
  const [role, setRole] = useState<string>("VIEWER");
  const [share, setShare] = useState("0");
  const [error, setError] = useState<string | null>(null);
  const owner = props.role === "OWNER";

  const add = async (e: Event) => {
    e.preventDefault();
    if (!userId) { setError(t("Choose a user from the search results.")); return; }
    const typed = role === "OWNER" ? readShare(share || "0", locale) : { ok: true as const, value: "0" };
    if (!typed.ok) { setError(typed.message); return; }
    setError(null);
    try {
      await api.post("/brokers/{id}/access", { path: { id: props.brokerId }, body: { user_id: userId, role: role as "VIEWER", share_percentage: typed.value } });
      setQ(""); setUserId(null); access.reload();
    } catch (err) { setError(shareError(err)); }
  };
  const update = async (uid: number, body: { role?: "OWNER" | "EDITOR" | "VIEWER"; share_percentage?: string }) => {
    setError(null);
    try { await api.patch("/brokers/{id}/access/{user_id}", { path: { id: props.brokerId, user_id: uid }, body }); access.reload(); }
    catch (err) { setError(shareError(err)); access.reload(); }
  };
  const updateShare = (uid: number, typed: string) => {
    const r = readShare(typed, locale);
    if (!r.ok) { setError(r.message); return; }
    void update(uid, { share_percentage: r.value });
  };
  const remove = async (uid: number) => {
    setError(null);
    try { await api.delete("/brokers/{id}/access/{user_id}", { path: { id: props.brokerId, user_id: uid } }); access.reload(); }
    catch (err) { setError(shareError(err)); }
  };

  return (
    <div>
      <p class="muted">{t("Everyone with access sees the whole broker; editors and owners can change it, and only owners decide who has access.")}{" "}
        {t("In net worth, an owner counts their share (the owners' shares add up to at most 100 %), an editor or a viewer counts the whole broker.")}</p>
      <ErrorNote error={access.error} />
      <div class="table-wrap"><table class="table compact">
        <thead><tr><th scope="col">{t("User")}</th><th scope="col">{t("Role")}</th><th scope="col" class="num">{t("Share (%)")}</th>{owner && <th scope="col"><span class="sr-only">{t("Actions")}</span></th>}</tr></thead>
        <tbody>
          {access.data?.items.map((a) => (
            <tr key={a.user_id}>
              <td>{a.username}{a.user_id === me.id ? ` ${t("(you)")}` : ""}</td>
              <td>{owner ? (
                <select aria-label={t("Role of {name}", { name: a.username })} value={a.role} onChange={(e) => update(a.user_id, { role: (e.target as HTMLSelectElement).value as "VIEWER" })}>
                  {ROLES.map((r) => <option key={r} value={r}>{r}</option>)}
                </select>) : a.role}</td>
              <td class="num">{a.role !== "OWNER" ? <span class="muted" title={t("Counts the whole broker")}>—</span> : owner ? (
                <input aria-label={t("Share of {name} (%)", { name: a.username })} class="narrow" inputMode="decimal" value={toInputText(shareToPercent(a.share_percentage), locale)}
                  onChange={(e) => updateShare(a.user_id, (e.target as HTMLInputElement).value)} />) : formatShare(a.share_percentage, locale)}</td>
              {owner && <td>{a.user_id !== me.id && <button type="button" class="ghost" onClick={() => remove(a.user_id)} aria-label={t("Remove {name}", { name: a.username })}>{t("Remove")}</button>}</td>}
            </tr>
          ))}
        </tbody>
      </table></div>
      {error && <p class="note error" role="alert">{error}</p>}
      {owner && (
        <form class="form share-form" onSubmit={add} aria-label={t("Share with a user")}>
          <Field label={t("Find a user")}>{(id) => (
            <input id={id} type="search" value={q} placeholder={t("user name")} autoComplete="off"
              onInput={(e) => { setQ((e.target as HTMLInputElement).value); setUserId(null); }} />
          )}</Field>
          {found.data && found.data.length > 0 && !userId && (
            <ul class="picker" role="listbox" aria-label={t("Users found")}>
              {found.data.filter((u) => u.id !== me.id).map((u) => (
                <li key={u.id}><button type="button" role="option" aria-selected={false} onClick={() => { setUserId(u.id); setQ(u.username); }}>{u.username}</button></li>
              ))}
            </ul>
          )}
          <div class="row">
            <Field label={t("Role")}>{(id) => <Select id={id} value={role} options={ROLES.map((r) => ({ value: r, label: r }))} onChange={setRole} />}</Field>
            {role === "OWNER" && <Field label={t("Share (%)")}>{(id) => <input id={id} class="narrow" inputMode="decimal" value={share} onInput={(e) => setShare((e.target as HTMLInputElement).value)} />}</Field>}
          </div>
          <button type="submit" class="primary">{t("Share")}</button>
        </form>
      )}
    </div>
  );
}
