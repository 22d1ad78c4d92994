/** Settings: the user's profile and preferences; for administrators the server's settings, scheduler, caches, users and plugins. */
import { useId, useState } from "preact/hooks";
import { api, ApiError, errorText } from "../api/client.ts";
import { PasswordRequirements, unmetPasswordRequirements } from "../components/password-requirements.tsx";
import { Badge, ErrorNote, Field, Loading, Page, Select } from "../components/ui.tsx";
import { formatDateTime } from "../lib/format.ts";
import { Link } from "../lib/router.tsx";
import { localeOf, useApp } from "../lib/store.ts";
import { useAsync } from "../lib/use-async.ts";
import { t } from "../lib/i18n.ts";
import { cacheLabel, jobLabel, pluginKindLabel, pluginStatusLabel, runStatusLabel, settingHint, settingLabel } from "../lib/labels.ts";

export const LANGUAGES = [["en", "English"], ["de", "Deutsch"], ["fr", "Français"], ["it", "Italiano"], ["es", "Español"], ["nl", "Nederlands"], ["pt", "Português"]] as const;

export function SettingsPage() {
  const { me } = useApp();
  return (
    <Page title={t("Settings")}>
      <div class="grid-2">
        <Preferences />
        <section class="card"><h2>{t("Account")}</h2><p>{me.username} · {me.email}</p><p><Link href="/settings/ai-access">{t("AI access")}</Link></p>{me.is_superuser && <><Badge>{t("administrator")}</Badge> <Link href="/admin">{t("Administration")}</Link></>}</section>
        <ChangePassword />
        {me.is_superuser && <Admin />}
      </div>
    </Page>
  );
}

function Preferences() {
  const { prefs, setPrefs } = useApp();
  const [language, setLanguage] = useState(prefs.language);
  const [currency, setCurrency] = useState(prefs.base_currency);
  const [theme, setTheme] = useState(prefs.theme);
  const [msg, setMsg] = useState<{ ok: boolean; text: string } | null>(null);
  const save = async (e: Event) => {
    e.preventDefault();
    try {
      const r = await api.put("/settings/user", { body: { language, base_currency: currency.toUpperCase(), theme: theme as "auto" } });
      await setPrefs(r);
      setMsg({ ok: true, text: t("Preferences saved.") });
    } catch (err) { setMsg({ ok: false, text: errorText(err) }); }
  };
  return (
    <form class="card form" onSubmit={save} aria-labelledby="h-prefs">
      <h2 id="h-prefs">{t("Preferences")}</h2>
      <Field label={t("Language")} hint={t("Also sets how numbers and dates are written.")}>{(id) => <Select id={id} value={language} options={LANGUAGES.map(([v, l]) => ({ value: v, label: l }))} onChange={setLanguage} />}</Field>
      <Field label={t("Base currency")} hint={t("The dashboard reports in this currency.")}>{(id) => <input id={id} maxLength={3} size={4} pattern="[A-Za-z]{3}" value={currency} onInput={(e) => setCurrency((e.target as HTMLInputElement).value)} />}</Field>
      <Field label={t("Theme")}>{(id) => <Select id={id} value={theme} options={[{ value: "auto", label: t("Follow the system") }, { value: "light", label: t("Light") }, { value: "dark", label: t("Dark") }]} onChange={setTheme} />}</Field>
      {msg && <p class={`note ${msg.ok ? "" : "error"}`} role={msg.ok ? "status" : "alert"}>{msg.text}</p>}
      <button type="submit" class="primary">{t("Save preferences")}</button>
    </form>
  );
}

/**
 * The own password, changed with the current one (POST /auth/change-password). The password policy's
 * requirements are ticked as the new one is typed; the API checks it again. Every other session of
 * the account ends; this one goes on with the new cookie the API sets.
 */
function ChangePassword() {
  const { me } = useApp();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [again, setAgain] = useState("");
  const [busy, setBusy] = useState(false);
  const [msg, setMsg] = useState<{ ok: boolean; text: string } | null>(null);
  const unmet = unmetPasswordRequirements(next, { username: me.username, email: me.email });
  const rulesId = useId();
  const submit = async (e: Event) => {
    e.preventDefault();
    if (next !== again) { setMsg({ ok: false, text: t("The two passwords differ.") }); return; }
    setBusy(true);
    setMsg(null);
    try {
      await api.post("/auth/change-password", { body: { current_password: current, new_password: next } });
      setCurrent(""); setNext(""); setAgain("");
      setMsg({ ok: true, text: t("Your password was changed. Your other sessions were ended; this one goes on.") });
    } catch (err) {
      const text = err instanceof ApiError && err.code === "INVALID_PASSWORD" ? t("The current password is wrong.")
        : err instanceof ApiError && err.code === "PASSWORD_UNCHANGED" ? t("The new password is the same as the current one.")
        : errorText(err);
      setMsg({ ok: false, text });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card form" onSubmit={submit} aria-labelledby="h-password" data-testid="change-password">
      <h2 id="h-password">{t("Change my password")}</h2>
      <Field label={t("Current password")}>{(id) => <input id={id} type="password" autoComplete="current-password" required value={current} onInput={(e) => setCurrent((e.target as HTMLInputElement).value)} />}</Field>
      <Field label={t("New password")}>{(id) => <input id={id} type="password" autoComplete="new-password" required aria-describedby={rulesId} value={next} onInput={(e) => setNext((e.target as HTMLInputElement).value)} />}</Field>
      <PasswordRequirements id={rulesId} unmet={unmet} />
      <Field label={t("Repeat the new password")}>{(id) => <input id={id} type="password" autoComplete="new-password" required value={again} onInput={(e) => setAgain((e.target as HTMLInputElement).value)} />}</Field>
      {msg && <p class={`note ${msg.ok ? "" : "error"}`} role={msg.ok ? "status" : "alert"}>{msg.text}</p>}
      <button type="submit" class="primary" disabled={busy || unmet.length > 0}>{t("Change password")}</button>
    </form>
  );
}

function Admin() {
  const { prefs } = useApp();
  const locale = localeOf(prefs);
  const settings = useAsync((signal) => api.get("/settings/global", { signal }), []);
  const scheduler = useAsync((signal) => api.get("/settings/scheduler/state", { signal }), []);
  const log = useAsync((signal) => api.get("/settings/scheduler/log", { signal }), []);
  const caches = useAsync((signal) => api.get("/settings/cache/status", { signal }), []);
  const users = useAsync((signal) => api.get("/users", { signal }), []);
  const plugins = useAsync((signal) => api.get("/system/plugin-diagnostics", { signal }), []);
  const info = useAsync((signal) => api.get("/system/info", { signal }), []);
  const [edits, setEdits] = useState<Record<string, string>>({});
  const [msg, setMsg] = useState<{ ok: boolean; text: string } | null>(null);
  const saveSettings = async (e: Event) => {
    e.preventDefault();
    const items = Object.entries(edits).map(([key, value]) => ({ key, value }));
    if (!items.length) return;
    try { await api.patch("/settings/global/bulk", { body: { items } }); setEdits({}); settings.reload(); scheduler.reload(); setMsg({ ok: true, text: t("Settings saved.") }); }
    catch (err) { setMsg({ ok: false, text: errorText(err) }); }
  };
  const clear = async (name?: string) => {
    try {
      if (name) await api.post("/settings/cache/clear/{name}", { path: { name } });
      else await api.post("/settings/cache/clear-all");
      caches.reload();
    } catch (err) { setMsg({ ok: false, text: errorText(err) }); }
  };
  return (
    <>
      <form class="card wide form" onSubmit={saveSettings} aria-labelledby="h-global">
        <h2 id="h-global">{t("Server settings")}</h2>
        <ErrorNote error={settings.error} />
        {settings.loading && !settings.data && <Loading />}
        <div class="settings-grid">
          {settings.data?.items.map((s) => (
            <Field key={s.key} label={settingLabel(s.key)} hint={settingHint(s.key, s.description)}>
              {(id) => s.value_type === "bool"
                ? <Select id={id} value={edits[s.key] ?? s.value} options={[{ value: "true", label: t("Yes") }, { value: "false", label: t("No") }]} onChange={(v) => setEdits({ ...edits, [s.key]: v })} />
                : <input id={id} value={edits[s.key] ?? s.value} onInput={(e) => setEdits({ ...edits, [s.key]: (e.target as HTMLInputElement).value })} />}
            </Field>
          ))}
        </div>
        {msg && <p class={`note ${msg.ok ? "" : "error"}`} role={msg.ok ? "status" : "alert"}>{msg.text}</p>}
        <button type="submit" class="primary" disabled={!Object.keys(edits).length}>{t("Save server settings")}</button>
      </form>
      <section class="card" aria-labelledby="h-sched">
        <h2 id="h-sched">{t("Scheduler")}</h2>
        <ErrorNote error={scheduler.error} />
        {scheduler.data && (
          <dl class="kv">
            {(["current_price", "history_sync"] as const).map((job) => {
              const j = scheduler.data![job];
              return <div key={job}><dt>{jobLabel(job)}</dt><dd>{t("last {last} ({status}), next {next}", { last: j.last_run_at ? formatDateTime(j.last_run_at, locale) : t("never"), status: j.last_status ? runStatusLabel(j.last_status) : "—", next: j.next_run_at ? formatDateTime(j.next_run_at, locale) : t("not scheduled") })}</dd></div>;
            })}
          </dl>
        )}
        <h3>{t("Log")}</h3>
        {log.data && (log.data.items.length === 0 ? <p class="muted">{t("No runs yet.")}</p> : (
          <ul class="log">{log.data.items.slice(0, 50).map((l, i) => <li key={i}>{formatDateTime(l.started_at, locale)} {jobLabel(l.job)}: {runStatusLabel(l.status)} ({t("{ok} ok, {failed} failed", { ok: l.items_ok, failed: l.items_err })}){l.error ? ` — ${l.error}` : ""}</li>)}</ul>
        ))}
      </section>
      <section class="card" aria-labelledby="h-cache">
        <h2 id="h-cache">{t("Caches")}</h2>
        <ErrorNote error={caches.error} />
        <table class="table compact"><thead><tr><th scope="col">{t("Cache")}</th><th scope="col" class="num">{t("Size")}</th><th scope="col"><span class="sr-only">{t("Actions")}</span></th></tr></thead>
          <tbody>{caches.data?.items.map((c) => <tr key={c.name}><td>{cacheLabel(c.name)}</td><td class="num">{c.current_size}/{c.maxsize}</td><td><button type="button" class="ghost" onClick={() => clear(c.name)} aria-label={t("Clear {name}", { name: cacheLabel(c.name) })}>{t("Clear")}</button></td></tr>)}</tbody>
        </table>
        <button type="button" onClick={() => clear()}>{t("Clear all caches")}</button>
      </section>
      <section class="card" aria-labelledby="h-users">
        <h2 id="h-users">{t("Users")}</h2>
        <ErrorNote error={users.error} />
        <ul>{users.data?.items.map((u) => <li key={u.id}>{u.username} · {u.email} {u.is_superuser && <Badge>{t("admin")}</Badge>} {!u.is_active && <Badge kind="warning">{t("disabled")}</Badge>}</li>)}</ul>
      </section>
      <section class="card" aria-labelledby="h-plugins">
        <h2 id="h-plugins">{t("Plugins")}</h2>
        {info.data && <p class="muted">{t("Version")} {info.data.app_version} · {info.data.runtime} {info.data.runtime_version}</p>}
        {info.data && <ImageCheck version={info.data.app_version} />}
        <ErrorNote error={plugins.error} />
        <table class="table compact"><thead><tr><th scope="col">{t("Plugin")}</th><th scope="col">{t("Kind")}</th><th scope="col">{t("Status")}</th></tr></thead>
          <tbody>{plugins.data?.map((p, i) => (
            <tr key={i}><td>{p.name ?? p.id ?? p.filename}</td><td>{pluginKindLabel(p.kind)}</td>
              <td><Badge kind={p.status === "loaded" ? "ok" : p.status === "disabled" ? "info" : "error"}>{pluginStatusLabel(p.status)}</Badge>{p.error ? ` ${p.error}` : ""}</td></tr>
          ))}</tbody>
        </table>
      </section>
    </>
  );
}

const IMAGE_CHECK_KEY = "pt.image-check";
const HOUR = 3_600_000;

/**
 * The update check (administrators only): whether the container image of a release tag is
 * published. The server asks the registry; the answer is kept in this browser for an hour.
 */
export function ImageCheck(props: { version: string }) {
  const [tag, setTag] = useState(props.version);
  const [result, setResult] = useState<{ tag: string; status: string; detail?: string; at: number } | null>(() => {
    try {
      const cached = JSON.parse(localStorage.getItem(IMAGE_CHECK_KEY) ?? "null");
      return cached && Date.now() - cached.at < HOUR ? cached : null;
    } catch { return null; }
  });
  const [error, setError] = useState<unknown>(null);
  const check = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      const r = await api.get("/system/container-image-status", { query: { tag: tag.trim() } });
      const entry = { tag: r.tag, status: r.status, detail: "detail" in r ? r.detail : undefined, at: Date.now() };
      localStorage.setItem(IMAGE_CHECK_KEY, JSON.stringify(entry));
      setResult(entry);
    } catch (err) { setError(err); }
  };
  return (
    <form class="row" onSubmit={check} aria-label={t("Release image check")}>
      <Field label={t("Release tag")}>{(id) => <input id={id} class="narrow" value={tag} onInput={(e) => setTag((e.target as HTMLInputElement).value)} />}</Field>
      <button type="submit">{t("Check the image")}</button>
      {result && <p role="status">{t("Image {tag}: {status}", { tag: result.tag, status: result.status === "published" ? t("published") : result.status === "pending" ? t("not published yet") : t("could not be checked ({detail})", { detail: result.detail ?? t("error") }) })}</p>}
      <ErrorNote error={error} />
    </form>
  );
}
